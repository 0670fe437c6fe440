#include "model/cluster.hpp"

#include <algorithm>
#include <numeric>

#include "util/natural_sort.hpp"

namespace hs {

std::int32_t SwitchTree::max_level() const {
  std::int32_t level = 0;
  for (const auto& s : switches) level = std::max(level, s.level);
  return level;
}

std::int32_t SwitchTree::lowest_common_level(std::span<const NodeIndex> nodes) const {
  if (nodes.size() <= 1) return 0;
  std::int32_t best = max_level() + 1;
  for (const auto& s : switches) {
    if (s.level >= best) continue;
    const bool holds_all = std::all_of(nodes.begin(), nodes.end(), [&](NodeIndex n) {
      return std::binary_search(s.nodes.begin(), s.nodes.end(), n);
    });
    if (holds_all) best = s.level;
  }
  return best;
}

namespace {
// Level and node list of switch s, computed from its children first.
void finalize_switch(std::vector<Switch>& sw, std::int32_t s, std::vector<char>& done) {
  if (done[s]) return;
  done[s] = 1;
  std::int32_t level = 1;
  for (std::int32_t c : sw[s].children) {
    finalize_switch(sw, c, done);
    sw[c].parent = s;
    level = std::max(level, sw[c].level + 1);
    sw[s].nodes.insert(sw[s].nodes.end(), sw[c].nodes.begin(), sw[c].nodes.end());
  }
  sw[s].level = level;
  std::sort(sw[s].nodes.begin(), sw[s].nodes.end());
  sw[s].nodes.erase(std::unique(sw[s].nodes.begin(), sw[s].nodes.end()), sw[s].nodes.end());
}
}  // namespace

void SwitchTree::finalize(std::size_t node_count) {
  leaf_of_node.assign(node_count, -1);
  for (std::size_t s = 0; s < switches.size(); ++s) {
    if (!switches[s].children.empty()) continue;
    for (NodeIndex n : switches[s].nodes) leaf_of_node[n] = static_cast<std::int32_t>(s);
  }
  std::vector<char> done(switches.size(), 0);
  for (std::size_t s = 0; s < switches.size(); ++s)
    finalize_switch(switches, static_cast<std::int32_t>(s), done);
}

int Cluster::gres_index(std::string_view type) const {
  for (std::size_t i = 0; i < gres_types.size(); ++i)
    if (gres_types[i] == type) return static_cast<int>(i);
  return -1;
}

bool Cluster::is_gres_kind(int type) const {
  return type >= 0 && type < static_cast<int>(gres_types.size()) &&
         gres_types[type].find(':') != std::string::npos;
}

std::int64_t Cluster::total_cores() const {
  std::int64_t sum = 0;
  for (const auto& n : nodes) sum += n.cores;
  return sum;
}

std::int64_t Cluster::total_gres(int type) const {
  std::int64_t sum = 0;
  for (const auto& n : nodes) sum += n.gres[type];
  return sum;
}

const Partition* Cluster::find_partition(std::string_view name) const {
  if (partitions.empty()) return nullptr;
  if (name.empty()) {
    for (const auto& p : partitions)
      if (p.is_default) return &p;
    return &partitions.front();
  }
  for (const auto& p : partitions)
    if (p.name == name) return &p;
  return nullptr;
}

void Cluster::sort_nodes_naturally() {
  // Node ranges expand in natural order: most configurations need one pass, not a sort.
  const auto out_of_order = [](const Node& a, const Node& b) { return natural_less(b.name, a.name); };
  if (std::adjacent_find(nodes.begin(), nodes.end(), out_of_order) == nodes.end()) return;
  std::vector<NodeIndex> order(nodes.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](NodeIndex a, NodeIndex b) {
    return natural_less(nodes[a].name, nodes[b].name);
  });
  std::vector<NodeIndex> new_index(nodes.size());
  std::vector<Node> sorted;
  sorted.reserve(nodes.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    new_index[order[i]] = static_cast<NodeIndex>(i);
    sorted.push_back(std::move(nodes[order[i]]));
  }
  nodes = std::move(sorted);
  auto remap = [&](std::vector<NodeIndex>& list) {
    for (auto& n : list) n = new_index[n];
    std::sort(list.begin(), list.end());
  };
  for (auto& p : partitions) remap(p.nodes);
  if (topology) {
    for (auto& s : topology->switches) remap(s.nodes);
    topology->finalize(nodes.size());
  }
}

}  // namespace hs
