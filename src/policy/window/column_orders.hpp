#pragma once
// How IPSCHED's columns order a job's eligible nodes on a free state (ipsched_columns.cpp
// builds the shapes on these orders): the Packed order (most usable cores, then fewest
// spare gres, then node index) and the GresSaving order (fewest spare gres first), both
// total, so any correct selection of a prefix gives the same nodes.
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "policy/window/candidate.hpp"
#include "policy/window/ipsched_columns.hpp"

namespace hs::window {

// The first `keep` of `eligible` in the shape's order into `nodes`, with their core_cap in
// `caps` (Packed's order for Packed, Spread and BestFit).
void order_for(const FreeArrays& free, const WindowJob& job, ColumnShape shape, std::size_t keep,
               const std::vector<NodeIndex>& eligible, std::vector<NodeIndex>& nodes,
               std::vector<std::int32_t>& caps);

// Whether the usable cores of `nodes` reach the job's cores.
bool enough_cores(const FreeArrays& free, const WindowJob& job, const std::vector<NodeIndex>& nodes);

// The BestFit shape of a job that may use one node (nodes_min <= 1, no cores per node) over
// its eligible nodes: the last node in the Packed order that holds the whole job, or else
// whole large nodes and then the smallest node that holds the remainder.
bool best_fit(const FreeArrays& free, const WindowJob& job, const std::vector<NodeIndex>& eligible,
              Candidate& out);

// What a job's shapes share on one free state and eligible list, computed on first use:
// whether it can fit at all, and the orders (the Packed order serves Packed, Spread and the
// best fit of a multi-node job, so those shapes sort once). forget() when the state changes.
class ShapeOrders {
 public:
  struct Order {
    std::vector<NodeIndex> nodes;
    std::vector<std::int32_t> caps;
  };
  bool can_fit(const FreeArrays& free, const WindowJob& job, const std::vector<NodeIndex>& eligible) {
    if (fit_ < 0)
      fit_ = static_cast<std::int32_t>(eligible.size()) >= job.nodes_min &&
             enough_cores(free, job, eligible);
    return fit_ == 1;
  }
  const Order& of(const FreeArrays& free, const WindowJob& job, ColumnShape shape,
                  std::size_t keep, const std::vector<NodeIndex>& eligible) {
    const int k = shape == ColumnShape::GresSaving ? 1 : 0;
    if (!known_[k]) order_for(free, job, shape, keep, eligible, orders_[k].nodes, orders_[k].caps);
    known_[k] = true;
    return orders_[k];
  }
  void forget() { fit_ = -1, known_ = {false, false}; }

 private:
  int fit_ = -1;  // unknown
  std::array<Order, 2> orders_;
  std::array<bool, 2> known_{false, false};
};

}  // namespace hs::window
