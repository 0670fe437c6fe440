#pragma once
// Reader for the Parallel Workloads Archive's Standard Workload Format (SWF): one job per
// line, 18 whitespace-separated numeric fields, -1 = unknown, ';' header comments.
// Plain and gzip-compressed files are accepted (gzip is recognised by its magic bytes).
// Decisions about incomplete records (documented in docs/input-formats.md):
//   run time <= 0 (incl. -1)        -> job skipped, counted in skipped_no_runtime
//   submit time unknown (< 0)       -> job skipped, counted in skipped_no_submit
//   requested procs <= 0 (incl. -1) -> allocated procs used, counted in procs_from_allocated
//   neither procs known             -> job skipped, counted in skipped_no_procs
//   requested time <= 0 (incl. -1)  -> run time used as limit, counted in limit_from_runtime
//   run time > requested time       -> job kept unchanged (the simulator kills it at its
//                                      limit), counted in runtime_over_limit
// Malformed lines (wrong field count, non-numbers, values out of range, duplicate ids)
// raise InputError naming file, line, field and value.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "model/job.hpp"
#include "util/error.hpp"

namespace hs {

struct SwfHeader {
  int max_nodes = 0;         // "; MaxNodes: N"; 0 when absent
  int max_procs = 0;         // "; MaxProcs: N"; 0 when absent
  std::string raw_comments;  // every ';' line, without the ';', joined by '\n'
};

// SWF partition numbers (field 16) -> slurm.conf partition names. Empty: every job stays in
// the default partition. Jobs whose number is not in a non-empty map stay there too (counted).
using SwfPartitionMap = std::map<std::int64_t, std::string>;

// "1=cpu,2=gpu" (InputError naming `field` for a bad number, name or repeated number).
SwfPartitionMap parse_swf_partition_map(std::string_view text, const InputLocation& where,
                                        const std::string& field);
std::string format_swf_partition_map(const SwfPartitionMap& map);  // "1=cpu,2=gpu"

struct SwfOptions {
  SwfPartitionMap partitions;
};

struct SwfLoad {
  Workload workload;                     // jobs in file order (SWF files are submit-ordered)
  SwfHeader header;
  std::int64_t records = 0;              // job lines read (kept + skipped)
  std::int64_t skipped_no_runtime = 0;   // run time <= 0
  std::int64_t skipped_no_submit = 0;    // submit time < 0
  std::int64_t skipped_no_procs = 0;     // neither requested nor allocated procs > 0
  std::int64_t procs_from_allocated = 0; // requested procs unknown, allocated used
  std::int64_t limit_from_runtime = 0;   // requested time unknown, run time used
  std::int64_t runtime_over_limit = 0;   // kept; will be killed at the limit
  std::map<std::int64_t, std::int64_t> partition_mapped;    // SWF number -> jobs mapped
  std::map<std::int64_t, std::int64_t> partition_unmapped;  // number not in the map -> jobs
  std::vector<std::string> notes;        // one human-readable line per decision taken
};

// Throws InputError for unreadable files and malformed lines.
SwfLoad read_swf(const std::string& path, const SwfOptions& options = {});

// The trace's name: its file name without ".gz" and ".swf" (the workload's name).
std::string swf_trace_name(const std::string& path);

// Only the header: the ';' lines before the first job line (InputError as read_swf's for
// an unreadable file or a malformed MaxNodes/MaxProcs line).
SwfHeader read_swf_header(const std::string& path);

// The machine a trace's header describes, for a replay without a slurm.conf: MaxNodes nodes
// of MaxProcs / MaxNodes cores when that divides, else MaxProcs (or MaxNodes) nodes of one
// core. `how` (when given) says which rule applied. InputError naming the file when the
// header has neither number.
struct SwfMachine {
  int nodes = 0;
  int cores_per_node = 0;
};
SwfMachine swf_machine(const SwfHeader& header, const std::string& path, std::string* how = nullptr);

}  // namespace hs
