#pragma once
// Binding a whole workload to a cluster before simulation, and the re-check the simulator
// makes at submission so an unbound or unbindable job is rejected instead of replayed.
#include <optional>
#include <string>
#include <vector>

#include "model/cluster.hpp"
#include "model/job.hpp"
#include "sim/scheduler.hpp"

namespace hs {

struct BindRejection {
  JobRef job;
  std::string reason;
};

struct BindReport {
  std::vector<BindRejection> rejected;  // ascending JobRef
};

// Calls bind_to_cluster on every job; jobs that fail keep their partial binding and are
// listed with the reason (simulate() rejects them again at submission).
BindReport bind_workload(const Cluster& cluster, Workload& workload);

// Reason why an already bound job is not bound correctly to this cluster (gres type
// unresolved or mismatched, unknown partition, no time limit, UNLIMITED left unbound, or
// a limit above MaxTime).
std::optional<std::string> binding_problem(const Cluster& cluster, const Job& job);

// "scheduler X does not model --exclusive" when the job uses a request option (-C, -x, -w,
// --exclusive) that `support` does not cover, else nullopt.
std::optional<std::string> unsupported_request(const Job& job, const RequestSupport& support,
                                               const std::string& scheduler);

}  // namespace hs
