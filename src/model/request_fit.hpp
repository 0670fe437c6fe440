#pragma once
// Rules that relate a job's request to the cluster and to a proposed allocation. These are
// the independent checks every policy's proposal goes through before it is applied.
#include <optional>
#include <string>

#include "model/allocation.hpp"
#include "model/cluster.hpp"
#include "model/job.hpp"

namespace hs {

// Reason why the job's partition does not exist here, or nullopt. On a cluster without
// partitions (the built-in ones) every named partition is unknown, never silently ignored.
std::optional<std::string> partition_problem(const Cluster& cluster, const Job& job);

// Resolves gres names to the cluster's type indices and fills defaults (time limit from
// the partition). Returns a reason when the job can never run here (unknown gres type or
// partition, time limit above the partition's MaxTime), nullopt when bound fine.
std::optional<std::string> bind_to_cluster(const Cluster& cluster, Job& job);

// Reason why no allocation on the *empty* cluster could ever satisfy the request
// (too many cores, too few nodes with the gres asked, no contiguous run, ...), or nullopt.
std::optional<std::string> never_runnable_reason(const Cluster& cluster, const Job& job);

// Reason why `alloc` does not satisfy the job's request (core total, node count range,
// ntasks-per-node, gres per node within the range and equal on every node, memory,
// contiguity, nodes inside the job's partition, node capacities), or nullopt.
// It does not look at what other jobs hold; the simulator checks free capacity.
std::optional<std::string> allocation_violates_request(const Cluster& cluster, const Job& job,
                                                       const Allocation& alloc);

}  // namespace hs
