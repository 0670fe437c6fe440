#include "policy/window/candidate.hpp"

#include <algorithm>
#include <cassert>
#include <functional>
#include <numeric>
#include <tuple>
#include <utility>

namespace hs::window {

std::int64_t Candidate::total_cores() const {
  return std::accumulate(cores.begin(), cores.end(), std::int64_t{0});
}

FreeArrays FreeArrays::from(const Cluster& cluster, const ClusterState& state) {
  FreeArrays f;
  const std::size_t n = state.nodes().size();
  f.cores.reserve(n);  // reserved and appended: no zero fill before the copy
  f.gres.reserve(n);
  f.mem.reserve(n);
  f.mem_modelled.reserve(n);
  for (const NodeFree& node : state.nodes()) {
    f.cores.push_back(node.cores);
    f.gres.push_back(node.gres);
    f.mem.push_back(node.mem_mb);
  }
  for (const Node& node : cluster.nodes) f.mem_modelled.push_back(node.memory_mb > 0);
  if (std::any_of(cluster.nodes.begin(), cluster.nodes.end(), [](const Node& node) { return node.cpus_per_core > 1; }))
    for (const Node& node : cluster.nodes) f.cpus_per_core.push_back(node.cpus_per_core);
  return f;
}

namespace {

// Rewrites node n of `free` from `node`; true when anything differed.
bool refresh_node(FreeArrays& free, NodeIndex n, const NodeFree& node) {
  if (free.cores[n] == node.cores && free.gres[n] == node.gres && free.mem[n] == node.mem_mb)
    return false;
  free.cores[n] = node.cores;
  free.gres[n] = node.gres;
  free.mem[n] = node.mem_mb;
  return true;
}

}  // namespace

FreeArrays FreeStateSerials::update(const Cluster& cluster, const ClusterState& state) {
  FreeArrays free = std::move(last_);
  bool changed = serial_ == 0 || free.node_count() != state.node_count();
  changed_.clear();
  if (changed) {
    free = FreeArrays::from(cluster, state);
  } else if (state.changed_since(mark_, changed_)) {
    for (const NodeIndex n : changed_) changed = refresh_node(free, n, state.node(n)) || changed;
  } else {
    for (NodeIndex n = 0; n < state.node_count(); ++n)
      changed = refresh_node(free, n, state.node(n)) || changed;
  }
  mark_ = state.change_mark();
  if (changed) ++serial_;
  return free;
}

bool FreeArrays::fits(const Candidate& c, const WindowJob& job) const {
  for (std::size_t k = 0; k < c.nodes.size(); ++k) {
    const NodeIndex n = c.nodes[k];
    if (cores[n] < held(n, c.cores[k])) return false;
    if (job.gres_type >= 0 && gres[n][job.gres_type] < c.gres_per_node) return false;
    if (job.mem_per_node_mb > 0 && mem_modelled[n] && mem[n] < job.mem_per_node_mb) return false;
  }
  return true;
}

void FreeArrays::take(const Candidate& c, const WindowJob& job) {
  assert(fits(c, job));
  for (std::size_t k = 0; k < c.nodes.size(); ++k) {
    const NodeIndex n = c.nodes[k];
    cores[n] -= held(n, c.cores[k]);
    if (job.gres_type >= 0) gres[n][job.gres_type] -= c.gres_per_node;
    if (job.mem_per_node_mb > 0 && mem_modelled[n]) mem[n] -= job.mem_per_node_mb;
  }
}

void FreeArrays::give_back(const Candidate& c, const WindowJob& job) {
  for (std::size_t k = 0; k < c.nodes.size(); ++k) {
    const NodeIndex n = c.nodes[k];
    cores[n] += held(n, c.cores[k]);
    if (job.gres_type >= 0) gres[n][job.gres_type] += c.gres_per_node;
    if (job.mem_per_node_mb > 0 && mem_modelled[n]) mem[n] += job.mem_per_node_mb;
  }
}

bool take_prefix(std::span<const NodeIndex> order, std::span<const std::int32_t> caps,
                 const WindowJob& job, std::int32_t node_count, Candidate& out) {
  const std::int32_t nmax = effective_nodes_max(job, node_count);
  std::int64_t sum = 0;
  std::size_t used = 0;
  while (used < order.size() && (sum < job.cores || static_cast<std::int32_t>(used) < job.nodes_min)) {
    if (static_cast<std::int32_t>(used) >= nmax) return false;
    sum += caps[used];
    ++used;
  }
  if (sum < job.cores || static_cast<std::int32_t>(used) < job.nodes_min) return false;
  if (static_cast<std::int32_t>(used) > job.cores) return false;
  out.nodes.assign(order.begin(), order.begin() + used);
  out.cores.assign(used, 1);
  std::int32_t left = job.cores - static_cast<std::int32_t>(used);
  for (std::size_t k = 0; k < used && left > 0; ++k) {
    const std::int32_t extra = std::min(left, caps[k] - 1);
    out.cores[k] += extra;
    left -= extra;
  }
  return left == 0;
}

bool spread_evenly(std::span<const std::int32_t> caps, std::int32_t total,
                   std::vector<std::int32_t>& out) {
  const std::int64_t cap_sum = std::accumulate(caps.begin(), caps.end(), std::int64_t{0});
  if (cap_sum < total || static_cast<std::int64_t>(caps.size()) > total) return false;
  // Find the largest level L with sum(min(cap, L)) <= total, then hand out the rest one by one.
  std::int32_t lo = 1, hi = *std::max_element(caps.begin(), caps.end());
  auto filled = [&](std::int32_t level) {
    std::int64_t s = 0;
    for (auto c : caps) s += std::min(c, level);
    return s;
  };
  while (lo < hi) {
    const std::int32_t mid = lo + (hi - lo + 1) / 2;
    if (filled(mid) <= total) lo = mid; else hi = mid - 1;
  }
  out.resize(caps.size());
  std::int64_t left = total;
  for (std::size_t k = 0; k < caps.size(); ++k) {
    out[k] = std::min(caps[k], lo);
    left -= out[k];
  }
  for (std::size_t k = 0; k < caps.size() && left > 0; ++k)
    if (out[k] < caps[k]) { ++out[k]; --left; }
  return left == 0;
}

void normalise(Candidate& c) {
  // Bids mostly come in node order or its reverse: the first is left as it is, the second
  // reversed (nodes are distinct, so that is their sorted order).
  if (std::adjacent_find(c.nodes.begin(), c.nodes.end(), std::greater_equal<>()) == c.nodes.end())
    return;
  if (std::adjacent_find(c.nodes.begin(), c.nodes.end(), std::less_equal<>()) == c.nodes.end()) {
    std::reverse(c.nodes.begin(), c.nodes.end());
    std::reverse(c.cores.begin(), c.cores.end());
    return;
  }
  thread_local std::vector<std::pair<NodeIndex, std::int32_t>> shares;
  shares.clear();
  for (std::size_t k = 0; k < c.nodes.size(); ++k) shares.emplace_back(c.nodes[k], c.cores[k]);
  std::sort(shares.begin(), shares.end());  // nodes are distinct: the cores never decide
  for (std::size_t k = 0; k < shares.size(); ++k) std::tie(c.nodes[k], c.cores[k]) = shares[k];
}

Allocation to_allocation(const Cluster& cluster, const Candidate& c, const WindowJob& job) {
  Allocation a;
  for (std::size_t k = 0; k < c.nodes.size(); ++k) {
    NodeShare s;
    s.node = c.nodes[k];
    s.cores = c.cores[k];
    if (job.gres_type >= 0) s.gres[job.gres_type] = c.gres_per_node;
    s.mem_mb = cluster.nodes[s.node].memory_mb > 0 ? job.mem_per_node_mb : 0;
    a.shares.push_back(s);
  }
  a.sort_by_node();
  return a;
}

}  // namespace hs::window
