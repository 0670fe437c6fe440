#pragma once
// Improvement moves on a feasible incumbent, each accepted only when it raises the
// objective: re-bid one job; drop one job and greedily refill the freed nodes; swap an
// unassigned job's bid in for a job that then re-bids elsewhere; force an unassigned job's
// bid in by ejecting every job on its nodes, then refill the ejected and other open jobs. Runs until a full round
// finds nothing or the budget is spent.
#include <cstdint>
#include <vector>

#include "solver/budget.hpp"
#include "solver/incumbent.hpp"

namespace hs::solver {

class LocalSearch {
 public:
  LocalSearch(const CompactProblem& problem, Budget& budget);
  // Stops once the budget has spent `effort_cap` units (or is exhausted).
  void improve(Incumbent& incumbent, std::int64_t effort_cap);

 private:
  bool out_of_effort() { return budget_.spent() >= effort_cap_ || budget_.exhausted(); }
  bool rebid_job(Incumbent& incumbent, std::int32_t job);
  bool drop_and_refill(Incumbent& incumbent, std::int32_t job);
  bool swap_in(Incumbent& incumbent, std::int32_t job);
  bool insert_with_ejection(Incumbent& incumbent, std::int32_t bid);
  // Greedy insertion of `candidates` (descending value) into the incumbent; returns them.
  std::vector<std::int32_t> refill(Incumbent& incumbent, const std::vector<std::int32_t>& candidates);
  // Usable bids of unassigned jobs (other than `bid`) sharing a node with `bid`.
  std::vector<std::int32_t> overlapping_open_bids(const Incumbent& incumbent, std::int32_t bid);
  void assign(Incumbent& incumbent, std::int32_t job, std::int32_t bid);
  void unassign(Incumbent& incumbent, std::int32_t job);

  const CompactProblem& problem_;
  Budget& budget_;
  std::vector<std::int32_t> job_value_begin_;    // jobs + 1 offsets into job_bids_by_value_
  std::vector<std::int32_t> job_bids_by_value_;  // per job, usable bids, descending value
  std::vector<std::int32_t> node_bid_begin_;     // nodes + 1
  std::vector<std::int32_t> node_bids_;          // usable bids using each node
  std::vector<std::int32_t> seen_stamp_;         // per bid, for de-duplication
  std::int32_t stamp_ = 0;
  std::int64_t effort_cap_ = 0;
};

}  // namespace hs::solver
