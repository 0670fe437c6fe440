#include <algorithm>
#include <limits>

#include "solver/bid_density.hpp"
#include "solver/ejection_walk.hpp"
#include "solver/incumbent.hpp"
#include "solver/lagrangian_branch_and_bound.hpp"
#include "solver/lagrangian_dual.hpp"
#include "solver/local_search.hpp"
#include "solver/neighbourhood_search.hpp"
#include "solver/specialised_solvers.hpp"

namespace hs::solver {

namespace {

constexpr double kInitialTheta = 2.0;
constexpr double kMinTheta = 1e-3;
constexpr int kStallIterations = 6;     // halve theta after this many non-improving bounds
// Shares of the effort limit: the dual phase and the first local search stop at these
// totals; branch and bound may spend its share on top; the large-neighbourhood search may
// use the rest, and kicks whatever it leaves.
constexpr double kDualShare = 0.5;
constexpr double kLocalSearchShare = 0.6;
// The full branch and bound proves small windows optimal but never completes on large
// ones, where its effort is better spent on the large-neighbourhood search.
constexpr double kSmallWindowBranchAndBoundShare = 0.15;
constexpr double kLargeWindowBranchAndBoundShare = 0.05;
// The ejection walk stops at this total; the re-packing search and kicks share the rest.
constexpr double kWalkShare = 0.85;
constexpr std::int32_t kSmallWindowJobs = 64;  // large-neighbourhood search stops at this total

struct DualPhaseResult {
  double bound = std::numeric_limits<double>::infinity();
  std::vector<double> lambda;    // multipliers of the best bound
  std::vector<double> job_estimate;  // per job: how often it was in the relaxed choice lately
};

// Rotates three repair orders: reduced value; value over priced use; how often the bid
// was the relaxed choice lately (an LP-like primal estimate), ties by reduced value.
std::vector<double> repair_keys(const CompactProblem& p, const LagrangianDual& dual, int iteration,
                                Budget& budget) {
  if (iteration % 3 == 0) return dual.reduced();
  if (iteration % 3 == 1) return density_keys(p, dual.lambda(), budget.effort());
  std::vector<double> keys = dual.average_choice();
  for (std::int32_t b = 0; b < p.bid_count(); ++b) keys[b] += 1e-9 * dual.reduced()[b];
  budget.effort() += p.bid_count();
  return keys;
}

// Subgradient iterations with a greedy repair after each; keeps the best repair.
DualPhaseResult run_dual_phase(const CompactProblem& p, Budget& budget, std::int64_t effort_cap,
                               Incumbent& best) {
  DualPhaseResult phase;
  LagrangianDual dual(p, budget.effort());
  double theta = kInitialTheta;
  int stall = 0;
  for (int iteration = 0; budget.spent() < effort_cap && !budget.exhausted(); ++iteration) {
    const double value = dual.evaluate();
    if (value < phase.bound - 1e-12) {
      phase.bound = value;
      phase.lambda = dual.lambda();
      stall = 0;
    } else if (++stall >= kStallIterations) {
      theta /= 2.0;
      stall = 0;
    }
    if (phase.bound - best.objective <= optimality_tolerance(phase.bound)) break;
    Incumbent trial(p, budget.effort());
    insert_in_order(p, order_by_descending(repair_keys(p, dual, iteration, budget), budget.effort()),
                    trial);
    if (trial.objective > best.objective) best = std::move(trial);
    if (phase.bound - best.objective <= optimality_tolerance(phase.bound)) break;
    if (theta < kMinTheta || !dual.step(value - best.objective, theta)) break;
  }
  phase.job_estimate.assign(p.jobs, 0.0);
  for (std::int32_t b = 0; b < p.bid_count(); ++b)
    phase.job_estimate[p.job_of_bid[b]] += dual.average_choice()[b];
  budget.effort() += p.bid_count();
  return phase;
}

// Jobs that do not start, most often in the relaxed choice first (ties: lower index).
std::vector<std::int32_t> walk_targets(const Incumbent& best, const DualPhaseResult& dual,
                                       Budget& budget) {
  std::vector<std::int32_t> targets;
  for (std::int32_t j = 0; j < static_cast<std::int32_t>(best.bid_of_job.size()); ++j)
    if (best.bid_of_job[j] < 0) targets.push_back(j);
  std::stable_sort(targets.begin(), targets.end(), [&](std::int32_t a, std::int32_t b) {
    return dual.job_estimate[a] > dual.job_estimate[b];
  });
  budget.effort() += sort_effort(targets.size());
  return targets;
}

std::vector<std::int32_t> all_jobs(const CompactProblem& p) {
  std::vector<std::int32_t> jobs(p.jobs);
  for (std::int32_t j = 0; j < p.jobs; ++j) jobs[j] = j;
  return jobs;
}

}  // namespace

SolveResult LagrangianSolver::solve(const WindowProblem& problem, const SolverOptions& options) {
  if (auto defect = find_problem_defect(problem)) return defect_result(*defect);
  const std::int64_t limit = options.effort_limit > 0 ? options.effort_limit : kDefaultEffort;
  Budget budget(limit, options.time_limit_s);
  const CompactProblem p = compact(problem);
  Incumbent best(p, budget.effort());
  insert_in_order(p, order_by_descending(density_keys(p, {}, budget.effort()), budget.effort()),
                  best);
  double bound = best_bid_bound(p);
  auto open_gap = [&] { return bound - best.objective > optimality_tolerance(bound); };
  auto until = [limit](double share) {
    return static_cast<std::int64_t>(share * static_cast<double>(limit));
  };
  if (!open_gap()) return finish_result(problem, p, best.bid_of_job, bound, budget);
  const DualPhaseResult dual = run_dual_phase(p, budget, until(kDualShare), best);
  bound = std::min(bound, dual.bound);
  if (!open_gap()) return finish_result(problem, p, best.bid_of_job, bound, budget);
  LocalSearch search(p, budget);
  search.improve(best, until(kLocalSearchShare));
  if (open_gap() && !dual.lambda.empty()) {
    const PricedBids priced = price_bids(p, dual.lambda, budget.effort());
    const double share = p.jobs <= kSmallWindowJobs ? kSmallWindowBranchAndBoundShare
                                                    : kLargeWindowBranchAndBoundShare;
    const std::int64_t cap = std::min(limit, budget.spent() + until(share));
    if (lagrangian_branch_and_bound(p, priced, all_jobs(p), budget, cap, best))
      bound = best.objective;  // the search completed: proven optimal
    if (open_gap()) {
      EjectionWalk walk(p, budget, options.seed);
      if (walk.improve(best, walk_targets(best, dual, budget), until(kWalkShare)))
        search.improve(best, until(kWalkShare));
    }
    if (open_gap()) {
      NeighbourhoodSearch neighbourhoods(p, priced.reduced, budget);
      if (neighbourhoods.improve(best, limit)) search.improve(best, limit);
    }
  }
  if (open_gap()) search.iterate_with_kicks(best, options.seed, limit);
  return finish_result(problem, p, best.bid_of_job, bound, budget);
}

}  // namespace hs::solver
