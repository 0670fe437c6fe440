#pragma once
// How many jobs a window's solution can start, from its objective alone. Every bid value is
// positive, so a choice of k jobs is worth at least the k smallest of the jobs' cheapest bids
// and at most the k largest of their dearest: an upper bound on the objective caps the count,
// and a value a solution must beat sets a least count. On windows whose values are a large
// constant per job plus a tie-break (AUCSCHED's, captured from replays) the LP spreads a
// fraction of one more job than fits under its own bound; the count row removes it.
#include <cstdint>
#include <vector>

#include "solver/compact_problem.hpp"

namespace hs::solver {

class JobCountBounds {
 public:
  explicit JobCountBounds(const CompactProblem& problem);

  // Jobs with a usable bid: no choice starts more.
  std::int32_t jobs() const { return static_cast<std::int32_t>(cheapest_.size()); }
  // The most jobs any choice worth at most `bound` can start.
  std::int32_t most_within(double bound) const;
  // The fewest jobs a choice worth more than `value` must start.
  std::int32_t fewest_above(double value) const;

 private:
  std::vector<double> cheapest_;  // per job with a usable bid: its cheapest, ascending
  std::vector<double> dearest_;   // per such job: its dearest bid, descending
};

}  // namespace hs::solver
