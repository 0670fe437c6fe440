#include "io/sacct_reader.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <filesystem>
#include <limits>
#include <optional>
#include <unordered_set>

#include "io/sacct_values.hpp"
#include "io/slurm_time.hpp"
#include "io/text_file.hpp"

namespace hs {

using namespace text;  // io's parsing helpers

namespace {

enum Column {
  kJobId, kJobIdRaw, kJobName, kUser, kPartition, kSubmit, kStart, kEnd, kElapsed,
  kTimelimit, kState, kNNodes, kNCpus, kReqCpus, kReqMem, kReqTres, kReqNodes,
  kConstraints, kNodeList, kColumnCount
};

constexpr std::array<const char*, kColumnCount> kColumnNames = {
    "JobID", "JobIDRaw", "JobName", "User", "Partition", "Submit", "Start", "End", "Elapsed",
    "Timelimit", "State", "NNodes", "NCPUS", "ReqCPUS", "ReqMem", "ReqTRES", "ReqNodes",
    "Constraints", "NodeList"};

constexpr std::int64_t kMaxCount = std::numeric_limits<std::int32_t>::max();

std::vector<std::string_view> split_bars(std::string_view line) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= line.size(); ++i) {
    if (i < line.size() && line[i] != '|') continue;
    parts.push_back(line.substr(start, i - start));
    start = i + 1;
  }
  return parts;
}

// Fields the reader does not use whose values are free text, so may hold a '|'.
constexpr std::array<const char*, 9> kUnusedTextFields = {
    "Comment", "AdminComment", "SystemComment", "WorkDir", "SubmitLine", "Reason", "WCKey",
    "Container", "Extra"};

// Where each used column sits in a record (-1 = absent), and how many fields a record has.
struct Header {
  std::array<int, kColumnCount> at{};
  std::size_t fields = 0;
  std::vector<std::string> unused;
  std::vector<std::size_t> text_fields;  // positions of fields that may hold a '|'
};

int column_of(std::string_view name) {
  for (int c = 0; c < kColumnCount; ++c)
    if (iequals(name, kColumnNames[c])) return c;
  return -1;
}

void require_columns(const Header& h, std::string_view line, const InputLocation& where) {
  auto missing = [&](const char* what) {
    throw InputError(where, "header", std::string(line), std::string("needs ") + what);
  };
  if (h.at[kJobId] < 0 && h.at[kJobIdRaw] < 0) missing("JobID (or JobIDRaw)");
  if (h.at[kSubmit] < 0) missing("Submit");
  if (h.at[kStart] < 0) missing("Start");
  if (h.at[kEnd] < 0 && h.at[kElapsed] < 0) missing("End or Elapsed");
  if (h.at[kReqTres] < 0 && h.at[kReqCpus] < 0 && h.at[kNCpus] < 0)
    missing("ReqTRES, ReqCPUS or NCPUS");
}

Header read_header(std::string_view line, const InputLocation& where) {
  Header h;
  h.at.fill(-1);
  const auto names = split_bars(line);
  h.fields = names.size();
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string_view name = trim(names[i]);
    const int c = column_of(name);
    const bool text = c == kJobName || c == kConstraints ||
                      std::any_of(kUnusedTextFields.begin(), kUnusedTextFields.end(),
                                  [&](const char* t) { return iequals(name, t); });
    if (text) h.text_fields.push_back(i);
    if (c < 0) {
      h.unused.emplace_back(name);
      continue;
    }
    if (h.at[c] >= 0) throw InputError(where, "header", std::string(name), "field given twice");
    h.at[c] = static_cast<int>(i);
  }
  require_columns(h, line, where);
  return h;
}

// One record's fields, looked up by column; absent columns read as "".
struct Record {
  const Header& header;
  std::vector<std::string_view> fields;
  InputLocation where;

  std::string_view operator[](Column c) const {
    return header.at[c] < 0 ? std::string_view() : trim(fields[header.at[c]]);
  }
  bool has(Column c) const { return header.at[c] >= 0 && !(*this)[c].empty(); }
};

// Reading state across records.
struct Reader {
  SacctLoad load;
  std::unordered_set<std::int64_t> ids;
  std::int64_t max_id = 0;
  std::vector<std::size_t> to_number;  // jobs (indices) waiting for an id
  std::optional<std::int64_t> origin;  // earliest kept submit
  std::string origin_text;
};

bool all_digits(std::string_view t) {
  return !t.empty() && std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The job's own id, or nullopt for an array task / het component without JobIDRaw.
std::optional<std::int64_t> job_id(const Record& r) {
  if (all_digits(r[kJobIdRaw]))
    return parse_int_in(r[kJobIdRaw], 0, std::numeric_limits<std::int64_t>::max(), r.where,
                        "JobIDRaw");
  const std::string_view id = r.has(kJobId) ? r[kJobId] : r[kJobIdRaw];
  const std::string field = r.has(kJobId) ? "JobID" : "JobIDRaw";
  if (all_digits(id))
    return parse_int_in(id, 0, std::numeric_limits<std::int64_t>::max(), r.where, field);
  const std::size_t sep = id.find_first_of("_+");
  if (sep == std::string_view::npos || !all_digits(id.substr(0, sep)) || sep + 1 == id.size())
    throw InputError(r.where, field, std::string(id),
                     "not a job id (12, 12_3 for an array task, 12+1 for a het component)");
  return std::nullopt;
}

struct Times {
  Time submit = 0, run = 0;
};

// Submit, start and run time; nullopt (counted) when the record never ran to an end.
std::optional<Times> read_times(const Record& r, SacctLoad& load) {
  const auto start = sacct::parse_timestamp(r[kStart], r.where, "Start");
  // A job cancelled while pending may carry Start = End = the cancel time, but no nodes.
  if (!start || iequals(r[kNodeList], "None assigned")) return ++load.never_started, std::nullopt;
  Times t;
  // Elapsed is checked even where End gives the run time: a garbled one means a damaged dump.
  const std::optional<Time> elapsed =
      r.has(kElapsed) ? std::optional(parse_slurm_time(r[kElapsed], r.where, "Elapsed", false))
                      : std::nullopt;
  if (r.header.at[kEnd] >= 0) {
    const auto end = sacct::parse_timestamp(r[kEnd], r.where, "End");
    if (!end) return ++load.still_running, std::nullopt;
    if (*end < *start)
      throw InputError(r.where, "End", std::string(r[kEnd]), "before Start " + std::string(r[kStart]));
    t.run = *end - *start;
  } else {
    if (!elapsed) return ++load.still_running, std::nullopt;
    t.run = *elapsed;
  }
  const auto submit = sacct::parse_timestamp(r[kSubmit], r.where, "Submit");
  if (!submit) return ++load.no_submit, std::nullopt;
  t.submit = *submit;
  return t;
}

std::optional<std::int64_t> count_field(const Record& r, Column c) {
  if (!r.has(c)) return std::nullopt;
  std::string_view text = r[c];
  if (c == kReqNodes) text = text.substr(0, text.find('-'));  // "2-4": the minimum
  return parse_int_in(text, 0, kMaxCount, r.where, kColumnNames[c]);
}

template <class... T>
std::optional<std::int64_t> first_positive(T... values) {
  for (const std::optional<std::int64_t>& v : {values...})
    if (v && *v > 0) return v;
  return std::nullopt;
}

// Per node from a total: rounded up (and counted) when the nodes cannot share it evenly.
std::int32_t per_node(std::int64_t total, std::int32_t nodes, std::int64_t& rounded) {
  if (total % nodes != 0) ++rounded;
  return static_cast<std::int32_t>((total + nodes - 1) / nodes);
}

// The type of gres `name` when the job asked for all of it of one type ("gres/gpu=4,
// gres/gpu:a100=4" or "gres/gpu:a100=4" alone), else "" (untyped, or several types).
std::string single_kind(const sacct::Tres& tres, const std::string& name, std::int64_t total,
                        bool& several) {
  std::string kind;
  int kinds = 0;
  for (const auto& [key, count] : tres.kinds)
    if (key.starts_with(name + ":") && count > 0) {
      ++kinds;
      if (count == total) kind = key.substr(name.size() + 1);
    }
  several = several || kinds > 1;
  return kinds == 1 ? kind : "";
}

void set_gres(const sacct::Tres& tres, std::int32_t nodes, Job& job, SacctLoad& load) {
  bool several = false;
  for (const auto& [name, total] : tres.gres) {
    if (total <= 0) continue;
    GresRequest g;
    g.name = name;
    g.kind = single_kind(tres, name, total, several);
    g.per_node_min = g.per_node_max = per_node(total, nodes, load.gres_rounded_up);
    job.req.gres.push_back(std::move(g));
  }
  if (several && !job.req.gres.empty()) ++load.typed_gres;
}

// Node count: exact for jobs with gres (their per-node counts are divided by it), else
// at least the requested count and at most what the job was given (NNodes).
void set_nodes(const Record& r, std::int64_t req_nodes, Job& job) {
  const auto alloc = first_positive(count_field(r, kNNodes));
  job.req.nodes_min = static_cast<std::int32_t>(req_nodes);
  if (job.req.gres.empty() && alloc && *alloc > req_nodes)
    job.req.nodes_max = static_cast<std::int32_t>(*alloc);
}

void set_memory(const Record& r, const sacct::Tres& tres, Job& job, SacctLoad& load) {
  const std::int32_t nodes = job.req.nodes_min;
  std::int64_t ignored = 0;
  if (const auto mem = sacct::parse_req_mem(r[kReqMem], r.where, "ReqMem")) {
    switch (mem->per) {
      case sacct::ReqMem::Per::Job: job.req.mem_per_node_mb = per_node(mem->mb, nodes, ignored); break;
      case sacct::ReqMem::Per::Node: job.req.mem_per_node_mb = mem->mb; break;
      case sacct::ReqMem::Per::Cpu:
        ++load.mem_per_cpu;
        job.req.mem_per_node_mb = mem->mb * per_node(job.req.ntasks, nodes, ignored);
        break;
    }
  } else if (tres.mem_mb && *tres.mem_mb > 0) {
    job.req.mem_per_node_mb = per_node(*tres.mem_mb, nodes, ignored);
  }
}

// CPUs, nodes, gres and memory; false (counted) when no CPU count is known.
bool read_request(const Record& r, Job& job, SacctLoad& load) {
  const sacct::Tres tres = sacct::parse_tres(r[kReqTres], r.where, "ReqTRES");
  const auto cpus = first_positive(tres.cpu, count_field(r, kReqCpus), count_field(r, kNCpus));
  if (!cpus) return ++load.no_cpus, false;
  const std::int64_t nodes =
      first_positive(tres.node, count_field(r, kReqNodes), count_field(r, kNNodes)).value_or(1);
  if (nodes > kMaxCount || *cpus > kMaxCount)
    throw InputError(r.where, "ReqTRES", std::string(r[kReqTres]), "too many CPUs or nodes");
  job.req.ntasks = static_cast<std::int32_t>(std::max(*cpus, nodes));
  if (*cpus < nodes) ++load.cpus_raised;
  set_gres(tres, static_cast<std::int32_t>(nodes), job, load);
  set_nodes(r, nodes, job);
  set_memory(r, tres, job, load);
  return true;
}

Time read_limit(const Record& r) {
  const std::string_view text = r[kTimelimit];
  if (text.empty() || iequals(text, "Partition_Limit")) return 0;
  return parse_slurm_time(text, r.where, "Timelimit", true);
}

// Slurm accepted every constraint in its accounting, so none ends the read. Its matching OR
// `[a|b]` (one of them for every node) is read as `a|b` (node by node), which lets the nodes
// differ; the forms the model does not have (counts, parentheses, & mixed with |) are
// dropped, so the job may use any node of its partition. Both counted and noted.
void read_constraint(const Record& r, NodeConstraint& constraint, SacctLoad& load) {
  ++load.constraints;
  const std::string_view text = r[kConstraints];
  if (!parse_node_constraint(text, constraint)) return;
  constraint = {};
  if (text.size() > 2 && text.front() == '[' && text.back() == ']' &&
      !parse_node_constraint(text.substr(1, text.size() - 2), constraint)) {
    ++load.constraints_relaxed;
    return;
  }
  constraint = {};
  if (load.constraints_dropped++ == 0)
    load.first_dropped_constraint = "line " + std::to_string(r.where.line) + ", '" + std::string(text) + "'";
}

void read_labels(const Record& r, Job& job, SacctLoad& load) {
  job.name = std::string(r[kJobName]);
  job.user = std::string(r[kUser]);
  const std::string_view partition = r[kPartition];
  if (partition.find(',') != std::string_view::npos) ++load.partition_lists;
  job.partition = std::string(partition.substr(0, partition.find(',')));
  if (r.has(kConstraints)) read_constraint(r, job.req.edit_node_rules().constraint, load);
  if (r[kState].starts_with("TIMEOUT")) ++load.timeouts;
}

// Keeps the job under its id, or queues it for numbering; false for a duplicate id.
bool take_id(const Record& r, Reader& reader, Job& job) {
  const auto id = job_id(r);
  if (!id) {
    reader.to_number.push_back(reader.load.workload.jobs.size());
    return true;
  }
  if (!reader.ids.insert(*id).second) return ++reader.load.duplicate_ids, false;
  job.id = *id;
  return true;
}

// New ids start above every id in the file, kept or skipped ("12" of "12_3", "12.batch").
void see_id(std::string_view id, Reader& reader) {
  std::int64_t value = 0;
  const char* end = id.data() + id.size();
  const auto result = std::from_chars(id.data(), end, value);
  if (result.ec == std::errc() && value > reader.max_id) reader.max_id = value;
}

// A '|' inside a name shifts the fields after it; the id, when it comes first, still counts.
void skip_bad_field_count(const Record& r, Reader& reader) {
  if (reader.load.bad_field_count++ == 0) reader.load.first_bad_field_line = r.where.line;
  for (Column c : {kJobId, kJobIdRaw})
    if (r.header.at[c] >= 0 && static_cast<std::size_t>(r.header.at[c]) < r.fields.size())
      see_id(trim(r.fields[r.header.at[c]]), reader);
}

// The fields with `extra` of them, from `at` on, joined back into one (they are views into
// one line, split at single '|').
std::vector<std::string_view> join_fields(const std::vector<std::string_view>& fields, std::size_t at,
                                          std::size_t extra) {
  std::vector<std::string_view> out(fields.begin(), fields.begin() + static_cast<std::ptrdiff_t>(at));
  const std::string_view last = fields[at + extra];
  out.emplace_back(fields[at].data(), static_cast<std::size_t>(last.data() + last.size() - fields[at].data()));
  out.insert(out.end(), fields.begin() + static_cast<std::ptrdiff_t>(at + extra + 1), fields.end());
  return out;
}

// Whether every value the reader uses reads (the record's decisions are not counted).
bool reads_cleanly(const Record& r) {
  try {
    SacctLoad scratch;
    Job job;
    if (!r.has(kJobId) && !r.has(kJobIdRaw)) return false;
    job_id(r);
    read_times(r, scratch);
    read_request(r, job, scratch);
    read_limit(r);
    return true;
  } catch (const InputError&) {
    return false;
  }
}

bool same_used_values(const Record& a, const Record& b) {
  for (int c = 0; c < kColumnCount; ++c)
    if (a[static_cast<Column>(c)] != b[static_cast<Column>(c)]) return false;
  return true;
}

// sacct --parsable2 does not escape a '|' inside a value: `-C "a|b"` or a job named "a|b"
// gives a record with more fields than the header. The fields are joined back when exactly
// one free-text field (Header::text_fields) can take the extra ones and leave every used
// value readable; when none can, or two readings differ in a used value, nullopt.
std::optional<std::vector<std::string_view>> rejoin_split_text(const Record& r) {
  if (r.fields.size() <= r.header.fields) return std::nullopt;
  const std::size_t extra = r.fields.size() - r.header.fields;
  std::optional<Record> found;
  for (std::size_t at : r.header.text_fields) {
    Record candidate{r.header, join_fields(r.fields, at, extra), r.where};
    if (!reads_cleanly(candidate)) continue;
    if (found && !same_used_values(*found, candidate)) return std::nullopt;
    if (!found) found.emplace(std::move(candidate));
  }
  if (!found) return std::nullopt;
  return std::move(found->fields);
}

void read_record(const Record& r, Reader& reader) {
  SacctLoad& load = reader.load;
  const std::string_view id = r.has(kJobId) ? r[kJobId] : r[kJobIdRaw];
  if (id.empty()) throw InputError(r.where, "JobID", "", "missing job id");
  see_id(id, reader);
  if (r.has(kJobIdRaw)) see_id(r[kJobIdRaw], reader);
  if (id.find('.') != std::string_view::npos) return void(++load.steps);
  const auto times = read_times(r, load);
  if (!times) return;
  Job job;
  if (!read_request(r, job, load)) return;
  job.submit = times->submit;
  job.run_time = times->run;
  job.req.time_limit = read_limit(r);
  if (job.req.time_limit > 0 && job.run_time > job.req.time_limit) ++load.runtime_over_limit;
  read_labels(r, job, load);
  if (!take_id(r, reader, job)) return;
  if (!reader.origin || job.submit < *reader.origin) {
    reader.origin = job.submit;
    reader.origin_text = std::string(r[kSubmit]);
  }
  load.workload.jobs.push_back(std::move(job));
}

void finish_jobs(Reader& reader) {
  Workload& w = reader.load.workload;
  for (Job& job : w.jobs) job.submit -= reader.origin.value_or(0);
  std::int64_t next = reader.max_id;
  for (std::size_t j : reader.to_number) w.jobs[j].id = ++next;
  reader.load.renumbered = static_cast<std::int64_t>(reader.to_number.size());
}

void add_notes(const Reader& reader, SacctLoad& load) {
  auto note = [&](std::int64_t count, const std::string& text) {
    if (count > 0) load.notes.push_back(std::to_string(count) + " " + text);
  };
  note(load.steps, "job steps skipped (JobID with '.')");
  note(load.never_started, "records skipped: never started (Start None/Unknown, e.g. cancelled while pending)");
  note(load.still_running, "records skipped: started but not ended (End Unknown)");
  note(load.no_submit, "records skipped: Submit unknown");
  note(load.no_cpus, "records skipped: no CPU count (ReqTRES cpu, ReqCPUS, NCPUS)");
  note(load.bad_field_count, "records skipped: field count differs from the header's and no single "
                             "text field explains it (first: line " +
                                 std::to_string(load.first_bad_field_line) + ")");
  note(load.rejoined_fields, "records read with a '|' inside a name, constraint or comment "
                             "(fields joined back)");
  note(load.constraints_relaxed, "jobs: Constraints [a|b] (one choice for all nodes) read as a|b "
                                 "(node by node)");
  note(load.constraints_dropped, "jobs: Constraints the model does not have (counts, parentheses, "
                                 "& mixed with |) dropped, the job may use any node (first: " +
                                     load.first_dropped_constraint + ")");
  note(load.duplicate_ids, "records skipped: JobID seen before");
  note(load.renumbered, "array tasks / het components numbered from " +
                            std::to_string(reader.max_id + 1) + " in file order (no JobIDRaw)");
  note(load.typed_gres, "jobs: gres of several types (gres/gpu:A and gres/gpu:B) summed into "
                        "an untyped request of the gres name");
  note(load.gres_rounded_up, "jobs: gres total not divisible by the node count, rounded up per node");
  note(load.mem_per_cpu, "jobs: ReqMem per CPU turned into per node (CPUs / nodes, rounded up)");
  note(load.cpus_raised, "jobs: fewer CPUs than nodes, one CPU per node used");
  note(load.timeouts, "jobs: State TIMEOUT");
  note(load.runtime_over_limit, "jobs: run time exceeds Timelimit (killed at the limit)");
  note(load.partition_lists, "jobs: several partitions listed, the first taken");
  if (reader.origin)
    load.notes.push_back("submit times relative to " + reader.origin_text + " (earliest Submit)");
  if (!load.unused_fields.empty()) {
    std::string text = "fields not used:";
    for (const std::string& f : load.unused_fields) text += " " + f;
    load.notes.push_back(text);
  }
}

std::string file_stem(const std::string& path) {
  std::string name = std::filesystem::path(path).filename().string();
  const std::size_t dot = name.find('.');
  return dot == 0 || dot == std::string::npos ? name : name.substr(0, dot);
}

}  // namespace

bool is_sacct_header(std::string_view line) {
  if (line.find('|') == std::string_view::npos) return false;
  for (std::string_view name : split_bars(trim(line)))
    if (iequals(trim(name), "JobID") || iequals(trim(name), "JobIDRaw")) return true;
  return false;
}

SacctLoad read_sacct(const std::string& path) {
  const std::string text = read_text_file(path);
  Reader reader;
  reader.load.workload.name = file_stem(path);
  std::optional<Header> header;
  long number = 0;
  for (std::string_view line : split_lines(text)) {
    const InputLocation where{path, ++number};
    if (trim(line).empty()) continue;
    if (!header) {
      header = read_header(trim(line), where);
      reader.load.unused_fields = header->unused;
      continue;
    }
    ++reader.load.records;
    Record record{*header, split_bars(line), where};
    if (record.fields.size() != header->fields) {
      auto rejoined = rejoin_split_text(record);
      if (!rejoined) {
        skip_bad_field_count(record, reader);
        continue;
      }
      record.fields = std::move(*rejoined);
      ++reader.load.rejoined_fields;
    }
    read_record(record, reader);
  }
  if (!header) throw InputError({path, 0}, "header", "", "empty file; expected a sacct header");
  finish_jobs(reader);
  add_notes(reader, reader.load);
  return reader.load;
}

}  // namespace hs
