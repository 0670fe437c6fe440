#pragma once
// Slurm 22.05 select/cons_tres node selection as modelled here (see docs/slurm-model.md):
// best fit over consecutive node sets on the 1-D order, greedy CPUs per node, gres per
// node, --contiguous, --ntasks-per-node, and topology/tree placement when configured.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "model/allocation.hpp"
#include "model/cluster.hpp"
#include "model/job.hpp"
#include "sim/cluster_state.hpp"

namespace hs::slurm {

struct SelectOptions {
  bool use_topology = true;            // topology/tree when the cluster has a switch tree
  std::span<const char> usable = {};   // optional mask per node (1 = may be used)
  // Optional: nodes of the job's partition as a bitset (node n is bit n % 64 of word
  // n / 64), e.g. PartitionIndex::bits. With it only those of them with free cores are
  // visited (ClusterState::nodes_with_free_cores) instead of the whole partition.
  std::span<const std::uint64_t> within = {};
  // topology/tree: false = Slurm 22.05 (the highest switch with enough free nodes is the
  // top; leaves are then chosen by fit and closeness); true = Slurm 2.x as the documents
  // used it (the lowest switch with enough free nodes and CPUs, tightest at equal level).
  bool lowest_top_switch = false;
  // Per node, GPUs a GPU job's test last counted there (GpuBias, gpu_bias.hpp): for a job
  // without gres, lowers the node's weight in the flat best fit. Empty = weights as set.
  std::span<const std::uint8_t> gpu_bias = {};
  // cons_tres's cap on the CPUs a gres job of fixed tasks per node counts per node
  // (select.cpp, gres_task_cap). Off = every free CPU counts (the grid clock's default).
  bool gres_task_cap = false;
  // Optional: every node's Node::weight, one int per node (SlurmScheduler keeps one per
  // replay). The flat best fit reads a weight per offering node per evaluation; a compact
  // array saves a cache miss on the Node each time. Empty = read cluster.nodes.
  std::span<const std::int32_t> weights = {};
};

// Node::weight of every node, in node order (for SelectOptions::weights).
std::vector<std::int32_t> node_weights(const Cluster& cluster);

// The allocation Slurm would choose for `job` on the resources free in `state`, or nullopt
// when it cannot start now.
std::optional<Allocation> select_nodes(const Cluster& cluster, const ClusterState& state,
                                       const Job& job, const SelectOptions& options = {});

// The CPUs select_nodes must find free for `job`: with fewer free cores on the whole
// cluster it returns nullopt, so a caller may skip the call.
std::int32_t cpus_needed(const Job& job);

// The most nodes select_nodes would give `job` on a cluster of `node_count` nodes.
std::int32_t max_node_count(const Job& job, int node_count);

}  // namespace hs::slurm
