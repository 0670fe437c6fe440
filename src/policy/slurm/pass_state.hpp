#pragma once
// What the main scheduling pass and the backfill pass share within one decide() call.
#include <vector>

#include "model/cluster.hpp"
#include "model/job.hpp"
#include "policy/slurm/gpu_bias.hpp"
#include "policy/slurm/node_space.hpp"
#include "policy/slurm/select.hpp"
#include "sim/cluster_state.hpp"
#include "sim/scheduler.hpp"

namespace hs::slurm {

// Partition of every job and the nodes of every partition (one implicit partition of all
// nodes when the cluster defines none).
struct PartitionIndex {
  std::vector<std::int32_t> of_job;           // per JobRef
  std::vector<std::vector<NodeIndex>> nodes;  // per partition
  std::vector<NodeBits> bits;                 // the same as bitsets

  void build(const Cluster& cluster, const Workload& workload);
  // The partition of `job` as its request names it now (the workload may have grown).
  void note_job(const Cluster& cluster, const Workload& workload, JobRef job);
  int count() const { return static_cast<int>(nodes.size()); }
};

struct PassState {
  const Cluster* cluster = nullptr;
  const Workload* workload = nullptr;
  Time now = 0;
  ClusterState* free = nullptr;               // free now; every start takes from it
  std::vector<StartDecision>* starts = nullptr;
  std::vector<char>* started = nullptr;       // per JobRef: started during this call
  // The scheduler's flags for every selection (topology, top-switch rule, gres task cap);
  // each pass copies it and sets the per-call fields (usable, within, gpu_bias).
  SelectOptions select;
  GpuBias* gpu_bias = nullptr;                // clock=controller only (gpu_bias.hpp)
  std::int32_t start_ms = 0;                  // the pass's time within `now` (subsecond_clock.hpp)
  std::int32_t end_latency_ms = 0;
  bool recorded_end_latency = false;          // a job's own end_latency_ms overrides (controller clock)
  // Nodes still COMPLETING at this pass (clock=controller with epilog_ms): a job ended on
  // them and the node's epilog has not been confirmed yet. Backfill does not start a job
  // on them (it waits a second); the main pass sees them fully busy. Null = none.
  const NodeBits* completing = nullptr;

  const Job& job(JobRef j) const { return workload->jobs[j]; }
  void start(JobRef j, Allocation alloc) {
    free->take(alloc);
    (*started)[j] = 1;
    const std::int32_t own = recorded_end_latency ? job(j).end_latency_ms : -1;
    starts->push_back({j, std::move(alloc), start_ms, own >= 0 ? own : end_latency_ms});
  }
};

// Smallest node count the job can run on (for quick rejections).
std::int32_t min_node_count(const JobRequest& r);

}  // namespace hs::slurm
