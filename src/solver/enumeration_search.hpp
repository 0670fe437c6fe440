#pragma once
// Depth-first enumeration of a window's choices (every job: one of its usable bids or none),
// pruned by the sum of each remaining job's best value. Exact: when it completes, no choice
// beats the one it returns by more than the gain asked for. Small windows only, under a cap.
#include <cstdint>
#include <vector>

#include "solver/budget.hpp"
#include "solver/compact_problem.hpp"

namespace hs::solver {

struct EnumerationResult {
  bool complete = false;                  // every choice was covered before the cap
  bool improved = false;                  // a choice above the floor was found
  std::vector<std::int32_t> bid_of_job;   // the best choice found when improved
  double objective = 0.0;
};

// Looks for the best choice whose value exceeds `floor` by more than `min_gain`, charging
// one unit per search node plus the capacity checks; stops (incomplete) before a step that
// could take the total past `effort_cap`, or once the budget is exhausted.
EnumerationResult enumerate_choices(const CompactProblem& problem, Budget& budget,
                                    std::int64_t effort_cap, double floor, double min_gain);

}  // namespace hs::solver
