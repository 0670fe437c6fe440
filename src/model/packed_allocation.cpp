#include "model/packed_allocation.hpp"

namespace hs {

PackedAllocation::PackedAllocation(const Allocation& alloc)
    : count_(static_cast<std::int32_t>(alloc.shares.size())) {
  words_.reserve(3 * alloc.shares.size());
  for (const NodeShare& s : alloc.shares) {
    std::uint32_t present = s.mem_mb != 0 ? kMemBit : 0u;
    for (int t = 0; t < kMaxGresTypes; ++t)
      if (s.gres[t] != 0) present |= 1u << t;
    words_.push_back(s.node);
    words_.push_back(s.cores);
    words_.push_back(static_cast<std::int32_t>(present));
    for (int t = 0; t < kMaxGresTypes; ++t)
      if (s.gres[t] != 0) words_.push_back(s.gres[t]);
    if (s.mem_mb != 0) {
      const auto mem = static_cast<std::uint64_t>(s.mem_mb);
      words_.push_back(static_cast<std::int32_t>(static_cast<std::uint32_t>(mem >> 32)));
      words_.push_back(static_cast<std::int32_t>(static_cast<std::uint32_t>(mem)));
    }
  }
  words_.shrink_to_fit();
}

Allocation PackedAllocation::unpack() const {
  Allocation out;
  out.shares.reserve(static_cast<std::size_t>(count_));
  for_each_share([&](const NodeShare& s) { out.shares.push_back(s); });
  return out;
}

std::int32_t PackedAllocation::total_cores() const {
  std::int32_t sum = 0;
  for_each_share([&](const NodeShare& s) { sum += s.cores; });
  return sum;
}

std::int64_t PackedAllocation::total_gres(int type) const {
  std::int64_t sum = 0;
  for_each_share([&](const NodeShare& s) { sum += s.gres[type]; });
  return sum;
}

std::vector<NodeIndex> PackedAllocation::nodes() const {
  std::vector<NodeIndex> out;
  out.reserve(static_cast<std::size_t>(count_));
  for_each_share([&](const NodeShare& s) { out.push_back(s.node); });
  return out;
}

}  // namespace hs
