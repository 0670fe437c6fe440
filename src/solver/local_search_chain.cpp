// Ejection chains for LocalSearch: a bid is forced in by ejecting every started job on its
// nodes; each ejected job then takes its best bid that still fits or, while depth remains,
// forces one of its own bids in the same way if that beats leaving it out. All changes go
// through a journal so an unprofitable chain is undone exactly.
#include <algorithm>

#include "solver/local_search.hpp"

namespace hs::solver {

namespace {
constexpr double kMinGain = 1e-9;
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

bool LocalSearch::replace_simply(Incumbent& incumbent, std::int32_t job) {
  for (std::int32_t k = job_value_begin_[job]; k < job_value_begin_[job + 1]; ++k) {
    const std::int32_t bid = job_bids_by_value_[k];
    if (!incumbent.ledger.fits(bid)) continue;
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
  for (std::int32_t out : ejected) journal_unassign(incumbent, out);
  journal_assign(incumbent, job, bid);
  std::sort(ejected.begin(), ejected.end());  // re-place in job (priority) order
  for (std::int32_t out : ejected) {
    if (replace_simply(incumbent, out) || depth <= 0 || out_of_effort()) continue;
    for (std::int32_t k = job_value_begin_[out]; k < job_value_begin_[out + 1]; ++k) {
      const std::size_t mark = journal_.size();
      const double before = incumbent.objective;
      if (force_in(incumbent, job_bids_by_value_[k], depth - 1) &&
          incumbent.objective > before + kMinGain)
        break;
      undo_to(incumbent, mark);
    }
  }
  return true;
}

bool LocalSearch::insert_with_chain(Incumbent& incumbent, std::int32_t bid, int depth) {
  const double before = incumbent.objective;
  journal_.clear();
  ++chain_stamp_;
  if (force_in(incumbent, bid, depth)) {
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
