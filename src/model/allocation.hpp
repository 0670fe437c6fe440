#pragma once
// What a job holds while it runs: cores, gres and memory on each node it uses.
#include <vector>

#include "model/types.hpp"

namespace hs {

struct NodeShare {
  NodeIndex node = 0;
  std::int32_t cores = 0;
  GresCounts gres{};
  std::int64_t mem_mb = 0;
  bool operator==(const NodeShare&) const = default;
};

struct Allocation {
  std::vector<NodeShare> shares;  // ascending node index, no node twice

  std::int32_t total_cores() const;
  std::int64_t total_gres(int type) const;
  int node_count() const { return static_cast<int>(shares.size()); }
  std::vector<NodeIndex> nodes() const;
  void sort_by_node();
  bool operator==(const Allocation&) const = default;
};

}  // namespace hs
