#include "policy/slurm/gpu_bias.hpp"

#include <algorithm>

#include "model/job_nodes.hpp"

namespace hs::slurm {

namespace {
// The name "gpu" counts typed and untyped units alike (a typed request also names its kind).
bool is_gpu_type(const Cluster& cluster, int t) { return cluster.gres_types[t] == "gpu"; }

// gres_select_filter_remove_unusable: the node must hold every requested count.
bool holds_gres(const NodeFree& f, const GresCounts& want) {
  for (int t = 0; t < kMaxGresTypes; ++t)
    if (f.gres[t] < want[t]) return false;
  return true;
}
}  // namespace

std::int32_t gpus_per_node(const Cluster& cluster, const Job& job) {
  std::int32_t gpus = 0;
  for (const GresRequest& g : job.req.gres)
    g.for_each_type([&](int t, std::int32_t min, std::int32_t) {
      if (t >= 0 && t < static_cast<int>(cluster.gres_types.size()) && is_gpu_type(cluster, t))
        gpus += min;
    });
  return std::min(gpus, 255);
}

void GpuBias::reset(std::span<const NodeIndex> nodes, const Job& job, std::span<const char> mask) {
  for (NodeIndex n : nodes)
    if ((mask.empty() || mask[n]) && node_allowed(job.req, n)) bias_[n] = 0;
}

void GpuBias::note_test(const Cluster& cluster, const ClusterState& state, const Job& job,
                        std::span<const NodeIndex> nodes, std::span<const char> mask) {
  if (job.req.gres.empty()) return;  // no gres: the weights stay as they are
  GresCounts want{};
  for (const GresRequest& g : job.req.gres)
    g.for_each_type([&](int t, std::int32_t min, std::int32_t) {
      if (t >= 0 && t < kMaxGresTypes) want[t] = min;
    });
  const std::int32_t gpus = gpus_per_node(cluster, job);  // 0 for other gres: weight as set
  for (NodeIndex n : nodes) {
    if ((!mask.empty() && !mask[n]) || !node_allowed(job.req, n)) continue;
    if (holds_gres(state.node(n), want)) bias_[n] = static_cast<std::uint8_t>(gpus);
  }
}

}  // namespace hs::slurm
