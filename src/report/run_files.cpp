#include "report/run_files.hpp"

#include <charconv>

#include "io/hostlist.hpp"
#include "report/csv_reader.hpp"
#include "util/error.hpp"

namespace hs::report {

namespace {

std::int64_t leading_count(const std::string& part, std::size_t& digits, const std::string& file,
                           long line, const std::string& whole) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
  digits = static_cast<std::size_t>(end - part.data());
  if (ec != std::errc() || digits == 0 || digits == part.size() || v < 0)
    throw InputError({file, line}, "allocation", whole, "bad resource count '" + part + "'");
  return v;
}

// "n[1-4]:4c+2gpu" or "n1:4c+2gpu+2gpu:a100": the same use on every node of the hostlist.
void parse_node_share(const std::string& share, const std::string& file, long line,
                      const std::string& whole, std::vector<NodeUse>& uses) {
  const std::size_t colon = share.find(':');  // node names hold no ':'; typed gres kinds do
  if (colon == std::string::npos || colon == 0)
    throw InputError({file, line}, "allocation", whole, "share '" + share + "' lacks 'node:'");
  NodeUse use;
  std::size_t from = colon + 1;
  bool first = true;
  while (from <= share.size()) {
    const std::size_t plus = std::min(share.find('+', from), share.size());
    const std::string part = share.substr(from, plus - from);
    std::size_t digits = 0;
    const std::int64_t count = leading_count(part, digits, file, line, whole);
    const std::string unit = part.substr(digits);
    if (first && unit != "c")
      throw InputError({file, line}, "allocation", whole,
                       "share '" + share + "' must start with cores");
    if (first)
      use.cores = static_cast<std::int32_t>(count);
    else if (unit != "M" && unit.find(':') == std::string::npos)
      use.gres += count;  // "M" is memory; a typed kind ("gpu:a100") repeats its name's count
    first = false;
    from = plus + 1;
  }
  std::vector<std::string> nodes;
  try {
    nodes = expand_hostlist(share.substr(0, colon), {file, line});
  } catch (const InputError& e) {
    throw InputError({file, line}, "allocation", whole, "node list: " + e.problem());
  }
  for (std::string& node : nodes) {
    use.node = std::move(node);
    uses.push_back(use);
  }
}

}  // namespace

SummaryFile read_summary_file(const std::string& path) {
  const CsvTable t = read_csv_file(path);
  const int name = t.require("metric"), value = t.require("value");
  SummaryFile s;
  s.file = path;
  for (const CsvRecord& r : t.rows) {
    const std::string& metric = r.fields[name];
    for (const std::string& seen : s.metrics)
      if (seen == metric) throw InputError({path, r.line}, "metric", metric, "appears twice");
    s.metrics.push_back(metric);
    s.values.push_back(csv_double(t, r, value));
  }
  return s;
}

std::vector<NodeUse> parse_allocation(const std::string& text, const std::string& file, long line) {
  std::vector<NodeUse> uses;
  std::size_t from = 0;
  while (from < text.size()) {
    const std::size_t semi = std::min(text.find(';', from), text.size());
    parse_node_share(text.substr(from, semi - from), file, line, text, uses);
    from = semi + 1;
  }
  return uses;
}

JobsFile read_jobs_file(const std::string& path) {
  const CsvTable t = read_csv_file(path);
  const int id = t.require("id"), start = t.require("start"), end = t.require("end"),
            wait = t.require("wait"), status = t.require("status"), cores = t.require("cores"),
            alloc = t.require("allocation");
  JobsFile f;
  f.file = path;
  for (int c = cores + 1; c < alloc; ++c) f.gres_names.push_back(t.header[c]);
  for (const CsvRecord& r : t.rows) {
    const std::string& st = r.fields[status];
    if (st == "rejected" || st == "stalled") {
      ++f.not_run;
      continue;
    }
    if (st != "completed" && st != "killed")
      throw InputError({path, r.line}, "status", st, "unknown job status");
    JobRun job;
    job.id = csv_int(t, r, id);
    job.start = csv_int(t, r, start);
    job.end = csv_int(t, r, end);
    job.wait = csv_int(t, r, wait);
    if (job.end < job.start)
      throw InputError({path, r.line}, "end", r.fields[end], "before the start");
    for (int c = cores + 1; c < alloc; ++c) job.gres.push_back(csv_int(t, r, c));
    job.nodes = parse_allocation(r.fields[alloc], path, r.line);
    f.ran.push_back(std::move(job));
  }
  return f;
}

namespace {

// Reads `time` and the given value columns as step series; times must not go back.
UsageFile read_series(const CsvTable& t, const std::vector<int>& columns,
                      std::vector<std::string> names) {
  const int time = t.require("time");
  UsageFile u;
  u.file = t.file;
  u.resources = std::move(names);
  u.used.resize(columns.size());
  for (const CsvRecord& r : t.rows) {
    const std::int64_t at = csv_int(t, r, time);
    if (!u.time.empty() && at < u.time.back())
      throw InputError({t.file, r.line}, "time", r.fields[time], "earlier than the row before");
    u.time.push_back(at);
    for (std::size_t k = 0; k < columns.size(); ++k)
      u.used[k].push_back(csv_double(t, r, columns[k]));
  }
  return u;
}

}  // namespace

UsageFile read_usage_file(const std::string& path) {
  const CsvTable t = read_csv_file(path);
  std::vector<int> columns = {t.require("used_cores")};
  std::vector<std::string> names = {"cores"};
  for (std::size_t c = 0; c < t.header.size(); ++c) {
    const std::string& h = t.header[c];
    if (h.rfind("used_", 0) != 0 || h == "used_cores" || h == "used_mem_mb") continue;
    columns.push_back(static_cast<int>(c));
    names.push_back(h.substr(5));
  }
  return read_series(t, columns, std::move(names));
}

UsageFile read_queue_file(const std::string& path) {
  const CsvTable t = read_csv_file(path);
  return read_series(t, {t.require("pending"), t.require("running")}, {"pending", "running"});
}

}  // namespace hs::report
