#pragma once
// Files a run leaves behind (formats in docs/metrics.md): jobs.csv, summary.csv,
// summary.json, queue.csv and usage.csv. Output is byte-identical for identical runs.
#include <ostream>
#include <string>

#include "metrics/summary.hpp"

namespace hs {

// Creates `dir` if needed; throws InputError when a file cannot be written.
void write_run_outputs(const std::string& dir, const Cluster& cluster, const Workload& workload,
                       const SimResult& result, const Summary& summary);

// The individual writers, for tests and other tools.
void write_jobs_csv(std::ostream& out, const Cluster& cluster, const Workload& workload,
                    const SimResult& result);
void write_summary_csv(std::ostream& out, const Summary& summary);
void write_summary_json(std::ostream& out, const Summary& summary);
void write_queue_csv(std::ostream& out, const SimResult& result);
void write_usage_csv(std::ostream& out, const Cluster& cluster, const SimResult& result);

// `s` as a JSON string literal (quotes, backslashes and control characters escaped).
std::string json_string(const std::string& s);

// Per-node allocation as "n[0001-0512]:4c+2gpu;n0600:2c+512M": consecutive nodes holding the
// same amounts share one Slurm hostlist (io/hostlist.hpp), in allocation order; gres named
// by cluster type, memory in MB.
std::string allocation_text(const Cluster& cluster, const Allocation& alloc);

}  // namespace hs
