#pragma once
// Multipliers tuned for one neighbourhood: with every job outside `free_jobs` fixed at its
// incumbent bid, the sub-problem over the free jobs has only the rows their bids draw on,
// with the capacity the fixed jobs leave. A few projected subgradient steps on those rows,
// started from the global multipliers, give a much tighter bound for the sub-problem than
// the global ones, so its exact branch and bound prunes far more.
#include <cstdint>
#include <vector>

#include "solver/budget.hpp"
#include "solver/incumbent.hpp"
#include "solver/lagrangian_branch_and_bound.hpp"

namespace hs::solver {

struct NeighbourhoodPricing {
  PricedBids priced;        // global prices with the neighbourhood's rows re-tuned
  double bound = 0.0;       // upper bound on the free jobs' total value (given the others)
  double incumbent = 0.0;   // the free jobs' total value in the incumbent
};

NeighbourhoodPricing price_neighbourhood(const CompactProblem& problem, const PricedBids& global,
                                         const std::vector<std::int32_t>& free_jobs,
                                         const Incumbent& incumbent, Budget& budget);

}  // namespace hs::solver
