#pragma once
// Large-neighbourhood search with an exact sub-solve: pick a job that does not get its most
// valuable bid, free it together with the started jobs that block its most promising bids
// (and, breadth first, the jobs blocking those jobs' promising bids), and re-solve the
// choice of the freed jobs exactly with the Lagrangian branch and bound while every other
// job keeps its bid. This finds the long move chains (several jobs shifting to make room)
// that the one-job-at-a-time moves of LocalSearch miss.
#include <cstdint>
#include <vector>

#include "solver/budget.hpp"
#include "solver/incumbent.hpp"
#include "solver/lagrangian_branch_and_bound.hpp"

namespace hs::solver {

struct NeighbourhoodShape {
  std::size_t jobs;        // at most this many freed jobs
  std::int32_t bids_per_job;  // promising bids (by reduced value) whose blockers are freed
};

class NeighbourhoodSearch {
 public:
  NeighbourhoodSearch(const CompactProblem& problem, const PricedBids& priced, Budget& budget);
  // Passes over the targets with growing neighbourhoods until a pass of the largest shape
  // finds nothing or the budget has spent `effort_cap`. True if `best` improved.
  bool improve(Incumbent& best, std::int64_t effort_cap);

 private:
  bool improve_pass(Incumbent& best, const NeighbourhoodShape& shape);
  std::vector<std::int32_t> targets(const Incumbent& incumbent);
  std::vector<std::int32_t> neighbourhood(const Incumbent& incumbent, std::int32_t target,
                                          const NeighbourhoodShape& shape);
  bool out_of_effort() { return budget_.spent() >= effort_cap_ || budget_.exhausted(); }

  const CompactProblem& problem_;
  const PricedBids& priced_;
  Budget& budget_;
  std::vector<std::int32_t> job_order_begin_;       // jobs + 1 offsets into bids_by_reduced_
  std::vector<std::int32_t> bids_by_reduced_;       // per job, usable bids, best reduced first
  std::vector<std::int32_t> node_bid_begin_;        // nodes + 1
  std::vector<std::int32_t> node_bids_;             // usable bids using each node
  std::vector<std::int32_t> member_stamp_;          // per job
  std::int32_t stamp_ = 0;
  std::int64_t effort_cap_ = 0;
};

}  // namespace hs::solver
