#include "bridge/partition_cpu_caps.hpp"

#include <algorithm>

namespace hs::bridge {

void PartitionCpuCaps::cap(const std::string& partition, std::int32_t max_cpus, int nodes) {
  caps_[partition] = Cap{max_cpus, std::vector<std::int32_t>(static_cast<std::size_t>(nodes), 0)};
}

void PartitionCpuCaps::hold(const std::string& partition, const Allocation& alloc) {
  auto it = caps_.find(partition);
  if (it == caps_.end()) return;
  for (const NodeShare& share : alloc.shares) it->second.used.at(share.node) += share.cores;
}

std::optional<std::int32_t> PartitionCpuCaps::room(const std::string& partition, NodeIndex node) const {
  auto it = caps_.find(partition);
  if (it == caps_.end()) return std::nullopt;
  return std::max(0, it->second.max_cpus - it->second.used.at(node));
}

std::optional<std::string> PartitionCpuCaps::excess(const std::string& partition, const Allocation& alloc,
                                                    const Cluster& cluster) const {
  auto it = caps_.find(partition);
  if (it == caps_.end()) return std::nullopt;
  for (const NodeShare& share : alloc.shares) {
    const std::int32_t used = it->second.used.at(share.node);
    if (used + share.cores > it->second.max_cpus)
      return "above partition " + partition + "'s MaxCPUsPerNode " + std::to_string(it->second.max_cpus) +
             " on " + cluster.nodes[share.node].name + " (its jobs hold " + std::to_string(used) + ")";
  }
  return std::nullopt;
}

}  // namespace hs::bridge
