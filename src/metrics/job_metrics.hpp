#pragma once
// Per-job measures of an allocation's shape (thesis 7.4) and the job's timing.
#include <optional>
#include <string>

#include "model/allocation.hpp"
#include "model/cluster.hpp"
#include "model/job.hpp"
#include "sim/simulator.hpp"

namespace hs {

const char* status_name(JobStatus status);  // "completed", "killed", "rejected", "stalled"

// The job started: completed or killed (every per-job measure counts only these).
bool job_ran(const JobRecord& record);

// Number of maximal runs of consecutive node indices (1 for a contiguous block).
int fragmentation(const Allocation& alloc);

// (last index - first index + 1) / nodes used; 1 for a contiguous block.
double spread(const Allocation& alloc);

// Fewest nodes of the empty cluster the job could be packed onto: at least -N's minimum,
// exactly ntasks/ntasks_per_node when that is given, otherwise the fewest eligible nodes
// (partition, gres minimum, memory) whose cores reach ntasks, largest nodes first.
// nullopt when no packing exists (the job could not run at all).
std::optional<int> min_nodes_possible(const Cluster& cluster, const Job& job);

// The same for many jobs: sorts the nodes by cores once.
class MinNodesPossible {
 public:
  explicit MinNodesPossible(const Cluster& cluster);
  std::optional<int> operator()(const Job& job) const;

 private:
  const Cluster* cluster_;
  std::vector<NodeIndex> largest_first_;
};

// nodes used / min_nodes_possible; nullopt when the minimum is unknown.
std::optional<double> packing_factor(const Cluster& cluster, const Job& job,
                                     const Allocation& alloc);
std::optional<double> packing_factor(const MinNodesPossible& min_nodes, const Job& job,
                                     const Allocation& alloc);

// Timing of a job that ran.
struct JobTiming {
  Time wait = 0;                // start - submit
  Time run = 0;                 // end - start (after moldable scaling and kills)
  double slowdown = 1;          // (wait + run) / max(run, 1)
  double bounded_slowdown = 1;  // max(1, (wait + run) / max(run, 10))
};
JobTiming job_timing(const Job& job, const JobRecord& record);

}  // namespace hs
