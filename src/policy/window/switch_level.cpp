#include "policy/window/switch_level.hpp"

#include <algorithm>
#include <vector>

namespace hs::window {

std::int32_t common_switch_level(const SwitchTree& tree, std::span<const NodeIndex> nodes) {
  if (nodes.size() <= 1) return 0;
  const std::int32_t unreachable = tree.max_level() + 1;
  std::vector<std::int32_t> current;
  for (NodeIndex n : nodes) {
    const std::int32_t leaf =
        n < static_cast<NodeIndex>(tree.leaf_of_node.size()) ? tree.leaf_of_node[n] : -1;
    if (leaf < 0) return unreachable;
    current.push_back(leaf);
  }
  auto dedupe = [&] {
    std::sort(current.begin(), current.end());
    current.erase(std::unique(current.begin(), current.end()), current.end());
  };
  dedupe();
  while (current.size() > 1) {
    std::int32_t low = tree.switches[current.front()].level;
    for (auto s : current) low = std::min(low, tree.switches[s].level);
    for (auto& s : current) {
      if (tree.switches[s].level != low) continue;
      s = tree.switches[s].parent;
      if (s < 0) return unreachable;
    }
    dedupe();
  }
  return tree.switches[current.front()].level;
}

}  // namespace hs::window
