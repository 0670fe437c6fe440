#pragma once
// A deliberately small strict-FCFS first-fit scheduler for tests and the simulator bench:
// the queue head starts on the first nodes (in 1-D order) that fit, or everything waits.
#include <optional>

#include "sim/scheduler.hpp"

namespace hs::testing {

// First-fit allocation of `job` on `free`; gres at the per-node minimum; honours
// ntasks-per-node, -N (minimum count only) and contiguity. nullopt when it does not fit.
inline std::optional<Allocation> first_fit(const Cluster& cluster, const ClusterState& free,
                                           const Job& job) {
  const JobRequest& r = job.req;
  Allocation alloc;
  std::int32_t left = r.ntasks;
  const std::int32_t min_nodes = std::max(1, r.nodes_min);
  for (NodeIndex n = 0; n < free.node_count() && left > 0; ++n) {
    const NodeFree& f = free.node(n);
    const Node& node = cluster.nodes[n];
    bool ok = f.cores >= std::max(1, r.ntasks_per_node);
    const std::int64_t mem = node.memory_mb > 0 ? r.mem_per_node_mb : 0;
    ok = ok && f.mem_mb >= mem;
    for (const GresRequest& g : r.gres) ok = ok && f.gres[g.type] >= g.per_node_min;
    if (!ok) {
      if (r.contiguous) { alloc.shares.clear(); left = r.ntasks; }
      continue;
    }
    NodeShare s;
    s.node = n;
    // Leave one core per still-needed node so -N a can be met.
    const std::int32_t nodes_still = min_nodes - static_cast<std::int32_t>(alloc.shares.size()) - 1;
    const std::int32_t cap = std::max(1, left - std::max(0, nodes_still));
    s.cores = r.ntasks_per_node > 0 ? r.ntasks_per_node : std::min(f.cores, cap);
    s.mem_mb = mem;
    for (const GresRequest& g : r.gres) s.gres[g.type] = g.per_node_min;
    left -= s.cores;
    alloc.shares.push_back(s);
  }
  if (left != 0) return std::nullopt;
  return alloc;
}

class FcfsFirstFit : public Scheduler {
 public:
  std::string name() const override { return "test-fcfs"; }
  Decisions decide(const SystemView& view, std::span<const Event>) override {
    Decisions d;
    ClusterState free = *view.free;
    for (JobRef j : view.pending) {
      auto alloc = first_fit(*view.cluster, free, view.job(j));
      if (!alloc) break;
      free.take(*alloc);
      d.starts.push_back({j, std::move(*alloc)});
    }
    return d;
  }
};

}  // namespace hs::testing
