#pragma once
// Feasibility re-packing of a neighbourhood: with every other job fixed at its bid, find
// a bid for every job in `members` (a job that does not start plus the started jobs in its
// way) so that all of them start together (optionally leaving one cheaper job out). This is a constraint search, not an
// optimisation: depth first, always branching on the member with the fewest bids that still
// fit (and failing as soon as one has none), trying its current bid first and then by
// descending value. Without the weak bound of an optimising search it finds the long
// rearrangements (many jobs shifting to make room for one more) quickly.
#include <cstdint>
#include <vector>

#include "solver/budget.hpp"
#include "solver/incumbent.hpp"

namespace hs::solver {

// Re-packs `members` (the first is the target) so that all of them start, except that up to
// `max_drops` started members worth less than the target's best bid may be left out (tried
// last); accepts the first packing that raises the objective (a running bound prunes those
// that cannot) and applies it to `incumbent`. Stops after `effort` units. True when
// `incumbent` improved.
// An upper bound on what a re-packing of `members` charges beyond its `effort`: setting up
// (releasing the members' bids, testing and sorting their options), the last search step
// before it sees the cap, and applying the packing found. A caller that keeps this much
// of the budget's limit in hand never passes the limit.
std::int64_t repacking_reserve(const CompactProblem& problem, const std::vector<std::int32_t>& members);

bool repack_neighbourhood(const CompactProblem& problem, const std::vector<std::int32_t>& members,
                          int max_drops, Budget& budget, std::int64_t effort, Incumbent& incumbent);

}  // namespace hs::solver
