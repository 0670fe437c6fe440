#include "policy/window/nodesets.hpp"

#include <numeric>

namespace hs::window {

std::vector<Nodeset> build_runs(std::span<const NodeIndex> candidates,
                                const std::function<bool(NodeIndex)>& usable,
                                std::span<const std::int32_t> free_cores, std::int32_t g,
                                std::int32_t group) {
  return build_runs_over(candidates, usable, free_cores, g, group);
}

std::vector<Nodeset> build_nodesets(const NodeFreeView& free, std::int32_t g) {
  std::vector<NodeIndex> all(free.cores.size());
  std::iota(all.begin(), all.end(), 0);
  auto usable = [&](NodeIndex n) { return free.cores[n] > 0 && free.gres[n] >= g; };
  return build_runs(all, usable, free.cores, g, 0);
}

}  // namespace hs::window
