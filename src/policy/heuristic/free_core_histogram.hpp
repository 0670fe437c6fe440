#pragma once
// How many usable nodes have each count of free cores, kept up to date during a pass. It
// bounds from above how many units of a job the free nodes can take: the sum over nodes of
// min(max_per_node, free cores / unit cores), which ignores gres and memory, so it never
// counts fewer units than units_feasible. When the bound says the units cannot fit, the
// full test would say so too, at the cost of the distinct core counts instead of the nodes.
#include <cstdint>
#include <span>
#include <vector>

#include "policy/heuristic/job_units.hpp"
#include "sim/cluster_state.hpp"

namespace hs::heuristic {

class FreeCoreHistogram {
 public:
  FreeCoreHistogram(const ClusterState& state, std::span<const char> usable);
  // Node n went from `before` to `after` free cores.
  void update(NodeIndex n, std::int32_t before, std::int32_t after);
  // False when the units cannot fit on the usable nodes (true does not mean they fit).
  bool may_fit(const JobUnits& u) const;

 private:
  void count(std::int32_t cores, int delta);

  std::span<const char> usable_;
  std::vector<std::int32_t> nodes_with_;  // [c]: usable nodes with c free cores
};

}  // namespace hs::heuristic
