#pragma once
// A flat, cache-friendly copy of a WindowProblem shared by the specialised solvers: bid uses
// in one array (CSR by bid), bids grouped by job, and per bid whether it fits the empty
// cluster at all (a bid that exceeds some capacity on its own can never win).
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "solver/window_problem.hpp"

namespace hs::solver {

struct CompactProblem {
  std::int32_t jobs = 0;
  std::int32_t nodes = 0;
  std::int32_t dims = 1;
  // The window problem's node count: effort charges per node or capacity row are counted on
  // it, so that they do not depend on whether the nodes were renumbered (compact_used_nodes).
  std::int32_t charged_nodes = 0;
  std::vector<std::int32_t> capacity;    // nodes * dims
  std::vector<double> value;             // per bid
  std::vector<std::int32_t> job_of_bid;  // per bid
  std::vector<std::int32_t> use_begin;   // bids + 1 offsets into use_node
  std::vector<std::int32_t> use_node;    // per use
  std::vector<std::int32_t> use_amount;  // per use * dims
  std::vector<double> use_amount_real;   // the same amounts as doubles (pricing loops)
  std::vector<std::int32_t> job_bid_begin;  // jobs + 1 offsets into job_bids
  std::vector<std::int32_t> job_bids;       // bid indices grouped by job, ascending
  std::vector<std::uint8_t> usable;         // per bid: fits the empty cluster
  // Per dimension: mean usable bid value / total capacity (the density ranking's base price).
  std::vector<double> base_price;

  std::int64_t charged_rows() const { return static_cast<std::int64_t>(charged_nodes) * dims; }
  std::int32_t bid_count() const { return static_cast<std::int32_t>(value.size()); }
  std::int32_t use_count(std::int32_t bid) const { return use_begin[bid + 1] - use_begin[bid]; }
};

// Calls f(std::integral_constant<int, D>{}) with D = dims for the usual dimension counts
// (2 to 5: cores, a gres type, memory, and the reservation's cores and gres), so that loops
// over one use's dimensions unroll, and with D = 0 (read p.dims at run time) otherwise.
template <typename F>
decltype(auto) with_fixed_dims(std::int32_t dims, F&& f) {
  switch (dims) {
    case 2: return f(std::integral_constant<int, 2>{});
    case 3: return f(std::integral_constant<int, 3>{});
    case 4: return f(std::integral_constant<int, 4>{});
    case 5: return f(std::integral_constant<int, 5>{});
    default: return f(std::integral_constant<int, 0>{});
  }
}

// Structural problems (bad indices, unsorted uses, non-positive or non-finite values,
// negative amounts or capacities) as a message; nullopt when the problem is well formed.
std::optional<std::string> find_problem_defect(const WindowProblem& problem);

// Requires a well-formed problem (see find_problem_defect).
CompactProblem compact(const WindowProblem& problem);

// compact() over only the nodes some bid uses, renumbered in ascending order (a node no bid
// uses has no bearing on any choice). Base prices, effort charges and every order over nodes
// or capacity rows are those of compact(problem), so the solvers decide and charge the same;
// what no longer grows with the cluster is the solvers' per-node state (ledgers,
// multipliers, node indices). Node numbers inside differ from the problem's.
// The problem must have no defect (find_problem_defect): every use names a node in range.
CompactProblem compact_used_nodes(const WindowProblem& problem);

// Objective of a per-job bid choice (-1 = none).
double objective_of(const CompactProblem& problem, const std::vector<std::int32_t>& bid_of_job);

}  // namespace hs::solver
