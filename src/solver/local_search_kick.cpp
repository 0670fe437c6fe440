// Iterated local search: perturbation ("kick") plus re-improvement, keeping the best.
#include <algorithm>
#include <utility>

#include "solver/local_search.hpp"

namespace hs::solver {

namespace {
constexpr double kOrderNoise = 0.3;  // relative perturbation of values in the refill order
constexpr int kKickChainDepth = 2;
constexpr std::int64_t kKickChainEffort = 20'000;
}  // namespace

// Forces a random bid of a random job that does not start in (ejection chain), whatever
// the value change.
void LocalSearch::force_kick(Incumbent& incumbent, Rng& rng) {
  std::vector<std::int32_t> waiting;
  for (std::int32_t job = 0; job < problem_.jobs; ++job)
    if (incumbent.bid_of_job[job] < 0 && job_value_begin_[job + 1] > job_value_begin_[job])
      waiting.push_back(job);
  if (waiting.empty()) return;
  const std::int32_t job = waiting[rng.uniform_int(0, static_cast<std::int64_t>(waiting.size()) - 1)];
  const std::int32_t bid =
      job_bids_by_value_[rng.uniform_int(job_value_begin_[job], job_value_begin_[job + 1] - 1)];
  journal_.clear();
  locked_jobs_.clear();
  ++chain_stamp_;
  chain_effort_end_ = budget_.spent() + kKickChainEffort;
  if (!force_in(incumbent, bid, kKickChainDepth)) undo_to(incumbent, 0);
  chain_effort_end_ = INT64_MAX;
}

void LocalSearch::kick(Incumbent& incumbent, Rng& rng) {
  std::vector<std::int32_t> started;
  for (std::int32_t job = 0; job < problem_.jobs; ++job)
    if (incumbent.bid_of_job[job] >= 0) started.push_back(job);
  if (started.empty()) return;
  const std::int32_t centre =
      incumbent.bid_of_job[started[rng.uniform_int(0, static_cast<std::int64_t>(started.size()) - 1)]];
  std::vector<std::int32_t> freed = winning_bids_sharing_nodes(incumbent, centre);
  for (std::int32_t bid : freed) unassign(incumbent, problem_.job_of_bid[bid]);
  std::vector<std::int32_t> candidates = open_bids_near(incumbent, freed, {}, false);
  std::vector<double> noisy(candidates.size());
  for (std::size_t i = 0; i < candidates.size(); ++i)
    noisy[i] = problem_.value[candidates[i]] * (1.0 + kOrderNoise * rng.uniform01());
  std::vector<std::size_t> order(candidates.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&noisy](std::size_t a, std::size_t b) {
    return noisy[a] > noisy[b] || (noisy[a] == noisy[b] && a < b);
  });
  checkpoint(sort_effort(order.size()));
  budget_.effort() += sort_effort(order.size());
  std::vector<std::int32_t> shuffled;
  for (std::size_t i : order) shuffled.push_back(candidates[i]);
  refill(incumbent, shuffled);
}

void LocalSearch::iterate_with_kicks(Incumbent& best, std::uint64_t seed, std::int64_t effort_cap) {
  Rng rng(seed);
  Incumbent trial = best;  // storage reused by every kick's copy
  effort_cap_ = effort_cap;
  while (!out_of_effort()) {
    trial = best;
    try {
      checkpoint(problem_.charged_rows() + problem_.jobs);
      budget_.effort() += problem_.charged_rows() + problem_.jobs;
      if (rng.bernoulli(0.5)) kick(trial, rng);
      else force_kick(trial, rng);
    } catch (const LimitReached&) {
      chain_effort_end_ = INT64_MAX;
      return;  // the kick was cut short: its copy is dropped
    }
    improve(trial, effort_cap);
    if (trial.objective > best.objective) std::swap(best, trial);
  }
}

}  // namespace hs::solver
