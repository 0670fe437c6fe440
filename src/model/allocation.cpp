#include "model/allocation.hpp"

#include <algorithm>

namespace hs {

std::int32_t Allocation::total_cores() const {
  std::int32_t sum = 0;
  for (const auto& s : shares) sum += s.cores;
  return sum;
}

std::int64_t Allocation::total_gres(int type) const {
  std::int64_t sum = 0;
  for (const auto& s : shares) sum += s.gres[type];
  return sum;
}

std::vector<NodeIndex> Allocation::nodes() const {
  std::vector<NodeIndex> out;
  out.reserve(shares.size());
  for (const auto& s : shares) out.push_back(s.node);
  return out;
}

void Allocation::sort_by_node() {
  const auto by_node = [](const NodeShare& a, const NodeShare& b) { return a.node < b.node; };
  if (std::is_sorted(shares.begin(), shares.end(), by_node)) return;  // often in order already
  std::sort(shares.begin(), shares.end(), by_node);
}

}  // namespace hs
