#pragma once
// hetsched's own job file (docs/job-format.md): line-oriented, one job per line,
//   # hetsched-jobs v1
//   <id> <submit> <runtime> [key=value ...] [sbatch-style options ...]
//   17 30 600 user=alice name=lammps -n 64 -N 8 --gres=gpu:2 --contiguous -t 15:00
// Keys: user, name, partition, moldable (0/1), submit_ms (0-999), end_latency_ms, epilog_ms,
// epilog_by (answer | message).
// Options: -n,
// -N a | a-b, --ntasks-per-node, --gres=gpu:2 | gpu:1-3,mic:1, --contiguous,
// --mem (K/M/G/T, default M), -t (Slurm time formats); long forms --ntasks, --nodes,
// --time accepted too. Errors name file, line, field and value; unknown keys and options
// are errors.
#include <ostream>
#include <string>

#include "io/swf_reader.hpp"
#include "model/job.hpp"

namespace hs {

inline constexpr const char* kJobFileHeader = "# hetsched-jobs v1";

// Jobs in file order; Workload::name = file name without extensions.
Workload read_job_file(const std::string& path);

// Writes the header and one line per job; read_job_file gives back an equal Workload
// (names excepted: the workload name comes from the file name).
void write_job_file(const Workload& w, std::ostream& out);

// A sacct --parsable2 dump (first line a sacct header, see read_sacct()), SWF (name ends in
// .swf or .swf.gz, or gzip magic bytes) or the job file format; jobs sorted by (submit, id).
// Decisions and counts: read_sacct(), read_swf(); they become Workload::notes. InputError
// "no jobs in FILE" when nothing is left to replay (an empty or header-only file, every
// record skipped).
// `swf`: options for SWF traces; an InputError when they are given for another format.
Workload load_workload_file(const std::string& path, const SwfOptions& swf = {});

// Whether load_workload_file reads `path` as an SWF trace (by its name or gzip bytes).
bool is_swf_trace_file(const std::string& path);

}  // namespace hs
