#include "io/swf_reader.hpp"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <limits>
#include <unordered_set>

#include "io/text_file.hpp"

namespace hs {

using namespace text;  // io's parsing helpers

namespace {

constexpr int kSwfFields = 18;
// Larger times are certainly corrupt (about 31,000 years) and would risk overflow later.
constexpr std::int64_t kMaxSwfTime = 1'000'000'000'000;

const char* const kFieldNames[kSwfFields] = {
    "job number",      "submit time",     "wait time",      "run time",
    "allocated procs", "average cpu time", "used memory",   "requested procs",
    "requested time",  "requested memory", "status",        "user id",
    "group id",        "executable",      "queue",          "partition",
    "preceding job",   "think time"};

enum Field { kId = 0, kSubmit = 1, kRun = 3, kAllocProcs = 4, kReqProcs = 7, kReqTime = 8,
             kUser = 11, kQueue = 14, kPartition = 15 };

// Fields the reader does not use may be fractional in some archive files; they must still
// be numbers, so that a shifted or garbled line is caught.
void check_number(std::string_view token, const InputLocation& where, int field) {
  double value = 0;
  const char* end = token.data() + token.size();
  const auto result = std::from_chars(token.data(), end, value);
  if (result.ec != std::errc() || result.ptr != end)
    throw InputError(where, kFieldNames[field], std::string(token), "not a number");
}

// "; MaxNodes: 128" and friends: remember the numbers the replay needs.
void read_comment(std::string_view body, const InputLocation& where, SwfHeader& header) {
  if (!header.raw_comments.empty()) header.raw_comments += '\n';
  header.raw_comments += body;
  const std::string_view text = trim(body);
  const std::size_t colon = text.find(':');
  if (colon == std::string_view::npos) return;
  const std::string key = to_lower(trim(text.substr(0, colon)));
  int* target = key == "maxnodes" ? &header.max_nodes
                : key == "maxprocs" ? &header.max_procs : nullptr;
  if (target == nullptr) return;
  const auto words = split_whitespace(text.substr(colon + 1));
  if (words.empty()) throw InputError(where, key, "", "header value missing");
  // -1 is the format's "unknown"; 0 means the same here.
  *target = static_cast<int>(std::max<std::int64_t>(
      0, parse_int_in(words.front(), -1, std::numeric_limits<std::int32_t>::max(), where, key)));
}

// A field only some runs use: -1 (unknown) unless it is a plain integer; check_number()
// still refuses a non-number, so old traces with fractional values read as before.
std::int64_t lenient_integer(std::string_view token) {
  std::int64_t value = -1;
  const char* end = token.data() + token.size();
  const auto result = std::from_chars(token.data(), end, value);
  return result.ec == std::errc() && result.ptr == end ? value : -1;
}

struct SwfRecord {
  std::int64_t id, submit, run, alloc_procs, req_procs, req_time, user, queue, partition;
};

SwfRecord parse_record(std::string_view line, const InputLocation& where) {
  const auto tokens = split_whitespace(line);
  if (tokens.size() != kSwfFields)
    throw InputError(where, "record", std::string(trim(line)),
                     "expected 18 fields, found " + std::to_string(tokens.size()));
  auto integer = [&](int field) {
    return parse_int_in(tokens[field], -kMaxSwfTime, kMaxSwfTime, where, kFieldNames[field]);
  };
  // Job numbers count from 1; a negative one is not "unknown" (-1) but a damaged record.
  const std::int64_t id =
      parse_int_in(tokens[kId], 0, std::numeric_limits<std::int64_t>::max(), where, kFieldNames[kId]);
  SwfRecord r{id,                 integer(kSubmit),  integer(kRun),   integer(kAllocProcs),
              integer(kReqProcs), integer(kReqTime), integer(kUser),  integer(kQueue),
              lenient_integer(tokens[kPartition])};
  for (int f = 0; f < kSwfFields; ++f) check_number(tokens[f], where, f);
  for (int f : {kAllocProcs, kReqProcs})
    if (parse_int(tokens[f], where, kFieldNames[f]) > std::numeric_limits<std::int32_t>::max())
      throw InputError(where, kFieldNames[f], std::string(tokens[f]), "too many processors");
  return r;
}

void map_partition(std::int64_t number, const SwfPartitionMap& map, SwfLoad& load, Job& job) {
  if (map.empty()) return;
  const auto it = map.find(number);
  if (it == map.end()) return void(++load.partition_unmapped[number]);
  job.partition = it->second;
  ++load.partition_mapped[number];
}

// Applies the documented decisions; returns false when the record is skipped.
bool make_job(const SwfRecord& r, const SwfOptions& options, SwfLoad& load, Job& job) {
  if (r.run <= 0) return ++load.skipped_no_runtime, false;
  if (r.submit < 0) return ++load.skipped_no_submit, false;
  std::int64_t procs = r.req_procs;
  if (procs <= 0) {
    if (r.alloc_procs <= 0) return ++load.skipped_no_procs, false;
    procs = r.alloc_procs;
    ++load.procs_from_allocated;
  }
  Time limit = r.req_time;
  if (limit <= 0) {
    limit = r.run;
    ++load.limit_from_runtime;
  }
  if (r.run > limit) ++load.runtime_over_limit;
  job.id = r.id;
  job.submit = r.submit;
  job.run_time = r.run;
  job.user = r.user >= 0 ? "u" + std::to_string(r.user) : "";
  job.name = r.queue >= 0 ? "q" + std::to_string(r.queue) : "";
  job.req.ntasks = static_cast<std::int32_t>(procs);
  job.req.time_limit = limit;
  map_partition(r.partition, options.partitions, load, job);
  return true;
}

void add_notes(const SwfOptions& options, SwfLoad& load) {
  auto note = [&](std::int64_t count, const std::string& text) {
    if (count > 0) load.notes.push_back(std::to_string(count) + " " + text);
  };
  note(load.skipped_no_runtime, "records skipped: run time <= 0 or unknown");
  note(load.skipped_no_submit, "records skipped: submit time unknown");
  note(load.skipped_no_procs, "records skipped: neither requested nor allocated procs known");
  note(load.procs_from_allocated, "jobs: requested procs unknown, allocated procs used");
  note(load.limit_from_runtime, "jobs: requested time unknown, run time used as the limit");
  note(load.runtime_over_limit, "jobs: run time exceeds the requested time (killed at limit)");
  for (const auto& [number, count] : load.partition_mapped)
    note(count, "jobs: SWF partition " + std::to_string(number) + " -> partition " +
                    options.partitions.at(number));
  for (const auto& [number, count] : load.partition_unmapped)
    note(count, "jobs: SWF partition " + std::to_string(number) +
                    " not in the partition map, default partition used");
}

}  // namespace

SwfPartitionMap parse_swf_partition_map(std::string_view text, const InputLocation& where,
                                        const std::string& field) {
  SwfPartitionMap map;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != ',') continue;
    const std::string_view item = trim(text.substr(start, i - start));
    start = i + 1;
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos || eq + 1 == item.size())
      throw InputError(where, field, std::string(text),
                       "'" + std::string(item) + "' is not NUMBER=PARTITION (e.g. 1=cpu,2=gpu)");
    std::int64_t number = 0;
    try {
      number = parse_int_in(trim(item.substr(0, eq)), -1, kMaxSwfTime, where, field);
    } catch (const InputError& e) {
      throw InputError(where, field, std::string(text), "partition number: " + e.problem());
    }
    if (!map.emplace(number, std::string(trim(item.substr(eq + 1)))).second)
      throw InputError(where, field, std::string(text),
                       "partition number " + std::to_string(number) + " given twice");
  }
  return map;
}

std::string format_swf_partition_map(const SwfPartitionMap& map) {
  std::string text;
  for (const auto& [number, name] : map)
    text += (text.empty() ? "" : ",") + std::to_string(number) + "=" + name;
  return text;
}

std::string swf_trace_name(const std::string& path) {
  std::string name = std::filesystem::path(path).filename().string();
  for (const char* suffix : {".gz", ".swf"})
    if (name.size() > std::string_view(suffix).size() && name.ends_with(suffix))
      name.resize(name.size() - std::string_view(suffix).size());
  return name;
}

SwfLoad read_swf(const std::string& path, const SwfOptions& options) {
  const std::string text = read_text_file(path);
  SwfLoad load;
  load.workload.name = swf_trace_name(path);
  std::unordered_set<std::int64_t> ids;
  long line_number = 0;
  for (std::string_view line : split_lines(text)) {
    ++line_number;
    const InputLocation where{path, line_number};
    const std::string_view body = trim(line);
    if (body.empty()) continue;
    if (body.front() == ';') {
      read_comment(body.substr(1), where, load.header);
      continue;
    }
    const SwfRecord record = parse_record(body, where);
    ++load.records;
    if (!ids.insert(record.id).second)
      throw InputError(where, kFieldNames[kId], std::to_string(record.id), "duplicate job id");
    Job job;
    if (make_job(record, options, load, job)) load.workload.jobs.push_back(std::move(job));
  }
  add_notes(options, load);
  return load;
}

SwfHeader read_swf_header(const std::string& path) {
  const std::string text = read_text_file(path);
  SwfHeader header;
  long line_number = 0;
  for (std::string_view line : split_lines(text)) {
    ++line_number;
    const std::string_view body = trim(line);
    if (body.empty()) continue;
    if (body.front() != ';') break;
    read_comment(body.substr(1), InputLocation{path, line_number}, header);
  }
  return header;
}

SwfMachine swf_machine(const SwfHeader& header, const std::string& path, std::string* how) {
  const int nodes = header.max_nodes, procs = header.max_procs;
  const std::string numbers =
      "MaxNodes " + std::to_string(nodes) + ", MaxProcs " + std::to_string(procs);
  auto say = [&](const std::string& text) { if (how != nullptr) *how = numbers + ": " + text; };
  if (nodes > 0 && procs > 0 && procs % nodes == 0) {
    say("MaxNodes nodes of MaxProcs / MaxNodes cores");
    return {nodes, procs / nodes};
  }
  if (procs > 0) {
    say(nodes > 0 ? "MaxProcs is not a multiple of MaxNodes, so MaxProcs nodes of one core"
                  : "no MaxNodes, so MaxProcs nodes of one core");
    return {procs, 1};
  }
  if (nodes > 0) {
    say("no MaxProcs, so MaxNodes nodes of one core");
    return {nodes, 1};
  }
  throw InputError({path, 0}, "MaxProcs", "",
                   "the trace's header gives neither MaxNodes nor MaxProcs, so it does not say "
                   "what machine to replay it on: pass --cluster (a built-in name or a slurm.conf)");
}

}  // namespace hs
