#pragma once
// One complete, checked run: bind the workload, build the scheduler, simulate, audit,
// summarise. Used by `simulate`, `compare` and the benchmarks.
#include <string>
#include <vector>

#include <optional>

#include "metrics/summary.hpp"
#include "policy/window/pass_summary.hpp"
#include "model/cluster.hpp"
#include "model/job.hpp"
#include "sim/invariant_checker.hpp"
#include "sim/simulator.hpp"
#include "util/params.hpp"

namespace hs::cli {

struct RunRequest {
  std::string scheduler_spec;
  std::vector<std::string> options;  // "k=v" strings merged into the scheduler's options
  std::vector<OptionDefault> slurm_site_options;  // the Slurm model's defaults from slurm.conf
  Time periodic_interval = 0;
  bool show_progress = false;
  std::string dump_windows_dir;  // non-empty: save every window solve there (window_dump.hpp)
  std::string dump_plans_path;   // non-empty: the Slurm model's backfill plans (plan_dump.hpp)
};

struct RunOutcome {
  std::string scheduler_name;
  std::string effective_options;
  std::vector<std::string> site_options_used;  // "key=value" taken from slurm.conf
  Workload bound;  // the workload as bound to the cluster for this run
  SimResult result;
  Summary summary;
  CheckReport check;
  double wall_seconds = 0.0;
  std::optional<window::PassSummary> window_passes;  // window schedulers only
  std::vector<window::PassStats> window_pass_stats;   // the same, pass by pass
};

// `workload` is bound to `cluster` here (pass it moved when the caller no longer needs it).
RunOutcome run_checked(const Cluster& cluster, Workload workload, const RunRequest& request);

}  // namespace hs::cli
