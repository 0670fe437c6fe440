#pragma once
// Reader for Slurm accounting dumps: `sacct --parsable2` output, the first line a header
// naming the fields ('|' separated), any subset of sacct's fields in any order. Decisions
// (documented in docs/input-formats.md, each counted here and summarised in `notes`):
//   job steps (JobID with '.', e.g. 12.batch, 12.0)   -> skipped, `steps`
//   never started (Start None/Unknown, or NodeList
//     "None assigned": cancelled while pending)        -> skipped, `never_started`
//   started, not ended (End Unknown)                   -> skipped, `still_running`
//   Submit unknown                                     -> skipped, `no_submit`
//   no CPU count (ReqTRES cpu, ReqCPUS, NCPUS)         -> skipped, `no_cpus`
//   more fields than the header's: a '|' inside one
//     free-text field (name, -C a|b, comment)          -> joined back, `rejoined_fields`
//   field count differs otherwise                      -> skipped, `bad_field_count`
//   Constraints [a|b]                                  -> read as a|b, `constraints_relaxed`
//   Constraints the model lacks (a*2, parentheses)     -> dropped, `constraints_dropped`
//   JobID seen before                                  -> skipped, `duplicate_ids`
//   array tasks (12_3) and het components (12+1)      -> kept; numbered above the largest
//                                                         id unless JobIDRaw gives one
// Run time = End - Start (Elapsed without End); limit = Timelimit; submit relative to the
// earliest kept Submit; request from ReqTRES with ReqNodes/NNodes and ReqCPUS/NCPUS as
// fallbacks; GPUs (TRES totals) divided by the node count; memory from ReqMem.
// Malformed values raise InputError naming file, line, field and value.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/job.hpp"

namespace hs {

struct SacctLoad {
  Workload workload;  // jobs in file order
  std::int64_t records = 0;          // lines after the header (kept + skipped)
  std::int64_t steps = 0;
  std::int64_t never_started = 0;
  std::int64_t still_running = 0;
  std::int64_t no_submit = 0;
  std::int64_t no_cpus = 0;
  std::int64_t bad_field_count = 0;
  long first_bad_field_line = 0;
  std::int64_t duplicate_ids = 0;
  std::int64_t renumbered = 0;       // array tasks / het components given new ids
  std::int64_t typed_gres = 0;       // jobs whose gres of several types were summed by name
  std::int64_t gres_rounded_up = 0;  // gres total not divisible by the node count
  std::int64_t mem_per_cpu = 0;      // ReqMem per CPU turned into per node
  std::int64_t cpus_raised = 0;      // fewer CPUs than nodes: one CPU per node
  std::int64_t timeouts = 0;         // State TIMEOUT
  std::int64_t runtime_over_limit = 0;
  std::int64_t partition_lists = 0;  // "a,b": the first taken
  std::int64_t constraints = 0;      // jobs with Constraints, kept as -C
  std::int64_t constraints_relaxed = 0;  // of those, [a|b] read as a|b
  std::int64_t constraints_dropped = 0;  // of those, forms the model does not have, dropped
  std::string first_dropped_constraint;  // "line L, 'text'"
  std::int64_t rejoined_fields = 0;  // records with a '|' inside a text field, joined back
  std::vector<std::string> unused_fields;  // header fields the reader does not use
  std::vector<std::string> notes;
};

// True when `line` (the first line of a file) is a sacct --parsable2 header: '|' separated
// and one of its fields is JobID or JobIDRaw.
bool is_sacct_header(std::string_view line);

// Throws InputError for unreadable files, a bad header and malformed values.
SacctLoad read_sacct(const std::string& path);

}  // namespace hs
