#pragma once
// Nodesets (thesis §4.1): maximal runs of consecutive nodes that a job could use, each with
// its total free cores. AUCSCHED1-2 build them over the whole 1-D node order; AUCSCHED3 builds
// them separately under each leaf switch, so no nodeset crosses a switch.
#include <cstdint>
#include <functional>
#include <ranges>
#include <span>
#include <vector>

#include "model/types.hpp"

namespace hs::window {

struct Nodeset {
  NodeIndex first = 0;      // first node (inclusive)
  NodeIndex last = 0;       // last node (inclusive)
  std::int64_t cores = 0;   // free cores summed over the run
  std::int32_t gres = 0;    // every node in the run has at least this many free gres
  std::int32_t group = 0;   // leaf switch index for per-switch nodesets, else 0
  int size() const { return last - first + 1; }
};

// Per-node free amounts the nodeset builder reads (one gres type).
struct NodeFreeView {
  std::span<const std::int32_t> cores;
  std::span<const std::int32_t> gres;
};

// The documents' nodesets for gres level g: runs of nodes with free cores > 0 and free
// gres >= g, in ascending node order.
std::vector<Nodeset> build_nodesets(const NodeFreeView& free, std::int32_t g);

// Runs over an ascending list of candidate nodes: a run breaks where node indices are not
// consecutive or `usable(node)` is false. Cores summed from free.cores. `group` is copied
// into every nodeset produced.
std::vector<Nodeset> build_runs(std::span<const NodeIndex> candidates,
                                const std::function<bool(NodeIndex)>& usable,
                                std::span<const std::int32_t> free_cores, std::int32_t g,
                                std::int32_t group);

// The runs over any ascending sequence of node indices (a list or a range), `usable`
// inlined: a run breaks where indices are not consecutive or `usable(node)` is false.
template <typename Nodes, typename Usable>
std::vector<Nodeset> build_runs_over(const Nodes& nodes, Usable usable,
                                     std::span<const std::int32_t> free_cores, std::int32_t g,
                                     std::int32_t group) {
  std::vector<Nodeset> out;
  bool open = false;
  for (const NodeIndex n : nodes) {
    if (!usable(n)) {
      open = false;
      continue;
    }
    if (open && out.back().last + 1 == n) {  // consecutive: the run goes on
      out.back().last = n;
      out.back().cores += free_cores[n];
      continue;
    }
    out.push_back(Nodeset{n, n, free_cores[n], g, group});
    open = true;
  }
  return out;
}

// build_runs over the nodes first..last-1 in order (the flat nodesets test every node of
// the cluster; a std::function call each would cost more than the test).
template <typename Usable>
std::vector<Nodeset> build_runs_over_range(NodeIndex first, NodeIndex last, Usable usable,
                                           std::span<const std::int32_t> free_cores,
                                           std::int32_t g, std::int32_t group) {
  return build_runs_over(std::views::iota(first, last), usable, free_cores, g, group);
}

}  // namespace hs::window
