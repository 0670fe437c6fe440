#include "policy/slurm/main_pass.hpp"

#include "policy/slurm/select.hpp"

namespace hs::slurm {

namespace {
// Marks a blocked partition's nodes unusable; `usable` empty = every node usable so far.
void block_nodes(std::vector<char>& usable, const std::vector<NodeIndex>& nodes, int node_count) {
  if (usable.empty()) usable.assign(node_count, 1);
  for (NodeIndex n : nodes) usable[n] = 0;
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
    if (state.gpu_bias) {  // _pick_best_nodes: weights as configured, then this job's test
      state.gpu_bias->reset(partitions.nodes[p], state.job(j));
      state.gpu_bias->note_test(*state.cluster, *state.free, state.job(j), partitions.nodes[p]);
    }
    SelectOptions options = state.select;
    options.usable = usable;
    options.within = partitions.bits[p].words();
    if (auto alloc = select_nodes(*state.cluster, *state.free, state.job(j), options)) {
      state.start(j, std::move(*alloc));
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
