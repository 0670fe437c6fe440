#pragma once
// An Allocation as a run's record keeps it. Each entry is a node, its cores and a word saying
// which gres counts and memory follow and whether a run length does, then those values
// only: a share without gres or memory takes 12 bytes instead of NodeShare's 48. Shares that
// are equal on consecutive node indices (a job of thousands of whole nodes) are one entry
// with the number of further nodes it covers, so a year-long replay on tens of thousands of
// nodes records entries, not millions of shares.
#include <cstdint>
#include <vector>

#include "model/allocation.hpp"

namespace hs {

class PackedAllocation {
 public:
  PackedAllocation() = default;
  // Implicit: a record is set from the allocation a run was given.
  PackedAllocation(const Allocation& alloc);  // NOLINT(google-explicit-constructor)

  Allocation unpack() const;
  // Calls f(const NodeShare&) for each share, in the allocation's order.
  template <class F>
  void for_each_share(F&& f) const;

  int node_count() const { return count_; }
  bool empty() const { return count_ == 0; }
  std::int32_t total_cores() const;
  std::int64_t total_gres(int type) const;
  std::vector<NodeIndex> nodes() const;
  bool operator==(const PackedAllocation&) const = default;

 private:
  static constexpr std::uint32_t kMemBit = 1u << kMaxGresTypes;
  static constexpr std::uint32_t kRunBit = 1u << (kMaxGresTypes + 1);
  void append_entry(const NodeShare& s, std::int32_t further_nodes);

  std::vector<std::int32_t> words_;
  std::int32_t count_ = 0;
};

template <class F>
void PackedAllocation::for_each_share(F&& f) const {
  NodeShare s;
  for (std::size_t i = 0; i < words_.size();) {
    s.node = words_[i];
    s.cores = words_[i + 1];
    const auto present = static_cast<std::uint32_t>(words_[i + 2]);
    i += 3;
    std::int32_t further_nodes = 0;
    if (present & kRunBit) further_nodes = words_[i++];
    for (int t = 0; t < kMaxGresTypes; ++t) s.gres[t] = (present >> t) & 1u ? words_[i++] : 0;
    s.mem_mb = 0;
    if (present & kMemBit) {
      s.mem_mb = static_cast<std::int64_t>(
          (static_cast<std::uint64_t>(static_cast<std::uint32_t>(words_[i])) << 32) |
          static_cast<std::uint32_t>(words_[i + 1]));
      i += 2;
    }
    for (std::int32_t k = 0;; ++k, ++s.node) {
      f(static_cast<const NodeShare&>(s));
      if (k == further_nodes) break;
    }
  }
}

}  // namespace hs
