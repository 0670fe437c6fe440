#include "sim/cluster_state.hpp"

#include <algorithm>
#include <cassert>

namespace hs {

ClusterState::ClusterState(const Cluster& cluster) : cluster_(&cluster) {
  free_.reserve(cluster.nodes.size());
  for (const auto& n : cluster.nodes) free_.push_back({n.cores, n.gres, n.memory_mb});
  has_cores_.assign((free_.size() + 63) / 64, 0);
  for (NodeIndex n = 0; n < node_count(); ++n) note_cores(n);
}

bool ClusterState::can_hold(const Allocation& alloc) const {
  for (const auto& s : alloc.shares) {
    const NodeFree& f = free_[s.node];
    if (s.cores > f.cores || s.mem_mb > f.mem_mb) return false;
    for (int t = 0; t < kMaxGresTypes; ++t)
      if (s.gres[t] > f.gres[t]) return false;
  }
  return true;
}

void ClusterState::take(const Allocation& alloc) {
  assert(can_hold(alloc));
  for (const auto& s : alloc.shares) {
    NodeFree& f = free_[s.node];
    f.cores -= s.cores;
    f.mem_mb -= s.mem_mb;
    for (int t = 0; t < kMaxGresTypes; ++t) f.gres[t] -= s.gres[t];
    note_cores(s.node);
  }
}

bool ClusterState::take_clamped(const Allocation& alloc) {
  const bool fits = can_hold(alloc);
  for (const auto& s : alloc.shares) {
    NodeFree& f = free_[s.node];
    f.cores = std::max(0, f.cores - s.cores);
    f.mem_mb = std::max<std::int64_t>(0, f.mem_mb - s.mem_mb);
    for (int t = 0; t < kMaxGresTypes; ++t) f.gres[t] = std::max(0, f.gres[t] - s.gres[t]);
    note_cores(s.node);
  }
  return fits;
}

void ClusterState::release(const Allocation& alloc) {
  for (const auto& s : alloc.shares) {
    NodeFree& f = free_[s.node];
    f.cores += s.cores;
    f.mem_mb += s.mem_mb;
    for (int t = 0; t < kMaxGresTypes; ++t) f.gres[t] += s.gres[t];
    assert(f.cores <= cluster_->nodes[s.node].cores);
    note_cores(s.node);
  }
}

std::int64_t ClusterState::free_cores() const {
  std::int64_t sum = 0;
  for (const auto& f : free_) sum += f.cores;
  return sum;
}

ClusterState lesser_of(const ClusterState& a, const ClusterState& b) {
  assert(a.node_count() == b.node_count());
  ClusterState both = a;
  Allocation surplus;
  for (NodeIndex n = 0; n < a.node_count(); ++n) {
    const NodeFree& x = a.node(n);
    const NodeFree& y = b.node(n);
    NodeShare cut{n, std::max(0, x.cores - y.cores), {}, std::max<std::int64_t>(0, x.mem_mb - y.mem_mb)};
    for (int t = 0; t < kMaxGresTypes; ++t) cut.gres[t] = std::max(0, x.gres[t] - y.gres[t]);
    surplus.shares.push_back(cut);
  }
  both.take(surplus);
  return both;
}

}  // namespace hs
