#pragma once
// Netti et al. model a job as k identical units (e.g. MPI ranks); an allocator places them
// unit by unit over an ordered node list ("all-requested-computers-available"). This file
// maps Slurm-style requests to units and a placement back to an hs::Allocation.
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "model/allocation.hpp"
#include "model/cluster.hpp"
#include "model/job.hpp"
#include "sim/cluster_state.hpp"

namespace hs::heuristic {

struct JobUnits {
  std::int32_t count = 0;         // identical units to place
  std::int32_t cores = 0;         // per unit (reserved while placing)
  GresCounts gres{};              // per unit
  std::int64_t mem_mb = 0;        // per unit, only on nodes that model memory
  GresCounts node_gres{};         // on every node used (--gres without per-node task counts)
  std::int64_t node_mem_mb = 0;   // on every node used, only where memory is modelled
  std::int32_t max_per_node = 0;  // 0 = as many as fit
  std::int32_t total_cores = 0;   // cores the final allocation holds (<= count * cores)
  bool contiguous = false;        // nodes must be consecutive in the 1-D order

  bool operator==(const JobUnits&) const = default;
  // Whole-job amount of gres type t / memory assuming the fewest nodes the units need.
  std::int64_t total_gres(int t) const;
  std::int64_t total_mem() const;
  std::int32_t min_nodes() const;
};

// Either the units or the reason the request cannot be expressed as identical units.
using UnitsOrReason = std::variant<JobUnits, std::string>;

// Mapping (see docs/heuristic-policies.md):
//   --ntasks-per-node=k  -> n/k units of k cores + per-node gres/mem, one unit per node;
//   -N y (no k)          -> y units of ceil(n/y) cores + per-node gres/mem, one per node,
//                           trimmed to n cores in total after placement (conservative);
//   -n x (no -N, no k)   -> x units of 1 core; --gres/--mem become per-node overheads.
// Gres ranges use their minimum. Needs a job bound to the cluster.
UnitsOrReason units_from_request(const Job& job);

// How many units node `n` can take given what is free there (0 if none).
std::int32_t units_fitting(const Node& node, const NodeFree& free, const JobUnits& u);

// True when the free resources of the usable nodes can hold every unit (independent of any
// node order: greedy placement takes all it can per node).
bool units_feasible(const Cluster& cluster, const ClusterState& state, const JobUnits& u,
                    std::span<const char> usable);

// Places the units over `order` (nodes with usable[n] == 0 skipped) and returns the
// allocation, or nullopt when the list runs out. Contiguous jobs ignore the order and take
// the first run of consecutive nodes (in 1-D order) that holds them.
std::optional<Allocation> place_units(const Cluster& cluster, const ClusterState& state,
                                      const JobUnits& u, std::span<const NodeIndex> order,
                                      std::span<const char> usable);

}  // namespace hs::heuristic
