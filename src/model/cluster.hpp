#pragma once
// The modelled machine: nodes in Slurm's 1-D order (natural sort of names), per-node cores,
// generic resources and optional memory, partitions, and an optional tree of switches.
#include <algorithm>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/types.hpp"

namespace hs {

struct Node {
  std::string name;
  std::int32_t cores = 0;
  GresCounts gres{};            // count per gres type (Cluster::gres_types order)
  std::int64_t memory_mb = 0;   // 0 = memory not modelled on this node
  std::int32_t weight = 1;
  std::vector<std::string> features;  // slurm.conf Features=, for -C/--constraint
  // CPUs per core where Slurm gives jobs whole cores and the node's CPUs are its hardware
  // threads (slurm.conf ThreadsPerCore=2 without CPUs= counting cores, under every
  // SelectTypeParameters of cons_tres, CR_CPU* too): a share of 3 CPUs then holds 4. 1 elsewhere.
  std::int32_t cpus_per_core = 1;
  // The CPUs a share of `cores` holds on this node: whole cores, at most the node's.
  std::int32_t held_cores(std::int32_t share) const {
    if (cpus_per_core <= 1 || share % cpus_per_core == 0) return share;
    return std::min(cores, (share / cpus_per_core + 1) * cpus_per_core);
  }
};

struct Switch {
  std::string name;
  std::int32_t level = 1;               // leaf switches are level 1, parents 1 + max child
  std::int32_t parent = -1;             // index into SwitchTree::switches, -1 at the top
  std::vector<std::int32_t> children;   // child switch indices
  std::vector<NodeIndex> nodes;         // every node below this switch, ascending
};

class SwitchTree {
 public:
  std::vector<Switch> switches;
  std::vector<std::int32_t> leaf_of_node;  // leaf switch index per node (-1 if none)

  std::int32_t max_level() const;
  // Level of the lowest switch whose subtree holds all the given nodes (0 for an empty
  // set or a single node; 1 when they share a leaf switch). Nodes without a switch count
  // as max_level() + 1.
  std::int32_t lowest_common_level(std::span<const NodeIndex> nodes) const;
  // Computes parents, levels and per-switch node lists from leaves' nodes and children.
  void finalize(std::size_t node_count);
};

struct Partition {
  std::string name;
  std::vector<NodeIndex> nodes;  // ascending
  Time max_time = kNoTime;       // MaxTime (seconds); kNoTime = UNLIMITED
  Time default_time = kNoTime;   // DefaultTime; kNoTime = use max_time
  std::int32_t priority_tier = 1;
  bool is_default = false;
  std::int32_t min_nodes = 0;    // MinNodes; 0 = none
  std::int32_t max_nodes = 0;    // MaxNodes; 0 = UNLIMITED
};

class Cluster {
 public:
  std::string name;
  // At most kMaxGresTypes, e.g. {"gpu", "mic", "gpu:a100", "gpu:v100"}. A plain name counts
  // every unit of that name on a node, typed or not; "name:kind" (a typed-GRES kind) counts
  // the units of that kind only, a subset of the name's units. Names come first.
  std::vector<std::string> gres_types;
  std::vector<Node> nodes;              // in 1-D order
  std::optional<SwitchTree> topology;
  std::vector<Partition> partitions;    // may be empty: then one implicit partition of all

  int gres_index(std::string_view type) const;  // -1 when the cluster has no such type
  // True for a typed-GRES kind ("gpu:a100"), whose units are also counted by its name.
  bool is_gres_kind(int type) const;
  std::int64_t total_cores() const;
  std::int64_t total_gres(int type) const;
  int node_count() const { return static_cast<int>(nodes.size()); }
  // Partition by name (empty name = the default partition, or the first). nullptr if none.
  const Partition* find_partition(std::string_view name) const;
  // Sorts nodes by natural name order and remaps partitions and topology accordingly.
  void sort_nodes_naturally();
};

}  // namespace hs
