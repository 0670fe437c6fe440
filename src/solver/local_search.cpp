#include "solver/local_search.hpp"

#include <algorithm>

namespace hs::solver {

namespace {
constexpr double kMinGain = 1e-9;
constexpr int kChainDepth = 3;

bool higher_value_first(const CompactProblem& p, std::int32_t a, std::int32_t b) {
  return p.value[a] > p.value[b] || (p.value[a] == p.value[b] && a < b);
}
}  // namespace

LocalSearch::LocalSearch(const CompactProblem& problem, Budget& budget)
    : problem_(problem), budget_(budget), seen_stamp_(problem.bid_count(), 0),
      locked_stamp_(problem.jobs, 0) {
  const CompactProblem& p = problem_;
  job_value_begin_.push_back(0);
  for (std::int32_t job = 0; job < p.jobs; ++job) {
    const auto first = job_bids_by_value_.size();
    for (std::int32_t k = p.job_bid_begin[job]; k < p.job_bid_begin[job + 1]; ++k)
      if (p.usable[p.job_bids[k]]) job_bids_by_value_.push_back(p.job_bids[k]);
    std::sort(job_bids_by_value_.begin() + first, job_bids_by_value_.end(),
              [&p](std::int32_t a, std::int32_t b) { return higher_value_first(p, a, b); });
    job_value_begin_.push_back(static_cast<std::int32_t>(job_bids_by_value_.size()));
  }
  node_bid_begin_.assign(p.nodes + 1, 0);
  for (std::int32_t b = 0; b < p.bid_count(); ++b)
    if (p.usable[b])
      for (std::int32_t u = p.use_begin[b]; u < p.use_begin[b + 1]; ++u)
        ++node_bid_begin_[p.use_node[u] + 1];
  for (std::int32_t n = 0; n < p.nodes; ++n) node_bid_begin_[n + 1] += node_bid_begin_[n];
  node_bids_.resize(node_bid_begin_[p.nodes]);
  std::vector<std::int32_t> fill(node_bid_begin_.begin(), node_bid_begin_.end() - 1);
  for (std::int32_t b = 0; b < p.bid_count(); ++b)
    if (p.usable[b])
      for (std::int32_t u = p.use_begin[b]; u < p.use_begin[b + 1]; ++u)
        node_bids_[fill[p.use_node[u]]++] = b;
  budget_.effort() += static_cast<std::int64_t>(node_bids_.size()) * 2 + p.bid_count();
  set_hard_limit(budget_.limit());
}

void LocalSearch::assign(Incumbent& incumbent, std::int32_t job, std::int32_t bid) {
  checkpoint(ledger_charge(bid));
  incumbent.ledger.take(bid);
  move_log_.emplace_back(job, incumbent.bid_of_job[job]);
  incumbent.bid_of_job[job] = bid;
  incumbent.objective += problem_.value[bid];
}

void LocalSearch::unassign(Incumbent& incumbent, std::int32_t job) {
  const std::int32_t bid = incumbent.bid_of_job[job];
  checkpoint(ledger_charge(bid));
  incumbent.ledger.release(bid);
  move_log_.emplace_back(job, bid);
  incumbent.bid_of_job[job] = -1;
  incumbent.objective -= problem_.value[bid];
}

// Back to where the interrupted move started, without charges.
void LocalSearch::roll_back_move(Incumbent& incumbent) {
  for (auto it = move_log_.rbegin(); it != move_log_.rend(); ++it) {
    const auto [job, previous] = *it;
    const std::int32_t current = incumbent.bid_of_job[job];
    if (current >= 0) {
      incumbent.ledger.give_back(current);
      incumbent.objective -= problem_.value[current];
    }
    if (previous >= 0) {
      incumbent.ledger.take_prepaid(previous);
      incumbent.objective += problem_.value[previous];
    }
    incumbent.bid_of_job[job] = previous;
  }
  move_log_.clear();
  chain_effort_end_ = INT64_MAX;
}

double LocalSearch::current_value(const Incumbent& incumbent, std::int32_t job) const {
  const std::int32_t bid = incumbent.bid_of_job[job];
  return bid >= 0 ? problem_.value[bid] : 0.0;
}

void LocalSearch::improve(Incumbent& incumbent, std::int64_t effort_cap) {
  effort_cap_ = effort_cap;
  try {
    while (!out_of_effort() && improvement_round(incumbent)) {
    }
  } catch (const LimitReached&) {
    roll_back_move(incumbent);
  }
}

// Cheap moves first; the costlier ones only when the cheaper found nothing.
bool LocalSearch::improvement_round(Incumbent& incumbent) {
  bool improved = false;
  {
    for (std::int32_t job = 0; job < problem_.jobs && !out_of_effort(); ++job) {
      begin_move();
      improved |= rebid_job(incumbent, job);
    }
    for (std::int32_t job = 0; job < problem_.jobs && !out_of_effort(); ++job) {
      begin_move();
      if (incumbent.bid_of_job[job] >= 0) improved |= drop_and_refill(incumbent, job);
    }
    if (improved) return true;
    for (std::int32_t job = 0; job < problem_.jobs && !out_of_effort(); ++job) {
      begin_move();
      if (incumbent.bid_of_job[job] >= 0) improved |= swap_in(incumbent, job);
    }
    if (improved) return true;
    for (std::int32_t job = 0; job < problem_.jobs && !out_of_effort(); ++job)
      for (std::int32_t k = job_value_begin_[job]; k < job_value_begin_[job + 1]; ++k)
        if (incumbent.bid_of_job[job] < 0 && !out_of_effort()) {
          begin_move();
          improved |= insert_with_ejection(incumbent, job_bids_by_value_[k]);
        }
    if (improved) return true;
    for (std::int32_t job = 0; job < problem_.jobs && !out_of_effort(); ++job)
      for (std::int32_t k = job_value_begin_[job]; k < job_value_begin_[job + 1]; ++k)
        if (!out_of_effort() && problem_.value[job_bids_by_value_[k]] > current_value(incumbent, job)) {
          begin_move();
          improved |= insert_with_chain(incumbent, job_bids_by_value_[k], kChainDepth);
        }
  }
  return improved;
}

bool LocalSearch::rebid_job(Incumbent& incumbent, std::int32_t job) {
  const std::int32_t current = incumbent.bid_of_job[job];
  const double worth = current >= 0 ? problem_.value[current] : 0.0;
  if (current >= 0) unassign(incumbent, job);
  std::int32_t chosen = current;
  for (std::int32_t k = job_value_begin_[job]; k < job_value_begin_[job + 1]; ++k) {
    const std::int32_t bid = job_bids_by_value_[k];
    if (problem_.value[bid] <= worth + kMinGain) break;
    if (fits(incumbent, bid)) {
      chosen = bid;
      break;
    }
  }
  if (chosen >= 0) assign(incumbent, job, chosen);
  return chosen != current;
}

std::vector<std::int32_t> LocalSearch::open_bids_near(const Incumbent& incumbent,
                                                      const std::vector<std::int32_t>& freed,
                                                      const std::vector<std::int32_t>& movers,
                                                      bool exclude_freed) {
  ++stamp_;
  std::vector<std::int32_t> open;
  auto consider = [&](std::int32_t other) {
    if (seen_stamp_[other] == stamp_) return;
    seen_stamp_[other] = stamp_;
    if (incumbent.bid_of_job[problem_.job_of_bid[other]] < 0) open.push_back(other);
  };
  for (std::int32_t bid : freed) {
    if (exclude_freed) seen_stamp_[bid] = stamp_;
    for (std::int32_t u = problem_.use_begin[bid]; u < problem_.use_begin[bid + 1]; ++u) {
      const std::int32_t node = problem_.use_node[u];
      checkpoint(node_bid_begin_[node + 1] - node_bid_begin_[node]);
      budget_.effort() += node_bid_begin_[node + 1] - node_bid_begin_[node];
      for (std::int32_t k = node_bid_begin_[node]; k < node_bid_begin_[node + 1]; ++k)
        consider(node_bids_[k]);
    }
  }
  for (std::int32_t job : movers)
    for (std::int32_t k = job_value_begin_[job]; k < job_value_begin_[job + 1]; ++k)
      consider(job_bids_by_value_[k]);
  std::sort(open.begin(), open.end(), [this](std::int32_t a, std::int32_t b) {
    return higher_value_first(problem_, a, b);
  });
  checkpoint(sort_effort(open.size()));
  budget_.effort() += sort_effort(open.size());
  return open;
}

std::vector<std::int32_t> LocalSearch::refill(Incumbent& incumbent,
                                              const std::vector<std::int32_t>& candidates) {
  std::vector<std::int32_t> inserted;
  for (std::int32_t bid : candidates) {
    const std::int32_t owner = problem_.job_of_bid[bid];
    if (incumbent.bid_of_job[owner] >= 0 || !fits(incumbent, bid)) continue;
    assign(incumbent, owner, bid);
    inserted.push_back(bid);
  }
  return inserted;
}

std::vector<std::int32_t> LocalSearch::winning_bids_sharing_nodes(const Incumbent& incumbent,
                                                                 std::int32_t bid) {
  std::vector<std::int32_t> winners;
  ++stamp_;
  for (std::int32_t u = problem_.use_begin[bid]; u < problem_.use_begin[bid + 1]; ++u) {
    const std::int32_t node = problem_.use_node[u];
    checkpoint(node_bid_begin_[node + 1] - node_bid_begin_[node]);
    budget_.effort() += node_bid_begin_[node + 1] - node_bid_begin_[node];
    for (std::int32_t k = node_bid_begin_[node]; k < node_bid_begin_[node + 1]; ++k) {
      const std::int32_t other = node_bids_[k];
      if (seen_stamp_[other] == stamp_) continue;
      seen_stamp_[other] = stamp_;
      if (incumbent.bid_of_job[problem_.job_of_bid[other]] == other) winners.push_back(other);
    }
  }
  return winners;
}

bool LocalSearch::insert_with_ejection(Incumbent& incumbent, std::int32_t bid) {
  const double before = incumbent.objective;
  const std::int32_t job = problem_.job_of_bid[bid];
  std::vector<std::int32_t> ejected = winning_bids_sharing_nodes(incumbent, bid);
  for (std::int32_t out : ejected) unassign(incumbent, problem_.job_of_bid[out]);
  assign(incumbent, job, bid);
  std::vector<std::int32_t> movers;
  for (std::int32_t out : ejected) movers.push_back(problem_.job_of_bid[out]);
  ejected.push_back(bid);
  const std::vector<std::int32_t> inserted = refill(incumbent, open_bids_near(incumbent, ejected, movers, false));
  ejected.pop_back();
  if (incumbent.objective > before + kMinGain) return true;
  for (std::int32_t in : inserted) unassign(incumbent, problem_.job_of_bid[in]);
  unassign(incumbent, job);
  for (std::int32_t out : ejected) assign(incumbent, problem_.job_of_bid[out], out);
  return false;
}

bool LocalSearch::drop_and_refill(Incumbent& incumbent, std::int32_t job) {
  const std::int32_t dropped = incumbent.bid_of_job[job];
  const double before = incumbent.objective;
  unassign(incumbent, job);
  const std::vector<std::int32_t> inserted =
      refill(incumbent, open_bids_near(incumbent, {dropped}, {}, true));
  if (incumbent.objective > before + kMinGain) return true;
  for (std::int32_t bid : inserted) unassign(incumbent, problem_.job_of_bid[bid]);
  assign(incumbent, job, dropped);
  return false;
}

bool LocalSearch::swap_in(Incumbent& incumbent, std::int32_t job) {
  const std::int32_t dropped = incumbent.bid_of_job[job];
  const double before = incumbent.objective;
  unassign(incumbent, job);
  const std::vector<std::int32_t> candidates = open_bids_near(incumbent, {dropped}, {}, true);
  for (std::int32_t bid : candidates) {
    const std::int32_t owner = problem_.job_of_bid[bid];
    if (owner == job || out_of_effort()) continue;
    if (incumbent.bid_of_job[owner] >= 0 || !fits(incumbent, bid)) continue;
    assign(incumbent, owner, bid);
    rebid_job(incumbent, job);
    if (incumbent.objective > before + kMinGain) return true;
    if (incumbent.bid_of_job[job] >= 0) unassign(incumbent, job);
    unassign(incumbent, owner);
  }
  assign(incumbent, job, dropped);
  return false;
}

}  // namespace hs::solver
