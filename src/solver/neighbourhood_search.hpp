#pragma once
// Large-neighbourhood search: pick a job that does not start, free it together with the
// started jobs in the way of its most promising bids (and, breadth first, the jobs in the
// way of those jobs' promising bids), and look for a re-packing in which all of them start
// while every other job keeps its bid (neighbourhood_packing.hpp). This finds the long
// move chains (several jobs shifting to make room for one more) that the one-job-at-a-time
// moves of LocalSearch miss.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "solver/budget.hpp"
#include "solver/incumbent.hpp"

namespace hs::solver {

struct NeighbourhoodShape {
  std::size_t jobs;           // at most this many freed jobs
  std::int32_t bids_per_job;  // promising bids per freed job whose blockers are freed too
  int max_drops;              // cheaper started jobs the re-packing may leave out
};

class NeighbourhoodSearch {
 public:
  // `reduced`: per bid, its value less its use priced at the best Lagrangian multipliers
  // (ranks the bids by promise).
  NeighbourhoodSearch(const CompactProblem& problem, const std::vector<double>& reduced,
                      Budget& budget);
  // Passes over the targets with growing neighbourhoods until a pass of the largest shape
  // finds nothing or the budget has spent `effort_cap`. True if `best` improved.
  bool improve(Incumbent& best, std::int64_t effort_cap);

 private:
  bool improve_pass(Incumbent& best, const NeighbourhoodShape& shape);
  std::vector<std::int32_t> targets(const Incumbent& incumbent);
  std::vector<std::int32_t> neighbourhood(const Incumbent& incumbent, std::int32_t target,
                                          const NeighbourhoodShape& shape);
  void build_node_index();
  void index_winners(const Incumbent& incumbent);
  bool out_of_effort() { return budget_.spent() >= effort_cap_ || budget_.exhausted(); }
  // What no charge of this search passes: its cap, or the budget's limit if lower.
  std::int64_t hard_cap() const { return std::min(effort_cap_, budget_.limit()); }
  bool within_cap(std::int64_t charge) const { return charge <= hard_cap() - budget_.spent(); }

  const CompactProblem& problem_;
  Budget& budget_;
  std::vector<std::int32_t> job_order_begin_;  // jobs + 1 offsets into bids_by_reduced_
  std::vector<std::int32_t> bids_by_reduced_;  // per job, usable bids, best reduced first
  std::vector<std::int32_t> node_bid_begin_;   // nodes + 1
  std::vector<std::int32_t> node_bids_;        // usable bids using each node
  std::vector<std::vector<std::int32_t>> winners_on_node_;  // per node: winning bids on it
  std::vector<std::int32_t> indexed_choice_;   // the incumbent choice winners_on_node_ shows
  std::vector<std::int32_t> member_stamp_;     // per job
  std::int32_t stamp_ = 0;
  std::int64_t effort_cap_ = 0;
};

}  // namespace hs::solver
