#pragma once
// Rules that relate a job's request to the cluster and to a proposed allocation. These are
// the independent checks every policy's proposal goes through before it is applied.
#include <optional>
#include <string>

#include "model/allocation.hpp"
#include "model/cluster.hpp"
#include "model/job.hpp"
#include "model/request_shape.hpp"

namespace hs {

// How long a job whose time limit is UNLIMITED is planned to hold its nodes. Slurm runs
// such a job when no MaxTime forbids it, and its backfill plans it as running for a year
// (YEAR_MINUTES); the schedulers here need a finite limit too, so they get the same one.
inline constexpr Time kUnlimitedPlanningTime = 365 * 86400;

// Reason why the job's partition does not exist here, or nullopt. On a cluster without
// partitions (the built-in ones) every named partition is unknown, never silently ignored.
std::optional<std::string> partition_problem(const Cluster& cluster, const Job& job);

// "time limit … exceeds MaxTime … of partition …" when `limit` (kNoTime = UNLIMITED) is
// above the finite MaxTime of `p`; nullopt otherwise or when `p` is null.
std::optional<std::string> max_time_problem(const Partition* p, Time limit);

// Slurm's partition node limits on a request (MinNodes, MaxNodes; 0 = none). A -N range is
// narrowed into them; a job without -N gets them as its range, marked nodes_from_partition.
// Returns why the request can never meet them (Slurm leaves it pending: PartitionNodeLimit),
// else nullopt. Applying it twice changes nothing.
std::optional<std::string> apply_partition_node_limits(const Partition& partition, JobRequest& r);
// The reason apply_partition_node_limits gives, without changing the request.
std::optional<std::string> partition_node_limit_problem(const Partition& partition, const JobRequest& r);
// The same reason for a node range known as numbers (the bridge's live jobs): at least
// `need` nodes, at most `most` (0 = no upper bound), against MaxNodes and MinNodes (0 = none).
std::optional<std::string> node_limit_problem(const std::string& partition, std::int32_t max_nodes,
                                              std::int32_t min_nodes, std::int32_t need,
                                              std::int32_t most);

// Whether the job's time limit is UNLIMITED once its partition's defaults are applied,
// with no MaxTime over it: bind_to_cluster gives it kUnlimitedPlanningTime.
bool runs_unlimited(const Cluster& cluster, const Job& job);

// Resolves gres names to the cluster's type indices and fills the time limit as Slurm does:
// without -t the partition's DefaultTime, else its MaxTime; UNLIMITED where no MaxTime
// applies becomes kUnlimitedPlanningTime. Returns a reason when the job can never run here
// (unknown gres type or partition, no time limit at all, a limit above the partition's
// MaxTime — UNLIMITED included, which Slurm leaves pending for ever), nullopt when bound.
std::optional<std::string> bind_to_cluster(const Cluster& cluster, Job& job);

// Reason why no allocation on the *empty* cluster could ever satisfy the request
// (too many cores, too few nodes with the gres asked, no contiguous run, ...), or nullopt.
std::optional<std::string> never_runnable_reason(const Cluster& cluster, const Job& job);

// never_runnable_reason on one cluster, with the placement part of the answer (everything
// but the request's own consistency) kept per request shape for jobs without node rules.
// The simulator asks once per submission; the O(nodes) placement test then runs once per
// shape.
class RunnableMemo {
 public:
  explicit RunnableMemo(const Cluster& cluster) : cluster_(cluster) {}
  std::optional<std::string> reason(const Job& job);
  void forget() { known_.clear(); }  // the cluster changed (a live partition's nodes)

 private:
  const Cluster& cluster_;
  PerShapeCache<std::optional<std::string>> known_;
};

// Reason why `alloc` does not satisfy the job's request (core total, node count range,
// ntasks-per-node, gres per node within the range and equal on every node, memory,
// contiguity, nodes inside the job's partition, node capacities), or nullopt.
// It does not look at what other jobs hold; the simulator checks free capacity.
std::optional<std::string> allocation_violates_request(const Cluster& cluster, const Job& job,
                                                       const Allocation& alloc);

}  // namespace hs
