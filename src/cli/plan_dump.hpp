#pragma once
// `simulate --dump-plans FILE`: every reservation of every backfill pass of the Slurm model,
// as CSV (time,job,planned_start,nodes; job ids as in the input, nodes as a hostlist), to
// compare with a real controller's plans (fidelity.sh's controller_timing.csv "plan" rows).
#include <string>

#include "model/cluster.hpp"
#include "model/job.hpp"
#include "policy/slurm/slurm_scheduler.hpp"

namespace hs::cli {

// Opens (truncates) `path` and writes the header. Throws InputError when it cannot.
// `cluster` and `workload` must outlive the observer.
slurm::PlanObserver make_plan_dumper(const std::string& path, const Cluster& cluster,
                                     const Workload& workload);

}  // namespace hs::cli
