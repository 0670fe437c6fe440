#pragma once
// The most recent nodes a ClusterState changed, in order, so that a copy of the state can
// catch up by copying just those nodes (ClusterState::assign_from). Off until started:
// only states that are copied this way pay for it.
#include <cstdint>
#include <vector>

#include "model/types.hpp"

namespace hs {

class NodeChangeLog {
 public:
  static constexpr std::uint64_t kSize = 4096;  // changes kept; older ones are forgotten

  void start() {
    if (ring_.empty()) ring_.assign(kSize, 0);
  }
  void record(NodeIndex n) {
    if (ring_.empty()) return;
    ring_[count_ % kSize] = n;
    ++count_;
  }
  // Changes recorded since the log started.
  std::uint64_t count() const { return count_; }
  // True when every change from the `from`-th on is still held.
  bool holds_since(std::uint64_t from) const {
    return !ring_.empty() && from <= count_ && count_ - from <= kSize;
  }
  NodeIndex at(std::uint64_t k) const { return ring_[k % kSize]; }

 private:
  std::vector<NodeIndex> ring_;
  std::uint64_t count_ = 0;
};

}  // namespace hs
