#include "policy/heuristic/free_core_histogram.hpp"

#include <algorithm>
#include <limits>

namespace hs::heuristic {

FreeCoreHistogram::FreeCoreHistogram(const ClusterState& state, std::span<const char> usable)
    : usable_(usable) {
  for (NodeIndex n = 0; n < state.node_count(); ++n)
    if (usable_.empty() || usable_[n]) count(state.node(n).cores, 1);
}

void FreeCoreHistogram::count(std::int32_t cores, int delta) {
  const auto c = static_cast<std::size_t>(std::max(0, cores));
  if (c >= nodes_with_.size()) nodes_with_.resize(c + 1, 0);
  nodes_with_[c] += delta;
}

void FreeCoreHistogram::update(NodeIndex n, std::int32_t before, std::int32_t after) {
  if (!usable_.empty() && !usable_[n]) return;
  count(before, -1);
  count(after, 1);
}

bool FreeCoreHistogram::may_fit(const JobUnits& u) const {
  if (u.count <= 0 || u.cores <= 0) return true;  // nothing to bound
  const std::int64_t per_node_max =
      u.max_per_node > 0 ? u.max_per_node : std::numeric_limits<std::int32_t>::max();
  std::int64_t units = 0;
  for (std::size_t c = static_cast<std::size_t>(u.cores); c < nodes_with_.size(); ++c) {
    units += nodes_with_[c] * std::min<std::int64_t>(per_node_max, static_cast<std::int64_t>(c) / u.cores);
    if (units >= u.count) return true;
  }
  return false;
}

}  // namespace hs::heuristic
