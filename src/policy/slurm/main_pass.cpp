#include "policy/slurm/main_pass.hpp"

#include <algorithm>

#include "policy/slurm/select.hpp"

namespace hs::slurm {

namespace {
// Marks a blocked partition's nodes unusable; `usable` empty = every node usable so far.
void block_nodes(std::vector<char>& usable, const std::vector<NodeIndex>& nodes, int node_count) {
  if (usable.empty()) usable.assign(node_count, 1);
  for (NodeIndex n : nodes) usable[n] = 0;
}

// schedule()'s check before any node selection ("Too many nodes DRAIN, DOWN, or reserved
// for jobs in higher priority partition"): fewer of the partition's nodes left than the
// job's minimum (the record's min_nodes, 1 unless -N) fails the partition untested.
bool too_few_nodes_left(const std::vector<char>& usable, const std::vector<NodeIndex>& nodes,
                        const Job& job) {
  if (usable.empty()) return false;
  const std::int32_t min_nodes = std::max(1, job.req.nodes_min);
  std::int32_t left = 0;
  for (NodeIndex n : nodes) left += usable[n];
  return left < min_nodes;
}

// Node selection for `j` on its partition's nodes still usable; starts it if they hold it.
bool try_start(PassState& state, JobRef j, const PartitionIndex& partitions, int p,
               const std::vector<char>& usable) {
  // _pick_best_nodes: the weights of the whole partition as configured (_sync_node_weight
  // runs before its node sets lose the nodes a blocked partition took), then this job's
  // test on the nodes still available to it.
  if (state.gpu_bias) {
    state.gpu_bias->reset(partitions.nodes[p], state.job(j));
    state.gpu_bias->note_test(*state.cluster, *state.free, state.job(j), partitions.nodes[p],
                              usable);
  }
  SelectOptions options = state.select;
  options.usable = usable;
  options.within = partitions.bits[p].words();
  auto alloc = select_nodes(*state.cluster, *state.free, state.job(j), options);
  if (!alloc) return false;
  state.start(j, std::move(*alloc));
  return true;
}
}  // namespace

MainPassStats run_main_pass(PassState& state, const std::vector<JobRef>& order,
                            const PartitionIndex& partitions, std::size_t depth_limit) {
  MainPassStats stats;
  const int parts = partitions.count();
  std::vector<char> blocked(parts, 0);
  std::vector<char> usable;  // built when a partition blocks while others remain
  int blocked_count = 0;
  for (JobRef j : order) {
    if (blocked_count == parts) break;
    if (stats.tested >= depth_limit) {
      stats.truncated = true;
      break;
    }
    if ((*state.started)[j]) continue;
    ++stats.tested;
    const int p = partitions.of_job[j];
    if (blocked[p]) continue;
    // Too few nodes left: the partition fails untested, so no weight is reset or marked.
    if (!too_few_nodes_left(usable, partitions.nodes[p], state.job(j)) &&
        try_start(state, j, partitions, p, usable)) {
      ++stats.started;
      continue;
    }
    // Strict priority: nothing later in this partition, nor on its nodes, may start.
    blocked[p] = 1;
    if (++blocked_count < parts)  // else the pass ends here
      block_nodes(usable, partitions.nodes[p], state.cluster->node_count());
  }
  return stats;
}

}  // namespace hs::slurm
