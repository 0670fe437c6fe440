#include "cli/repro_data.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "policy/window/window_schedulers.hpp"
#include "util/error.hpp"
#include "util/params.hpp"

namespace hs::cli::repro {

namespace {

const std::vector<std::string> kPublishedHeader = {"source", "table", "row", "machine",
                                                   "workload", "scheduler", "metric", "value"};
const std::vector<std::string> kExperimentHeader = {
    "table", "machine", "workload", "scheduler", "cluster", "workload_spec", "scheduler_spec",
    "quick_workload_spec"};

// Reads a CSV file with the expected header; calls `row` for every data line.
template <class RowFn>
void for_each_row(const std::string& path, const std::vector<std::string>& header, RowFn row) {
  std::ifstream in(path);
  if (!in) throw InputError({path, 0}, "file", path, "cannot open");
  std::string line;
  long line_no = 0;
  bool header_seen = false;
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    auto cells = split_csv_line(line, path, line_no);
    if (!header_seen) {
      if (cells != header)
        throw InputError({path, line_no}, "header", line, "expected the columns of repro/ files");
      header_seen = true;
      continue;
    }
    if (cells.size() != header.size())
      throw InputError({path, line_no}, "columns", std::to_string(cells.size()),
                       "expected " + std::to_string(header.size()) + " fields");
    row(cells, line_no);
  }
  if (!header_seen) throw InputError({path, 0}, "header", "", "empty file");
}

double parse_number(const std::string& text, const std::string& path, long line_no) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size())
    throw InputError({path, line_no}, "value", text, "not a number");
  return v;
}

}  // namespace

std::string with_documents_setting(const std::string& spec) {
  const auto colon = spec.find(':');
  const std::string name = spec.substr(0, colon);
  const auto window = window_scheduler_names();
  if (std::find(window.begin(), window.end(), name) == window.end()) return spec;
  const std::string options = colon == std::string::npos ? "" : spec.substr(colon + 1);
  const Params given = Params::parse(options, "<scheduler " + name + ">");
  std::string added;
  if (!given.has("starvation")) added += ",starvation=none";
  if (!given.has("solver_enumerate_bids")) added += ",solver_enumerate_bids=0";
  if (added.empty()) return spec;
  return spec + (options.empty() ? ":" + added.substr(1) : added);
}

const std::vector<TableInfo>& repro_tables() {
  static const std::vector<TableInfo> tables = {
      {"002-V", "IPSCHED vs Slurm backfill, heterogeneous ESP (basic and multifactor priority)",
       "IPSCHED paper (002), Table V"},
      {"002-VI", "IPSCHED vs Slurm backfill, heterogeneous ESP with jittered job sizes",
       "IPSCHED paper (002), Table VI"},
      {"000-5", "AUCSCHED1 vs Slurm backfill, synthetic workloads I-V x contiguity, machine S",
       "AUCSCHED paper (000), Table 5"},
      {"000-6", "AUCSCHED1 vs Slurm backfill, synthetic workloads I-V x contiguity, machine M",
       "AUCSCHED paper (000), Table 6"},
      {"000-7", "AUCSCHED1 vs Slurm backfill, synthetic workloads I-V x contiguity, machine L",
       "AUCSCHED paper (000), Table 7"},
      {"003-A.1", "IPSCHED, AUCSCHED1 and backfill, heterogeneous ESP (8 experiments)",
       "thesis (003), Table A.1"},
      {"003-A.2", "IPSCHED, AUCSCHED1 and backfill, synthetic workloads I-V, machine L",
       "thesis (003), Table A.2"},
      {"003-A.3", "AUCSCHED2, AUCSCHED1 and backfill, TSUBAME workloads of Table 8.4",
       "thesis (003), Table A.3"},
      {"003-A.4", "AUCSCHED3 vs backfill, 1024-node tree machine, workloads of Table 8.5",
       "thesis (003), Table A.4"},
      {"003-A.5", "AUCSCHED3 vs backfill, TSUBAME 2.0 fat tree, workloads of Table 8.6",
       "thesis (003), Table A.5"},
      {"004-2", "allocators x schedulers on Eurora, April 2015 and April 2014 months",
       "Netti et al. (004), Table 2"},
      {"004-3", "allocators x schedulers on Eurora, September 2014 and August 2014 months",
       "Netti et al. (004), Table 3"},
  };
  return tables;
}

const TableInfo* find_table(const std::string& id) {
  for (const auto& t : repro_tables())
    if (t.id == id) return &t;
  return nullptr;
}

const std::vector<MetricMapping>& metric_mappings() {
  static const std::vector<MetricMapping> m = {
      {"theo_runtime_h", "theoretical_runtime", 1.0 / 3600, "theo. runtime (h)"},
      {"utilization", "utilization", 1, "utilization"},
      {"utilization_pct", "utilization", 100, "util. (%)"},
      {"runtime_h", "span", 1.0 / 3600, "runtime (h)"},
      {"wait_h", "wait_mean", 1.0 / 3600, "wait (h)"},
      {"wait_std_h", "wait_std", 1.0 / 3600, "wait std (h)"},
      {"slowdown", "slowdown_mean", 1, "slowdown"},
      {"slowdown_std", "slowdown_std", 1, "slowdown std"},
      {"fragmentation", "fragmentation_mean", 1, "fragmentation"},
      {"fragmentation_std", "fragmentation_std", 1, "frag. std"},
      {"spread", "spread_mean", 1, "spread"},
      {"spread_std", "spread_std", 1, "spread std"},
      {"packing", "packing_factor_mean", 1, "packing"},
      {"packing_std", "packing_factor_std", 1, "packing std"},
      {"switch_level", "switch_level_mean", 1, "switch level"},
      {"switch_level_std", "switch_level_std", 1, "switch std"},
      {"queue", "queue_mean", 1, "queue size"},
  };
  return m;
}

const MetricMapping* find_metric(const std::string& metric) {
  for (const auto& m : metric_mappings())
    if (m.metric == metric) return &m;
  return nullptr;
}

std::vector<std::string> split_csv_line(const std::string& line, const std::string& file,
                                        long line_no) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cells.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cells.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      cells.emplace_back();
    } else {
      cells.back() += c;
    }
  }
  if (quoted) throw InputError({file, line_no}, "quote", line, "unterminated quoted field");
  return cells;
}

std::vector<PublishedValue> read_published(const std::string& path) {
  std::vector<PublishedValue> out;
  for_each_row(path, kPublishedHeader, [&](const std::vector<std::string>& c, long line_no) {
    PublishedValue v{c[0] + "-" + c[1], c[2], c[3], c[4], c[5], c[6], 0, c[7]};
    if (!find_table(v.table))
      throw InputError({path, line_no}, "table", v.table, "unknown table");
    if (!find_metric(v.metric))
      throw InputError({path, line_no}, "metric", v.metric, "unknown metric");
    v.value = parse_number(c[7], path, line_no);
    out.push_back(v);
  });
  return out;
}

std::vector<PublishedValue> read_published_dir(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec))
    if (e.path().extension() == ".csv") files.push_back(e.path().string());
  if (ec) throw InputError({dir, 0}, "directory", dir, "cannot read: " + ec.message());
  std::sort(files.begin(), files.end());
  std::vector<PublishedValue> all;
  for (const auto& f : files) {
    auto part = read_published(f);
    all.insert(all.end(), part.begin(), part.end());
  }
  return all;
}

std::vector<Experiment> read_experiments(const std::string& path) {
  std::vector<Experiment> out;
  for_each_row(path, kExperimentHeader, [&](const std::vector<std::string>& c, long line_no) {
    Experiment e{c[0], c[1], c[2], c[3], c[4], c[5], with_documents_setting(c[6]), c[7]};
    if (!find_table(e.table)) throw InputError({path, line_no}, "table", e.table, "unknown table");
    for (const auto* field : {&e.cluster, &e.workload_spec, &e.scheduler_spec})
      if (field->empty()) throw InputError({path, line_no}, "spec", "", "empty run field");
    out.push_back(e);
  });
  return out;
}

}  // namespace hs::cli::repro
