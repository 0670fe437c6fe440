#include "io/job_file.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <unordered_set>

#include "io/job_options.hpp"
#include "io/sacct_reader.hpp"
#include "io/swf_reader.hpp"
#include "io/text_file.hpp"

namespace hs {

using namespace text;  // io's parsing helpers

namespace {

constexpr std::int64_t kMaxTime = 1'000'000'000'000;

// Values are written without spaces: bytes <= ' ', DEL, '%' and '#' become %XX.
std::string escape_value(const std::string& value) {
  std::string out;
  for (unsigned char c : value) {
    if (c <= ' ' || c == 0x7f || c == '%' || c == '#') {
      char buffer[4];
      std::snprintf(buffer, sizeof buffer, "%%%02X", c);
      out += buffer;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

std::string unescape_value(std::string_view text, const InputLocation& where,
                           const std::string& field) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out += text[i];
      continue;
    }
    if (i + 2 >= text.size())
      throw InputError(where, field, std::string(text), "incomplete %XX escape");
    const int hi = hex_digit(text[i + 1]), lo = hex_digit(text[i + 2]);
    if (hi < 0 || lo < 0) throw InputError(where, field, std::string(text), "bad %XX escape");
    out += static_cast<char>(hi * 16 + lo);
    i += 2;
  }
  return out;
}

bool parse_flag(std::string_view text, const InputLocation& where, const std::string& field) {
  if (text == "1" || iequals(text, "yes") || iequals(text, "true")) return true;
  if (text == "0" || iequals(text, "no") || iequals(text, "false")) return false;
  throw InputError(where, field, std::string(text), "expected 0 or 1");
}

Job::EpilogReport parse_epilog_report(std::string_view text, const InputLocation& where,
                                     const std::string& field) {
  if (text == "answer") return Job::EpilogReport::Answer;
  if (text == "message") return Job::EpilogReport::Message;
  throw InputError(where, field, std::string(text), "expected answer or message");
}

// "n9:4,n10:13m": each node's report, ms after the end, `m` for a message (else an answer).
std::vector<Job::NodeEpilog> parse_node_epilogs(std::string_view text, const InputLocation& where,
                                                const std::string& field) {
  std::vector<Job::NodeEpilog> nodes;
  while (!text.empty()) {
    const std::size_t comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    const std::size_t colon = item.rfind(':');
    if (colon == std::string_view::npos || colon == 0)
      throw InputError(where, field, std::string(item), "expected NODE:MS or NODE:MSm");
    Job::NodeEpilog e;
    e.node = std::string(item.substr(0, colon));
    std::string_view ms = item.substr(colon + 1);
    if (ms.ends_with('m')) e.by = Job::EpilogReport::Message, ms.remove_suffix(1);
    e.ms = static_cast<std::int32_t>(parse_int_in(ms, 0, 60000, where, field));
    nodes.push_back(std::move(e));
  }
  return nodes;
}

// key=value fields before, between or after the options.
bool take_field(std::string_view token, Job& job, const InputLocation& where) {
  const std::size_t eq = token.find('=');
  if (token.starts_with("-") || eq == std::string_view::npos) return false;
  const std::string key(token.substr(0, eq));
  const std::string_view value = token.substr(eq + 1);
  if (key == "user") job.user = unescape_value(value, where, key);
  else if (key == "name") job.name = unescape_value(value, where, key);
  else if (key == "partition") job.partition = unescape_value(value, where, key);
  else if (key == "moldable") job.moldable_runtime = parse_flag(value, where, key);
  else if (key == "submit_ms")
    job.submit_ms = static_cast<std::int32_t>(parse_int_in(value, 0, 999, where, key));
  else if (key == "end_latency_ms")
    job.end_latency_ms = static_cast<std::int32_t>(parse_int_in(value, 0, 60000, where, key));
  else if (key == "epilog_ms")
    job.epilog_ms = static_cast<std::int32_t>(parse_int_in(value, 0, 60000, where, key));
  else if (key == "epilog_by")
    job.epilog_by = parse_epilog_report(value, where, key);
  else if (key == "epilog_nodes")
    job.node_epilogs = parse_node_epilogs(value, where, key);
  else
    throw InputError(where, key, std::string(value),
                     "unknown field (user, name, partition, moldable, submit_ms, end_latency_ms, "
                     "epilog_ms, epilog_by, epilog_nodes)");
  return true;
}

Job parse_job_line(std::string_view line, const InputLocation& where) {
  std::vector<std::string_view> tokens = split_whitespace(line);
  const auto comment = std::find_if(tokens.begin(), tokens.end(),
                                    [](std::string_view t) { return t.starts_with('#'); });
  tokens.erase(comment, tokens.end());
  if (tokens.size() < 3)
    throw InputError(where, "job", std::string(trim(line)), "expected <id> <submit> <runtime> ...");
  Job job;
  job.id = parse_int_in(tokens[0], 0, std::numeric_limits<std::int64_t>::max(), where, "id");
  job.submit = parse_int_in(tokens[1], 0, kMaxTime, where, "submit");
  job.run_time = parse_int_in(tokens[2], 0, kMaxTime, where, "runtime");
  std::vector<std::string_view> options;
  for (std::size_t i = 3; i < tokens.size(); ++i)
    if (!take_field(tokens[i], job, where)) options.push_back(tokens[i]);
  parse_job_options(options, job.req, where);
  return job;
}

std::string workload_name(const std::string& path) {
  std::string name = std::filesystem::path(path).filename().string();
  const std::size_t dot = name.find('.');
  return dot == 0 || dot == std::string::npos ? name : name.substr(0, dot);
}

// An empty trace is almost always a wrong file or a truncated download: refuse it rather
// than report a clean run of nothing.
[[noreturn]] void throw_no_jobs(const std::string& path, const std::vector<std::string>& notes) {
  std::string why;
  for (const std::string& note : notes) why += (why.empty() ? " (" : "; ") + note;
  if (!why.empty()) why += ")";
  throw InputError({path, 0}, "file", path, "no jobs in " + path + why);
}

}  // namespace

Workload read_job_file(const std::string& path) {
  const std::string text = read_text_file(path);
  Workload workload;
  workload.name = workload_name(path);
  std::unordered_set<std::int64_t> ids;
  bool header_seen = false;
  long number = 0;
  for (std::string_view line : split_lines(text)) {
    const InputLocation where{path, ++number};
    const std::string_view body = trim(line);
    if (!header_seen) {
      if (body.empty()) continue;
      if (body != kJobFileHeader)
        throw InputError(where, "header", std::string(body),
                         std::string("the first line must be '") + kJobFileHeader + "'");
      header_seen = true;
      continue;
    }
    if (body.empty() || body.front() == '#') continue;
    Job job = parse_job_line(body, where);
    if (!ids.insert(job.id).second)
      throw InputError(where, "id", std::to_string(job.id), "duplicate job id");
    workload.jobs.push_back(std::move(job));
  }
  if (!header_seen)
    throw InputError({path, 0}, "header", "", std::string("empty file; expected '") +
                                                  kJobFileHeader + "'");
  return workload;
}

void write_job_file(const Workload& w, std::ostream& out) {
  out << kJobFileHeader << '\n';
  out << "# workload " << escape_value(w.name) << ": " << w.jobs.size() << " jobs\n";
  out << "# id submit runtime [user= name= partition= moldable= submit_ms= end_latency_ms= epilog_ms= epilog_by= epilog_nodes=] options\n";
  for (const Job& job : w.jobs) {
    out << job.id << ' ' << job.submit << ' ' << job.run_time;
    if (!job.user.empty()) out << " user=" << escape_value(job.user);
    if (!job.name.empty()) out << " name=" << escape_value(job.name);
    if (!job.partition.empty()) out << " partition=" << escape_value(job.partition);
    if (job.moldable_runtime) out << " moldable=1";
    if (job.submit_ms != 0) out << " submit_ms=" << job.submit_ms;
    if (job.end_latency_ms >= 0) out << " end_latency_ms=" << job.end_latency_ms;
    if (job.epilog_ms >= 0) out << " epilog_ms=" << job.epilog_ms;
    if (job.epilog_by != Job::EpilogReport::Unknown)
      out << " epilog_by=" << (job.epilog_by == Job::EpilogReport::Answer ? "answer" : "message");
    for (std::size_t k = 0; k < job.node_epilogs.size(); ++k) {
      const Job::NodeEpilog& e = job.node_epilogs[k];
      out << (k == 0 ? " epilog_nodes=" : ",") << e.node << ':' << e.ms
          << (e.by == Job::EpilogReport::Message ? "m" : "");
    }
    const std::string options = format_job_options(job.req);
    if (!options.empty()) out << ' ' << options;
    out << '\n';
  }
}

bool is_swf_trace_file(const std::string& path) {
  return path.ends_with(".swf") || path.ends_with(".swf.gz") || is_gzip_file(path);
}

Workload load_workload_file(const std::string& path, const SwfOptions& swf) {
  Workload w;
  std::vector<std::string> notes;
  const bool sacct = is_sacct_header(first_text_line(path));
  if (!swf.partitions.empty() && (sacct || !is_swf_trace_file(path)))
    throw InputError({path, 0}, "swf-partitions", format_swf_partition_map(swf.partitions),
                     "a partition map applies to SWF traces only; this file is not one");
  if (sacct) {
    SacctLoad load = read_sacct(path);
    w = std::move(load.workload);
    notes = std::move(load.notes);
  } else if (is_swf_trace_file(path)) {
    SwfLoad load = read_swf(path, swf);
    w = std::move(load.workload);
    notes = std::move(load.notes);
  } else {
    w = read_job_file(path);
  }
  if (w.jobs.empty()) throw_no_jobs(path, notes);
  for (const std::string& note : notes) w.notes.push_back(path + ": " + note);
  std::stable_sort(w.jobs.begin(), w.jobs.end(), [](const Job& a, const Job& b) {
    return a.submit != b.submit ? a.submit < b.submit : a.id < b.id;
  });
  return w;
}

}  // namespace hs
