#include "model/packed_allocation.hpp"

#include <cstddef>

namespace hs {

namespace {

// True when b is the share a holds, on the node right after a's.
bool continues(const NodeShare& a, const NodeShare& b) {
  return b.node == a.node + 1 && b.cores == a.cores && b.gres == a.gres && b.mem_mb == a.mem_mb;
}

}  // namespace

PackedAllocation::PackedAllocation(const Allocation& alloc)
    : count_(static_cast<std::int32_t>(alloc.shares.size())) {
  const auto& shares = alloc.shares;
  for (std::size_t first = 0; first < shares.size();) {
    std::size_t last = first;
    while (last + 1 < shares.size() && continues(shares[last], shares[last + 1])) ++last;
    append_entry(shares[first], static_cast<std::int32_t>(last - first));
    first = last + 1;
  }
  words_.shrink_to_fit();
}

void PackedAllocation::append_entry(const NodeShare& s, std::int32_t further_nodes) {
  std::uint32_t present = s.mem_mb != 0 ? kMemBit : 0u;
  if (further_nodes > 0) present |= kRunBit;
  for (int t = 0; t < kMaxGresTypes; ++t)
    if (s.gres[t] != 0) present |= 1u << t;
  words_.push_back(s.node);
  words_.push_back(s.cores);
  words_.push_back(static_cast<std::int32_t>(present));
  if (further_nodes > 0) words_.push_back(further_nodes);
  for (int t = 0; t < kMaxGresTypes; ++t)
    if (s.gres[t] != 0) words_.push_back(s.gres[t]);
  if (s.mem_mb != 0) {
    const auto mem = static_cast<std::uint64_t>(s.mem_mb);
    words_.push_back(static_cast<std::int32_t>(static_cast<std::uint32_t>(mem >> 32)));
    words_.push_back(static_cast<std::int32_t>(static_cast<std::uint32_t>(mem)));
  }
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
