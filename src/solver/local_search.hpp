#pragma once
// Improvement moves on a feasible incumbent, each accepted only when it raises the
// objective: re-bid one job; drop one job and greedily refill the freed nodes; swap an
// unassigned job's bid in for a job that then re-bids elsewhere; force an unassigned job's
// bid in by ejecting every job on its nodes, then refill the ejected and other open jobs;
// the same with an ejection chain (ejected jobs may in turn force a bid in elsewhere).
// Runs until a full round finds nothing or the budget is spent.
//
// The budget's limit is a hard cap here: every charge is preceded by a check that stops the
// search when the charge would pass the limit; the move under way is then rolled back
// without further charges (the roll-back costs no more than the move had charged), so the
// incumbent stays as the last completed move left it.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "solver/budget.hpp"
#include "solver/incumbent.hpp"
#include "util/rng.hpp"

namespace hs::solver {

class LocalSearch {
 public:
  LocalSearch(const CompactProblem& problem, Budget& budget);
  // Stops once the budget has spent `effort_cap` units (or is exhausted), and never passes
  // the hard limit.
  void improve(Incumbent& incumbent, std::int64_t effort_cap);
  // The hard limit (the budget's limit unless set lower): what improve() and the kicks
  // never pass.
  void set_hard_limit(std::int64_t hard_limit) { hard_limit_ = std::min(hard_limit, budget_.limit()); }
  // Iterated local search (local_search_kick.cpp): repeatedly perturb a copy of `best` by
  // ejecting a random started job and its node neighbours, refill in a randomly perturbed
  // value order, improve, and keep the copy if it is better. Deterministic given `seed`.
  void iterate_with_kicks(Incumbent& best, std::uint64_t seed, std::int64_t effort_cap);

 private:
  bool improvement_round(Incumbent& incumbent);
  struct LimitReached {};  // thrown by checkpoint(), caught by improve() and the kick loop
  bool out_of_effort() {
    return budget_.spent() >= effort_cap_ || budget_.spent() >= hard_limit_ || budget_.exhausted();
  }
  // Before each charge: throws LimitReached when `charge` would pass the hard limit.
  void checkpoint(std::int64_t charge) const {
    if (charge > hard_limit_ - budget_.spent()) throw LimitReached{};
  }
  std::int64_t ledger_charge(std::int32_t bid) const { return problem_.use_count(bid) + 1; }
  bool fits(const Incumbent& incumbent, std::int32_t bid) const {
    checkpoint(ledger_charge(bid));
    return incumbent.ledger.fits(bid);
  }
  void roll_back_move(Incumbent& incumbent);
  void begin_move() { move_log_.clear(); }
  double current_value(const Incumbent& incumbent, std::int32_t job) const;
  bool rebid_job(Incumbent& incumbent, std::int32_t job);
  bool drop_and_refill(Incumbent& incumbent, std::int32_t job);
  bool swap_in(Incumbent& incumbent, std::int32_t job);
  bool insert_with_ejection(Incumbent& incumbent, std::int32_t bid);
  // Greedy insertion of `candidates` (descending value) into the incumbent; returns them.
  // Winning bids that use a node of `bid` (each once), charging the scan to the budget.
  std::vector<std::int32_t> winning_bids_sharing_nodes(const Incumbent& incumbent, std::int32_t bid);
  std::vector<std::int32_t> refill(Incumbent& incumbent, const std::vector<std::int32_t>& candidates);
  // Usable bids of unassigned jobs sharing a node with one of the `freed` bids (excluding
  // those bids themselves if asked), plus every usable bid of the `movers` jobs; by
  // descending value.
  std::vector<std::int32_t> open_bids_near(const Incumbent& incumbent,
                                           const std::vector<std::int32_t>& freed,
                                           const std::vector<std::int32_t>& movers,
                                           bool exclude_freed);
  // Ejection chain (local_search_chain.cpp): force `bid` in, re-place the ejected jobs,
  // letting each force one of its own bids in up to `depth` more levels. Journaled.
  bool insert_with_chain(Incumbent& incumbent, std::int32_t bid, int depth);
  bool force_in(Incumbent& incumbent, std::int32_t bid, int depth);
  bool replace_simply(Incumbent& incumbent, std::int32_t job);
  void relocate_with_chain(Incumbent& incumbent, std::int32_t job, int depth);
  void unlock_to(std::size_t mark);
  void journal_assign(Incumbent& incumbent, std::int32_t job, std::int32_t bid);
  void journal_unassign(Incumbent& incumbent, std::int32_t job);
  void undo_to(Incumbent& incumbent, std::size_t mark);
  void kick(Incumbent& incumbent, Rng& rng);
  void force_kick(Incumbent& incumbent, Rng& rng);
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
  std::vector<std::pair<std::int32_t, std::int32_t>> journal_;  // (job, previous bid)
  std::vector<std::int32_t> locked_stamp_;                      // per job: in the current chain
  std::int32_t chain_stamp_ = 0;
  std::vector<std::int32_t> locked_jobs_;  // jobs locked by the current chain, in order
  std::int64_t chain_effort_end_ = INT64_MAX;
  std::int64_t hard_limit_ = 0;  // what no charge may pass (the budget's limit or lower)
  std::vector<std::pair<std::int32_t, std::int32_t>> move_log_;  // (job, previous bid) this move
};

}  // namespace hs::solver
