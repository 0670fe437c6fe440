#include "sim/cluster_state.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cassert>

namespace hs {

namespace {
std::uint64_t new_history() {
  static std::atomic<std::uint64_t> last{0};
  return ++last;
}
}  // namespace

ClusterState::ClusterState(const Cluster& cluster) : cluster_(&cluster), history_(new_history()) {
  free_.reserve(cluster.nodes.size());
  for (const auto& n : cluster.nodes) {
    free_.push_back({n.cores, n.gres, n.memory_mb});
    whole_cores_ = whole_cores_ || n.cpus_per_core > 1;
  }
  has_cores_.assign((free_.size() + 63) / 64, 0);
  for (NodeIndex n = 0; n < node_count(); ++n) note_cores(n);
}

ClusterState::ClusterState(const ClusterState& other)
    : cluster_(other.cluster_), whole_cores_(other.whole_cores_), free_(other.free_), has_cores_(other.has_cores_),
      history_(new_history()) {}

ClusterState& ClusterState::operator=(const ClusterState& other) {
  if (this == &other) return *this;
  cluster_ = other.cluster_;
  whole_cores_ = other.whole_cores_;
  free_ = other.free_;
  has_cores_ = other.has_cores_;
  history_ = new_history();  // followers of this state must copy it whole
  synced_ = {};
  return *this;
}

void ClusterState::assign_from(const ClusterState& source) {
  if (this == &source) return;
  if (can_catch_up(source))
    catch_up(source);
  else
    *this = source;
  note_equal_to(source);
}

void ClusterState::note_equal_to(const ClusterState& source) {
  assert(free_.size() == source.free_.size());
  source.log_.start();
  log_.start();
  synced_ = {source.history_, source.log_.count(), log_.count()};
}

ClusterState::ChangeMark ClusterState::change_mark() const {
  log_.start();
  return {history_, log_.count()};
}

bool ClusterState::changed_since(const ChangeMark& mark, std::vector<NodeIndex>& nodes) const {
  if (mark.history != history_ || !log_.holds_since(mark.changes)) return false;
  for (std::uint64_t k = mark.changes; k < log_.count(); ++k) nodes.push_back(log_.at(k));
  return true;
}

bool ClusterState::can_catch_up(const ClusterState& source) const {
  return synced_.history == source.history_ && source.log_.holds_since(synced_.source_changes) &&
         log_.holds_since(synced_.own_changes);
}

// Copies every node either state changed since they were last equal. Copying logs the
// node again here (followers of this state need it), so the list is gathered first.
void ClusterState::catch_up(const ClusterState& source) {
  thread_local std::vector<NodeIndex> nodes;
  nodes.clear();
  for (std::uint64_t k = synced_.source_changes; k < source.log_.count(); ++k)
    nodes.push_back(source.log_.at(k));
  for (std::uint64_t k = synced_.own_changes; k < log_.count(); ++k) nodes.push_back(log_.at(k));
  for (const NodeIndex n : nodes) {
    free_[n] = source.free_[n];
    changed(n);
  }
}

bool ClusterState::can_hold(const Allocation& alloc) const {
  for (const auto& s : alloc.shares) {
    const NodeFree& f = free_[s.node];
    if (held_cores(s) > f.cores || s.mem_mb > f.mem_mb) return false;
    for (int t = 0; t < kMaxGresTypes; ++t)
      if (s.gres[t] > f.gres[t]) return false;
  }
  return true;
}

void ClusterState::take(const Allocation& alloc) {
  assert(can_hold(alloc));
  for (const auto& s : alloc.shares) {
    NodeFree& f = free_[s.node];
    f.cores -= held_cores(s);
    f.mem_mb -= s.mem_mb;
    for (int t = 0; t < kMaxGresTypes; ++t) f.gres[t] -= s.gres[t];
    changed(s.node);
  }
}

bool ClusterState::take_clamped(const Allocation& alloc) {
  const bool fits = can_hold(alloc);
  for (const auto& s : alloc.shares) {
    NodeFree& f = free_[s.node];
    f.cores = std::max(0, f.cores - held_cores(s));
    f.mem_mb = std::max<std::int64_t>(0, f.mem_mb - s.mem_mb);
    for (int t = 0; t < kMaxGresTypes; ++t) f.gres[t] = std::max(0, f.gres[t] - s.gres[t]);
    changed(s.node);
  }
  return fits;
}

void ClusterState::release(const Allocation& alloc) {
  for (const auto& s : alloc.shares) {
    NodeFree& f = free_[s.node];
    f.cores += held_cores(s);
    f.mem_mb += s.mem_mb;
    for (int t = 0; t < kMaxGresTypes; ++t) f.gres[t] += s.gres[t];
    assert(f.cores <= cluster_->nodes[s.node].cores);
    changed(s.node);
  }
}

std::int64_t ClusterState::free_cores() const {
  std::int64_t sum = 0;
  for (std::size_t w = 0; w < has_cores_.size(); ++w)
    for (std::uint64_t bits = has_cores_[w]; bits; bits &= bits - 1)
      sum += free_[w * 64 + static_cast<std::size_t>(std::countr_zero(bits))].cores;
  return sum;
}

void ClusterState::lower_to(const ClusterState& other) {
  assert(node_count() == other.node_count());
  for (NodeIndex n = 0; n < node_count(); ++n) {
    NodeFree& x = free_[n];
    const NodeFree& y = other.free_[n];
    NodeFree low{std::min(x.cores, y.cores), {}, std::min(x.mem_mb, y.mem_mb)};
    for (int t = 0; t < kMaxGresTypes; ++t) low.gres[t] = std::min(x.gres[t], y.gres[t]);
    if (low.cores == x.cores && low.mem_mb == x.mem_mb && low.gres == x.gres) continue;
    x = low;
    changed(n);
  }
}

ClusterState lesser_of(const ClusterState& a, const ClusterState& b) {
  ClusterState both = a;
  both.lower_to(b);
  return both;
}

}  // namespace hs
