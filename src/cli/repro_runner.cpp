#include "cli/repro_runner.hpp"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/comparison.hpp"
#include "util/error.hpp"

namespace hs::cli::repro {

namespace {

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string q = "\"";
  for (char c : text) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string number_text(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

// Same directory naming as run_comparison (cli/comparison.cpp) for the per-run check.txt.
std::string run_label(const std::string& spec) {
  std::string label;
  for (char c : spec) label += std::isalnum(static_cast<unsigned char>(c)) || c == '-' ? c : '_';
  return label;
}

// Sums "violations N" over the runs' check.txt; a missing file counts as a failed run.
void count_violations(const RunGroup& g, int repeat, GroupResult& r) {
  for (const auto& sched : g.schedulers)
    for (int rep = 0; rep < repeat; ++rep) {
      std::ifstream in(g.dir + "/runs/" + run_label(sched) + "/r" + std::to_string(rep) +
                       "/check.txt");
      std::string line;
      bool found = false;
      while (std::getline(in, line))
        if (line.rfind("violations ", 0) == 0) {
          r.violations += std::stoul(line.substr(11));
          found = true;
        }
      if (!found) ++r.failed_runs;
    }
}

std::string quoted(const std::string& s) { return "\"" + s + "\""; }

// A directory name that stays the same whichever tables are chosen (so reuse finds it).
std::string group_name(const std::string& cluster, const std::string& workload) {
  std::string name = cluster + "__";
  for (char c : workload)
    name += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '=' ? c : '_';
  if (workload.find('\'') != std::string::npos) name += "_prime";
  return name;
}

void write_result(const RunGroup& g, const RunSettings& s, const GroupResult& r) {
  std::ofstream out(g.dir + "/result.csv");
  out << "kind,a,b,c,d\n";
  auto meta = [&](const std::string& key, const std::string& value) {
    out << "meta," << key << "," << csv_field(value) << ",,\n";
  };
  meta("cluster", g.cluster);
  meta("workload", g.workload);
  std::string schedulers;
  for (const auto& x : g.schedulers) schedulers += (schedulers.empty() ? "" : " ") + x;
  meta("schedulers", schedulers);
  meta("repeat", std::to_string(r.repeat));
  meta("seed", std::to_string(s.seed));
  meta("jobs", std::to_string(r.jobs));
  meta("runs", std::to_string(r.runs));
  meta("violations", std::to_string(r.violations));
  meta("failed_runs", std::to_string(r.failed_runs));
  meta("wall_seconds", number_text(r.wall_seconds));
  meta("command", r.command);
  for (const auto& [sched, fields] : r.metrics)
    for (const auto& [field, v] : fields)
      out << "metric," << csv_field(sched) << "," << field << "," << number_text(v.mean) << ","
          << number_text(v.std) << "\n";
}

double number(const std::string& text, const std::string& path, long line_no) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size())
    throw InputError({path, line_no}, "value", text, "not a number");
  return v;
}

// A finished result.csv of the same cluster, workload and seed holding every scheduler of
// the group; any repeat.
bool read_result(const RunGroup& g, const RunSettings& s, GroupResult& r) {
  const std::string path = g.dir + "/result.csv";
  std::ifstream in(path);
  if (!in) return false;
  std::map<std::string, std::string> meta;
  std::string line;
  long line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line_no == 1 || line.empty()) continue;
    const auto c = split_csv_line(line, path, line_no);
    if (c.size() != 5) throw InputError({path, line_no}, "columns", line, "expected 5 fields");
    if (c[0] == "meta") meta[c[1]] = c[2];
    else if (c[0] == "metric")
      r.metrics[c[1]][c[2]] = {number(c[3], path, line_no), number(c[4], path, line_no)};
    else throw InputError({path, line_no}, "kind", c[0], "expected meta or metric");
  }
  // A run of more schedulers (other tables chosen) will do; with document_only a run of
  // fewer is documented as far as it goes.
  for (const auto& x : g.schedulers)
    if (!r.metrics.count(x)) r.missing.push_back(x);
  const bool usable = r.missing.empty() || (s.document_only && r.missing.size() < g.schedulers.size());
  if (meta["cluster"] != g.cluster || meta["workload"] != g.workload || !usable ||
      meta["seed"] != std::to_string(s.seed)) {
    r.missing.clear();
    r.metrics.clear();
    return false;
  }
  r.repeat = static_cast<int>(number(meta["repeat"], path, 0));
  // --reuse keeps a group only if it has the repetitions asked for; documenting takes any.
  if (!s.document_only && r.repeat < (s.quick ? 1 : s.repeat)) {
    r.missing.clear();
    r.metrics.clear();
    return false;
  }
  r.jobs = static_cast<std::size_t>(number(meta["jobs"], path, 0));
  r.runs = static_cast<std::size_t>(number(meta["runs"], path, 0));
  r.violations = static_cast<std::size_t>(number(meta["violations"], path, 0));
  r.failed_runs = static_cast<std::size_t>(number(meta["failed_runs"], path, 0));
  r.wall_seconds = number(meta["wall_seconds"], path, 0);
  r.command = compare_command(g, r.repeat, s.seed, s.parallel, s.executor.text);
  r.ran = r.reused = true;
  return true;
}

}  // namespace

const std::string& workload_used(const Experiment& e, bool quick) {
  return quick ? e.quick_workload_spec : e.workload_spec;
}

std::vector<RunGroup> plan_groups(const std::vector<Experiment>& experiments,
                                  const std::set<std::string>& tables, const RunSettings& s) {
  std::vector<RunGroup> groups;
  for (const auto& e : experiments) {
    if (!tables.empty() && !tables.count(e.table)) continue;
    if (s.quick && e.quick_workload_spec.empty()) continue;
    if (!s.workloads.empty() && !s.workloads.count(e.workload)) continue;
    const std::string& workload = workload_used(e, s.quick);
    RunGroup* g = nullptr;
    for (auto& x : groups)
      if (x.cluster == e.cluster && x.workload == workload) g = &x;
    if (!g) {
      groups.push_back({e.cluster, workload, {}, {}, s.out_dir + "/" + group_name(e.cluster, workload)});
      g = &groups.back();
    }
    bool have = false;
    for (const auto& x : g->schedulers) have |= x == e.scheduler_spec;
    if (!have) g->schedulers.push_back(e.scheduler_spec);
    have = false;
    for (const auto& x : g->tables) have |= x == e.table;
    if (!have) g->tables.push_back(e.table);
  }
  return groups;
}

std::string compare_command(const RunGroup& g, int repeat, std::uint64_t seed, int parallel,
                            const std::string& executor) {
  std::ostringstream cmd;
  cmd << "hetsched compare --cluster " << g.cluster << " --workload " << quoted(g.workload);
  for (const auto& s : g.schedulers) cmd << " --scheduler " << quoted(s);
  cmd << " --repeat " << repeat << " --seed " << seed << " --parallel " << parallel;
  if (executor != "local") cmd << " --executor " << quoted(executor);
  cmd << " --out " << g.dir;
  return cmd.str();
}

GroupResult run_group(const RunGroup& g, const RunSettings& s) {
  GroupResult r;
  if ((s.reuse || s.document_only) && read_result(g, s, r)) return r;
  r.repeat = s.quick ? 1 : s.repeat;
  r.command = compare_command(g, r.repeat, s.seed, s.parallel, s.executor.text);
  if (s.document_only) {
    r.skipped = true;
    r.error = "not run in this reproduction (time budget)";
    return r;
  }
  ComparisonSpec spec;
  spec.cluster = g.cluster;
  spec.workload = g.workload;
  spec.schedulers = g.schedulers;
  spec.repeat = r.repeat;
  spec.seed = s.seed;
  spec.parallel = s.parallel;
  spec.executor = s.executor;
  spec.out_dir = g.dir;
  spec.write_report = false;  // plots for ~100 comparisons would cost more than the runs
  std::filesystem::create_directories(g.dir);
  try {
    const ComparisonResult c = run_comparison(spec, r.command);
    r.jobs = c.jobs;
    r.runs = c.runs;
    r.wall_seconds = c.wall_seconds;
    count_violations(g, r.repeat, r);
    for (const auto& row : c.rows)
      for (std::size_t i = 0; i < row.mean.size() && i < g.schedulers.size(); ++i)
        r.metrics[g.schedulers[i]][row.metric] = {row.mean[i], row.std[i]};
    r.ran = !c.rows.empty();
    if (!r.ran) r.error = c.failures.empty() ? "no metrics" : c.failures.front();
  } catch (const std::exception& e) {
    r.error = e.what();
  }
  if (r.ran) write_result(g, s, r);
  return r;
}

}  // namespace hs::cli::repro
