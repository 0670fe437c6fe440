#include "solver/ejection_walk.hpp"

#include <algorithm>
#include <limits>

namespace hs::solver {

namespace {

constexpr std::int32_t kMaxSteps = 1000;  // placements per walk
// A pooled job whose cheapest bid would eject more than this much weight is left out
// instead (in the walk that allows drops), if the target still outweighs all left out.
constexpr double kDropWeight = 1.5;
// Weight of ejecting a job: 1 + kMoveWeight per earlier move (spreads the ejections over
// many jobs instead of cycling among a few) + kValueWeight * its value / the target's.
constexpr double kMoveWeight = 0.2;
constexpr double kValueWeight = 0.3;
// A job just placed cannot be ejected for kTabuSteps + U{0..kTabuSpread - 1} steps.
constexpr std::int32_t kTabuSteps = 3;
constexpr std::int32_t kTabuSpread = 8;
constexpr double kTieNoise = 1e-3;     // seeded noise between equally weighted bids
constexpr double kValueTieBreak = 1e-7;  // then the more valuable bid
constexpr double kGain = 1e-9;           // an improvement must exceed this

}  // namespace

EjectionWalk::EjectionWalk(const CompactProblem& problem, Budget& budget, std::uint64_t seed)
    : problem_(problem),
      budget_(budget),
      rng_(seed),
      job_bids_begin_(problem.jobs + 1, 0),
      job_value_(problem.jobs, 0.0),
      value_weight_(problem.jobs, 0.0),
      occupants_(problem.nodes),
      moves_(problem.jobs, 0),
      tabu_until_(problem.jobs, 0),
      ejected_stamp_(problem.jobs, 0) {
  const CompactProblem& p = problem_;
  for (std::int32_t job = 0; job < p.jobs; ++job) {
    for (std::int32_t k = p.job_bid_begin[job]; k < p.job_bid_begin[job + 1]; ++k)
      if (p.usable[p.job_bids[k]]) job_bids_.push_back(p.job_bids[k]);
    auto first = job_bids_.begin() + job_bids_begin_[job];
    std::stable_sort(first, job_bids_.end(),
                     [&](std::int32_t a, std::int32_t b) { return p.value[a] > p.value[b]; });
    job_bids_begin_[job + 1] = static_cast<std::int32_t>(job_bids_.size());
    if (first != job_bids_.end()) job_value_[job] = p.value[*first];
  }
  budget_.effort() += p.bid_count() + sort_effort(job_bids_.size());
}

bool EjectionWalk::improve(Incumbent& best, const std::vector<std::int32_t>& targets,
                           std::int64_t effort_cap) {
  effort_cap_ = effort_cap;
  bool improved = false;
  for (std::int32_t target : targets) {
    if (out_of_effort()) break;
    if (best.bid_of_job[target] >= 0 || job_bids_begin_[target] == job_bids_begin_[target + 1])
      continue;
    if (walk(best, target, false) || walk(best, target, true)) {
      adopt(best);
      improved = true;
    }
  }
  return improved;
}

bool EjectionWalk::walk(const Incumbent& start, std::int32_t target, bool allow_drops) {
  begin_walk(start, target);
  double dropped_value = 0.0;  // of jobs left out by choice (walks that allow drops)
  for (step_ = 0; step_ < kMaxSteps && !pool_.empty() && !out_of_effort(); ++step_) {
    const std::int32_t job = pop_most_valuable();
    const bool may_drop = allow_drops && job != target &&
                          dropped_value + job_value_[job] < job_value_[target];
    if (!place_pooled(job, may_drop) && may_drop) dropped_value += job_value_[job];
    if (objective_ > best_objective_ + kGain) {
      best_objective_ = objective_;
      best_bid_of_job_ = bid_of_job_;
    }
  }
  return best_objective_ > start.objective + kGain;
}

void EjectionWalk::begin_walk(const Incumbent& start, std::int32_t target) {
  load(start);
  const double target_value = job_value_[target];
  for (std::int32_t job = 0; job < problem_.jobs; ++job)
    value_weight_[job] = kValueWeight * job_value_[job] / target_value;
  budget_.effort() += problem_.jobs;
  best_objective_ = start.objective;
  pool_.assign(1, target);
}

// Places `job` at its lightest bid, pooling the jobs it ejects; false when the job stays
// out (no bid possible, or `may_drop` and the lightest bid weighs more than kDropWeight).
bool EjectionWalk::place_pooled(std::int32_t job, bool may_drop) {
  double cost = 0.0;
  std::int32_t bid = choose_bid(job, true, cost, ejected_);
  if (bid < 0) bid = choose_bid(job, false, cost, ejected_);  // aspiration: ignore tabu
  if (bid < 0 || (may_drop && cost > kDropWeight)) return false;
  for (std::int32_t other : ejected_) {
    remove(other);
    pool_.push_back(other);
  }
  place(job, bid);
  ++moves_[job];
  tabu_until_[job] = step_ + kTabuSteps +
                     static_cast<std::int32_t>(rng_.uniform_int(0, kTabuSpread - 1));
  return true;
}

void EjectionWalk::load(const Incumbent& start) {
  const CompactProblem& p = problem_;
  bid_of_job_.assign(p.jobs, -1);
  remaining_ = p.capacity;
  for (auto& on_node : occupants_) on_node.clear();
  std::fill(moves_.begin(), moves_.end(), 0);
  std::fill(tabu_until_.begin(), tabu_until_.end(), 0);
  objective_ = 0.0;
  for (std::int32_t job = 0; job < p.jobs; ++job)
    if (start.bid_of_job[job] >= 0) place(job, start.bid_of_job[job]);
  budget_.effort() += p.jobs + p.charged_nodes;
}

std::int32_t EjectionWalk::pop_most_valuable() {
  std::size_t pick = 0;
  for (std::size_t k = 1; k < pool_.size(); ++k)
    if (job_value_[pool_[k]] > job_value_[pool_[pick]]) pick = k;
  const std::int32_t job = pool_[pick];
  pool_.erase(pool_.begin() + static_cast<std::ptrdiff_t>(pick));
  budget_.effort() += static_cast<std::int64_t>(pool_.size()) + 1;
  return job;
}

std::int32_t EjectionWalk::choose_bid(std::int32_t job, bool respect_tabu, double& cost,
                                      std::vector<std::int32_t>& ejected) {
  std::int32_t chosen = -1;
  double chosen_cost = std::numeric_limits<double>::infinity();
  std::vector<std::int32_t> trial;
  for (std::int32_t k = job_bids_begin_[job]; k < job_bids_begin_[job + 1]; ++k) {
    const std::int32_t bid = job_bids_[k];
    // Costs below the best so far plus the noise can still win; others stop early.
    double c = ejection_cost(bid, respect_tabu, chosen_cost + kTieNoise, trial);
    if (c < 0.0) continue;
    c += kTieNoise * rng_.uniform01() - kValueTieBreak * problem_.value[bid];
    if (c < chosen_cost) {
      chosen_cost = c;
      chosen = bid;
      ejected = trial;
    }
  }
  cost = chosen_cost;
  return chosen;
}

double EjectionWalk::ejection_cost(std::int32_t bid, bool respect_tabu, double cost_limit,
                                   std::vector<std::int32_t>& ejected) {
  const CompactProblem& p = problem_;
  ejected.clear();
  ++stamp_;
  double cost = 0.0;
  bool possible = true;
  for (std::int32_t u = p.use_begin[bid]; u < p.use_begin[bid + 1] && possible; ++u) {
    const std::int32_t node = p.use_node[u];
    while (!fits_at(u)) {
      std::int32_t pick = -1;
      double pick_weight = std::numeric_limits<double>::infinity();
      for (std::int32_t other : occupants_[node]) {
        if (ejected_stamp_[other] == stamp_) continue;
        if (respect_tabu && tabu_until_[other] > step_) continue;
        const double w = weight(other);
        if (w < pick_weight) {
          pick_weight = w;
          pick = other;
        }
      }
      budget_.effort() += static_cast<std::int64_t>(occupants_[node].size()) + 1;
      if (pick < 0 || cost + pick_weight >= cost_limit) {
        possible = false;
        break;
      }
      ejected_stamp_[pick] = stamp_;
      ejected.push_back(pick);
      change_load(bid_of_job_[pick], +1);  // as if ejected
      cost += pick_weight;
    }
  }
  for (std::int32_t other : ejected) change_load(bid_of_job_[other], -1);
  budget_.effort() += p.use_count(bid) + 1;
  return possible ? cost : -1.0;
}

double EjectionWalk::weight(std::int32_t job) const {
  return 1.0 + kMoveWeight * moves_[job] + value_weight_[job];
}

bool EjectionWalk::fits_at(std::int32_t use) const {
  const CompactProblem& p = problem_;
  const std::int32_t* need = &p.use_amount[static_cast<std::size_t>(use) * p.dims];
  const std::int32_t* left = &remaining_[static_cast<std::size_t>(p.use_node[use]) * p.dims];
  for (std::int32_t d = 0; d < p.dims; ++d)
    if (need[d] > left[d]) return false;
  return true;
}

void EjectionWalk::place(std::int32_t job, std::int32_t bid) {
  const CompactProblem& p = problem_;
  bid_of_job_[job] = bid;
  change_load(bid, -1);
  for (std::int32_t u = p.use_begin[bid]; u < p.use_begin[bid + 1]; ++u)
    occupants_[p.use_node[u]].push_back(job);
  objective_ += p.value[bid];
}

void EjectionWalk::remove(std::int32_t job) {
  const CompactProblem& p = problem_;
  const std::int32_t bid = bid_of_job_[job];
  change_load(bid, +1);
  for (std::int32_t u = p.use_begin[bid]; u < p.use_begin[bid + 1]; ++u) {
    auto& on_node = occupants_[p.use_node[u]];
    on_node.erase(std::find(on_node.begin(), on_node.end(), job));
  }
  objective_ -= p.value[bid];
  bid_of_job_[job] = -1;
}

// sign -1 takes the bid's amounts from the remaining capacity, +1 gives them back.
void EjectionWalk::change_load(std::int32_t bid, std::int32_t sign) {
  const CompactProblem& p = problem_;
  for (std::int32_t u = p.use_begin[bid]; u < p.use_begin[bid + 1]; ++u)
    for (std::int32_t d = 0; d < p.dims; ++d)
      remaining_[static_cast<std::size_t>(p.use_node[u]) * p.dims + d] +=
          sign * p.use_amount[static_cast<std::size_t>(u) * p.dims + d];
  budget_.effort() += p.use_count(bid) + 1;
}

// Moves `best` to the best state of the last walk through its ledger.
void EjectionWalk::adopt(Incumbent& best) const {
  const CompactProblem& p = problem_;
  for (std::int32_t job = 0; job < p.jobs; ++job)
    if (best.bid_of_job[job] >= 0 && best.bid_of_job[job] != best_bid_of_job_[job])
      best.ledger.release(best.bid_of_job[job]);
  for (std::int32_t job = 0; job < p.jobs; ++job) {
    if (best_bid_of_job_[job] >= 0 && best.bid_of_job[job] != best_bid_of_job_[job])
      best.ledger.take(best_bid_of_job_[job]);
    best.bid_of_job[job] = best_bid_of_job_[job];
  }
  best.objective = objective_of(p, best.bid_of_job);
}

}  // namespace hs::solver
