// Ejection chains for LocalSearch: a bid is forced in by ejecting every started job on its
// nodes; each ejected job then takes its best bid that still fits or, while depth remains,
// forces one of its own bids in the same way (the first that loses nothing, else the most
// profitable, if it beats leaving the job out). Jobs placed by the chain are locked against
// ejection. All changes go through a journal so an unprofitable chain is undone exactly.
#include <algorithm>
#include <cstdint>

#include "solver/local_search.hpp"

namespace hs::solver {

namespace {
constexpr double kMinGain = 1e-9;
constexpr std::int64_t kChainEffort = 5'000;  // per attempted chain (before it is finished)
}  // namespace

void LocalSearch::journal_assign(Incumbent& incumbent, std::int32_t job, std::int32_t bid) {
  journal_.emplace_back(job, incumbent.bid_of_job[job]);
  assign(incumbent, job, bid);
}

void LocalSearch::journal_unassign(Incumbent& incumbent, std::int32_t job) {
  journal_.emplace_back(job, incumbent.bid_of_job[job]);
  unassign(incumbent, job);
}

void LocalSearch::undo_to(Incumbent& incumbent, std::size_t mark) {
  while (journal_.size() > mark) {
    const auto [job, previous] = journal_.back();
    journal_.pop_back();
    if (incumbent.bid_of_job[job] >= 0) unassign(incumbent, job);
    if (previous >= 0) assign(incumbent, job, previous);
  }
}

void LocalSearch::unlock_to(std::size_t mark) {
  while (locked_jobs_.size() > mark) {
    locked_stamp_[locked_jobs_.back()] = 0;
    locked_jobs_.pop_back();
  }
}

bool LocalSearch::replace_simply(Incumbent& incumbent, std::int32_t job) {
  for (std::int32_t k = job_value_begin_[job]; k < job_value_begin_[job + 1]; ++k) {
    const std::int32_t bid = job_bids_by_value_[k];
    if (!fits(incumbent, bid)) continue;
    journal_assign(incumbent, job, bid);
    return true;
  }
  return false;
}

// Forces `bid` in (moving its job if it has a bid already); false if it would eject a job
// of the current chain (the caller then undoes the journal to its mark).
bool LocalSearch::force_in(Incumbent& incumbent, std::int32_t bid, int depth) {
  const std::int32_t job = problem_.job_of_bid[bid];
  if (incumbent.bid_of_job[job] >= 0) journal_unassign(incumbent, job);
  std::vector<std::int32_t> ejected;
  ++stamp_;
  for (std::int32_t u = problem_.use_begin[bid]; u < problem_.use_begin[bid + 1]; ++u) {
    const std::int32_t node = problem_.use_node[u];
    checkpoint(node_bid_begin_[node + 1] - node_bid_begin_[node]);
    budget_.effort() += node_bid_begin_[node + 1] - node_bid_begin_[node];
    for (std::int32_t k = node_bid_begin_[node]; k < node_bid_begin_[node + 1]; ++k) {
      const std::int32_t other = node_bids_[k];
      const std::int32_t owner = problem_.job_of_bid[other];
      if (seen_stamp_[other] == stamp_ || incumbent.bid_of_job[owner] != other) continue;
      seen_stamp_[other] = stamp_;
      if (locked_stamp_[owner] == chain_stamp_) return false;
      ejected.push_back(owner);
    }
  }
  locked_stamp_[job] = chain_stamp_;
  locked_jobs_.push_back(job);
  for (std::int32_t out : ejected) journal_unassign(incumbent, out);
  journal_assign(incumbent, job, bid);
  std::sort(ejected.begin(), ejected.end());  // re-place in job (priority) order
  for (std::int32_t out : ejected)
    if (!replace_simply(incumbent, out) && depth > 0 && !out_of_effort())
      relocate_with_chain(incumbent, out, depth - 1);
  return true;
}

// Tries forcing each bid of `job` (which has none) in; stops at the first that re-places
// every job it displaced (no loss), otherwise keeps the most profitable one, if any beats
// leaving `job` out.
void LocalSearch::relocate_with_chain(Incumbent& incumbent, std::int32_t job, int depth) {
  const std::size_t mark = journal_.size();
  const double before = incumbent.objective;
  double best = before + kMinGain;
  std::int32_t best_bid = -1;
  for (std::int32_t k = job_value_begin_[job]; k < job_value_begin_[job + 1]; ++k) {
    if (budget_.spent() >= chain_effort_end_) break;
    const std::int32_t bid = job_bids_by_value_[k];
    const std::size_t locks = locked_jobs_.size();
    const bool forced = force_in(incumbent, bid, depth);
    const double reached = incumbent.objective;
    if (forced && reached >= before + problem_.value[bid] - kMinGain) return;  // lossless
    undo_to(incumbent, mark);
    unlock_to(locks);
    if (forced && reached > best) {
      best = reached;
      best_bid = bid;
    }
  }
  if (best_bid >= 0) force_in(incumbent, best_bid, depth);
}

bool LocalSearch::insert_with_chain(Incumbent& incumbent, std::int32_t bid, int depth) {
  const double before = incumbent.objective;
  journal_.clear();
  locked_jobs_.clear();
  ++chain_stamp_;
  chain_effort_end_ = budget_.spent() + kChainEffort;
  const bool forced = force_in(incumbent, bid, depth);
  chain_effort_end_ = INT64_MAX;
  if (forced) {
    std::vector<std::int32_t> freed;
    for (const auto& [job, previous] : journal_)
      if (previous >= 0) freed.push_back(previous);
    for (std::int32_t added : refill(incumbent, open_bids_near(incumbent, freed, {}, false)))
      journal_.emplace_back(problem_.job_of_bid[added], -1);
    if (incumbent.objective > before + kMinGain) return true;
  }
  undo_to(incumbent, 0);
  return false;
}

}  // namespace hs::solver
