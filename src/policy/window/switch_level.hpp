#pragma once
// Lowest common switch level of a node set, by lifting the distinct leaf switches to their
// parents (cost ~ nodes + switches on the paths), with the same result as
// SwitchTree::lowest_common_level, which scans every switch's node list.
#include <span>

#include "model/cluster.hpp"

namespace hs::window {

std::int32_t common_switch_level(const SwitchTree& tree, std::span<const NodeIndex> nodes);

}  // namespace hs::window
