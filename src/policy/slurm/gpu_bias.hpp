#pragma once
// What select/cons_tres remembers of GPU jobs in its nodes' scheduling weights (Slurm
// 22.05). Testing a job that asks for k GPUs per node sets, on every node of the test with
// at least k free GPUs, the low byte of the node's sched_weight to 0xff - k
// (can_job_run_on_node, src/plugins/select/cons_tres/job_test.c: "Favor nodes with more
// co-located GPUs"). Only the controller's own node selection puts the byte back
// (_sync_node_weight in _pick_best_nodes, src/slurmctld/node_scheduler.c: a submission's
// test, a main-pass test, a backfill start), and only on the nodes the job being selected may
// use (_build_node_list's node sets: its partition less its excluded nodes; a backfill start
// excludes every node backfill's plan holds then, _start_job); backfill's tests (_try_sched)
// do not. So a job
// without GPUs that backfill tests prefers, at equal node weight, the nodes a GPU job's test
// last found usable (_eval_nodes takes the lowest sched_weight first). Modelled under
// clock=controller only.
#include <cstdint>
#include <span>
#include <vector>

#include "model/cluster.hpp"
#include "model/job.hpp"
#include "sim/cluster_state.hpp"

namespace hs::slurm {

// GPUs per node a job asks for (gres "gpu", typed or not), at most 255.
std::int32_t gpus_per_node(const Cluster& cluster, const Job& job);

class GpuBias {
 public:
  void resize(int node_count) { bias_.assign(node_count, 0); }
  // _sync_node_weight for `job`: the weights as configured again on `nodes` (those with
  // `mask` set, when given) that -C/-x leave to the job.
  void reset(std::span<const NodeIndex> nodes, const Job& job, std::span<const char> mask = {});
  // A test of `job` on `nodes` (those with `mask` set, when given, and that -C/-x leave it)
  // at `state`: a job with gres sets every node that holds them to its GPUs per node (even
  // without a free CPU: _job_test first tests every node with all its cores); other jobs
  // change nothing.
  void note_test(const Cluster& cluster, const ClusterState& state, const Job& job,
                 std::span<const NodeIndex> nodes, std::span<const char> mask = {});
  // Per node: the GPUs the last GPU job's test counted there (0 = weight as configured).
  std::span<const std::uint8_t> values() const { return bias_; }

 private:
  std::vector<std::uint8_t> bias_;
};

}  // namespace hs::slurm
