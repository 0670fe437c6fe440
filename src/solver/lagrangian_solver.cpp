#include <algorithm>
#include <limits>
#include <utility>

#include "solver/bid_density.hpp"
#include "solver/ejection_walk.hpp"
#include "solver/enumeration_search.hpp"
#include "solver/incumbent.hpp"
#include "solver/lagrangian_branch_and_bound.hpp"
#include "solver/lagrangian_dual.hpp"
#include "solver/local_search.hpp"
#include "solver/neighbourhood_search.hpp"
#include "solver/specialised_solvers.hpp"
#include "solver/window_lp.hpp"
#include "solver/window_lp_bound.hpp"
#include "solver/window_parts.hpp"

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

// Upper bounds of the effort of the fixed steps (what their code charges, summed over the
// worst case), so that a step starts only when it cannot take the solve past the limit.
std::int64_t use_total(const CompactProblem& p) {
  return static_cast<std::int64_t>(p.use_node.size());
}

// LagrangianDual's constructor and the phase's closing job estimate.
std::int64_t dual_setup_cost(const CompactProblem& p) {
  return use_total(p) + p.charged_rows() + p.bid_count();
}

// One dual iteration: evaluate, repair keys, order, greedy insertion (a fit test and a take
// per bid), multiplier step; plus the phase's closing job estimate.
std::int64_t dual_iteration_cost(const CompactProblem& p) {
  return 4 * use_total(p) + 6 * static_cast<std::int64_t>(p.bid_count()) +
         sort_effort(static_cast<std::size_t>(p.bid_count())) +
         2 * p.charged_rows() + p.jobs;
}

std::int64_t usable_use_total(const CompactProblem& p) {
  std::int64_t uses = 0;
  for (std::int32_t b = 0; b < p.bid_count(); ++b)
    if (p.usable[b]) uses += p.use_count(b);
  return uses;
}

// LocalSearch's constructor (its node index over the usable bids' uses), exactly.
std::int64_t search_setup_cost(const CompactProblem& p) {
  return 2 * usable_use_total(p) + p.bid_count();
}

// price_bids, exactly.
std::int64_t pricing_cost(const CompactProblem& p) { return use_total(p) + p.bid_count(); }

// EjectionWalk's constructor and the ordering of its targets.
std::int64_t walk_setup_cost(const CompactProblem& p) {
  return p.bid_count() + sort_effort(static_cast<std::size_t>(p.bid_count())) +
         sort_effort(static_cast<std::size_t>(p.jobs)) + p.jobs + p.charged_nodes;
}

// What lagrangian_branch_and_bound charges beyond its cap: freeing every job's bid, the
// options, the last step (a fit test, a take, the releases of unwinding) and the adoption
// of the best choice found.
std::int64_t branch_and_bound_reserve(const CompactProblem& p) {
  std::int64_t largest = 0;
  for (std::int32_t b = 0; b < p.bid_count(); ++b)
    largest = std::max<std::int64_t>(largest, p.use_count(b) + 1);
  return 3 * (use_total(p) + p.jobs) + p.bid_count() / 8 + p.jobs + 2 * largest + 1;
}

// NeighbourhoodSearch's constructor (its node index and per-job orders).
std::int64_t neighbourhood_setup_cost(const CompactProblem& p) {
  return 2 * usable_use_total(p) + sort_effort(static_cast<std::size_t>(p.bid_count()));
}

struct DualPhaseResult {
  double bound = std::numeric_limits<double>::infinity();
  std::vector<double> lambda;    // multipliers of the best bound
  std::vector<double> mu;        // the same, per priced row (LagrangianDual::multipliers)
  std::vector<double> job_estimate;  // per job: how often it was in the relaxed choice lately
};

// Rotates three repair orders: reduced value; value over priced use; how often the bid
// was the relaxed choice lately (an LP-like primal estimate), ties by reduced value.
// Written into `keys`, whose storage is reused from one iteration to the next.
void repair_keys(const CompactProblem& p, const LagrangianDual& dual, int iteration,
                 Budget& budget, std::vector<double>& keys) {
  if (iteration % 3 == 0) {
    keys = dual.reduced();
    return;
  }
  if (iteration % 3 == 1) {
    density_keys(p, dual.lambda(), budget.effort(), keys);
    return;
  }
  keys = dual.average_choice();
  for (std::int32_t b = 0; b < p.bid_count(); ++b) keys[b] += 1e-9 * dual.reduced()[b];
  budget.effort() += p.bid_count();
}

// The last repair of one key kind: greedy insertion along an order is deterministic, so an
// order seen before gives the same incumbent and charges the same effort. That incumbent
// was no better than `best` then, and `best` only improves, so it cannot replace `best`:
// only its effort is charged again.
struct RepairMemo {
  std::vector<std::int32_t> order;
  std::int64_t effort = 0;
  bool known = false;

  bool repeats(const std::vector<std::int32_t>& next) const { return known && next == order; }
  void remember(const std::vector<std::int32_t>& next, std::int64_t charged) {
    order = next;
    effort = charged;
    known = true;
  }
};

// Greedy insertion along `order` into the emptied `trial`, unless `memo` knows the order.
void repair(const CompactProblem& p, const std::vector<std::int32_t>& order, RepairMemo& memo,
            Budget& budget, Incumbent& trial, Incumbent& best) {
  if (memo.repeats(order)) {
    budget.effort() += memo.effort;
    return;
  }
  const std::int64_t before = budget.spent();
  insert_in_order(p, order, trial);
  memo.remember(order, budget.spent() - before);
  if (trial.objective > best.objective) std::swap(best, trial);
}

// Subgradient iterations with a greedy repair after each; keeps the best repair. The
// repair's incumbent, keys and order are reused across iterations (emptied, not rebuilt),
// and the best bound's multipliers are kept as the (smaller) per-row snapshot.
DualPhaseResult run_dual_phase(const CompactProblem& p, Budget& budget, std::int64_t effort_cap,
                               Incumbent& best) {
  DualPhaseResult phase;
  LagrangianDual dual(p, budget.effort());
  double theta = kInitialTheta;
  int stall = 0;
  const std::int64_t iteration_cost = dual_iteration_cost(p);
  Incumbent trial(p, budget.effort());
  std::vector<double> keys, best_mu;
  DescendingOrder order;
  RepairMemo memo[3];  // per repair key kind (repair_keys rotates three)
  bool bound_found = false;
  // The phase's closing job estimate (a pass over the bids) must stay affordable too.
  for (int iteration = 0; budget.spent() < effort_cap && !budget.exhausted() &&
                          budget.affordable(iteration_cost + p.bid_count());
       ++iteration) {
    const double value = dual.evaluate();
    if (value < phase.bound - 1e-12) {
      phase.bound = value;
      best_mu = dual.multipliers();
      bound_found = true;
      stall = 0;
    } else if (++stall >= kStallIterations) {
      theta /= 2.0;
      stall = 0;
    }
    if (phase.bound - best.objective <= optimality_tolerance(phase.bound)) break;
    trial.clear();
    repair_keys(p, dual, iteration, budget, keys);
    repair(p, order.of(keys, budget.effort()), memo[iteration % 3], budget, trial, best);
    if (phase.bound - best.objective <= optimality_tolerance(phase.bound)) break;
    if (theta < kMinTheta || !dual.step(value - best.objective, theta)) break;
  }
  if (bound_found) {
    phase.lambda = dual.lambda_of(best_mu);
    phase.mu = best_mu;
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

// Small windows are enumerated before any Lagrangian work: on a few dozen bids the dual
// phase can spend thousands of steps closing a gap the enumeration closes in a few hundred
// nodes. Its effort counts against the limit; at most this many units.
constexpr std::int64_t kEnumerationEffort = 50'000;
// A part of a window solved by parts (window_parts.hpp) is enumerated only when its share of
// the effort is at least this: an enumeration that does not complete would otherwise take
// most of a small share and leave the search nothing.
constexpr std::int64_t kEnumerationRoom = 4 * kEnumerationEffort;

std::int32_t usable_bid_count(const CompactProblem& p) {
  std::int32_t usable = 0;
  for (std::int32_t b = 0; b < p.bid_count(); ++b) usable += p.usable[b] ? 1 : 0;
  return usable;
}

// Enumerates a window of at most `max_bids` usable bids, from the greedy start `best`; an
// improvement found is adopted even when the cap stops the enumeration. True when it
// completed: `best` is then optimal.
bool enumerate_small_window(const CompactProblem& p, std::int32_t max_bids, Budget& budget,
                            Incumbent& best) {
  if (max_bids <= 0 || usable_bid_count(p) > max_bids) return false;
  const std::int64_t cap = std::min(budget.limit(), budget.spent() + kEnumerationEffort);
  const EnumerationResult found =
      enumerate_choices(p, budget, cap, best.objective, optimality_tolerance(best.objective));
  if (found.improved)  // the enumeration charged these takes already
    best = incumbent_of(p, found.bid_of_job, budget.effort(), /*prepaid=*/true);
  return found.complete;
}

struct BoundSoFar {
  double value;
  BoundSource source;

  void tighten(double candidate, BoundSource candidate_source) {
    if (candidate >= value) return;
    value = candidate;
    source = candidate_source;
  }
};

constexpr int kRefineIterations = 300;
constexpr double kRefineTheta = 1.0;

// Bound-only subgradient steps from the dual phase's best multipliers (from zero when the
// dual phase did not run), aimed at the final objective. On large windows the dual phase
// stops (at half the effort) long before its bound settles, or cannot afford to start;
// these steps change nothing but the bound. Effort is charged to `effort`.
double refined_lagrangian_bound(const CompactProblem& p, const std::vector<double>& mu,
                                double target, double bound, std::int64_t& effort) {
  LagrangianDual dual(p, effort);
  if (!mu.empty()) dual.set_multipliers(mu);
  double theta = kRefineTheta;
  int stall = 0;
  for (int k = 0; k < kRefineIterations && theta >= kMinTheta; ++k) {
    const double value = dual.evaluate();
    if (value < bound - 1e-12) {
      bound = value;
      stall = 0;
    } else if (++stall >= kStallIterations) {
      theta /= 2.0;
      stall = 0;
    }
    if (!dual.step(value - target, theta)) break;
  }
  return bound;
}

LpBoundOptions lp_bound_options(const SolverOptions& options) {
  LpBoundOptions lp;
  if (options.lp_bound_iterations > 0) lp.max_iterations = options.lp_bound_iterations;
  return lp;
}

// The result for `best`. With options.lp_bound, more Lagrangian steps and the LP relaxation
// bound the window once the search is over, so the answer is the same with or without them;
// their work is reported in `effort` but is not part of the search's limit (their caps are
// the step count and the pivot limit).
SolveResult finish(const WindowProblem& problem, const CompactProblem& p, const Incumbent& best,
                   BoundSoFar bound, const std::vector<double>& dual_mu, const Budget& budget,
                   const SolverOptions& options) {
  std::int64_t bound_effort = 0;
  auto open = [&] { return bound.value - best.objective > optimality_tolerance(bound.value); };
  if (options.lp_bound && open())
    bound.tighten(refined_lagrangian_bound(p, dual_mu, best.objective, bound.value, bound_effort),
                  BoundSource::Lagrangian);
  if (options.lp_bound && open()) {
    const LpBound lp = window_lp_bound(p, lp_bound_options(options));
    bound_effort += lp.effort;
    bound.tighten(lp.bound, BoundSource::Lp);
  }
  SolveResult result = finish_result(problem, p, best.bid_of_job, bound.value, budget);
  result.bound_source = bound.source;
  result.effort += bound_effort;
  result.bound_effort = bound_effort;
  return result;
}

bool goes_to_exact(const WindowProblem& problem, const SolverOptions& options) {
  return options.exact_bids > 0 && problem.bids.size() <= static_cast<std::size_t>(options.exact_bids) &&
         clp_available();
}

// A part that goes to `exact` gets its seed's effort on top of the usual probe, so that the
// probe's tree has the usual room to prove it: the seed needs 8,000 units a bid.
std::int64_t part_probe_cap(const WindowProblem& part, const SolverOptions& options) {
  return kPartProbeEffort + (goes_to_exact(part, options) ? ExactSolver::seed_effort(part) : 0);
}

}  // namespace

// Every phase runs on the shares of `base` = min(limit, default), so a larger limit repeats
// the default solve step for step and gives only the iterated local search (which keeps its
// best) more effort: more effort is never worse than the default. The limit is a hard cap:
// steps whose cost is known in advance start only when affordable, and the searches whose
// moves are not (local search, kicks, re-packing, branch and bound) keep the most one of
// their steps can charge in hand (docs/solver.md).
SolveResult LagrangianSolver::solve(const WindowProblem& problem, const SolverOptions& options) {
  if (auto defect = find_problem_defect(problem)) return defect_result(*defect);
  const std::int64_t limit = options.effort_limit > 0 ? options.effort_limit : kDefaultEffort;
  // Parts first, so that each small part can go to `exact` on its own.
  if (const std::vector<WindowPart> parts = options.split_parts ? independent_parts(problem)
                                                                 : std::vector<WindowPart>{};
      !parts.empty())
    return solve_by_parts(
        problem, parts, options, limit,
        [this](const WindowProblem& part, SolverOptions part_options) {
          if (part_options.effort_limit < kEnumerationRoom) part_options.enumerate_bids = 0;
          return solve(part, part_options);
        },
        [&options](const WindowProblem& part) { return part_probe_cap(part, options); });
  if (goes_to_exact(problem, options)) {
    SolverOptions exact = options;  // the same effort limit caps the whole exact solve
    exact.exact_bids = 0;
    return ExactSolver().solve(problem, exact);
  }
  const std::int64_t base = std::min(limit, kDefaultEffort);
  Budget budget(limit, options.time_limit_s);
  const CompactProblem p = compact_used_nodes(problem);
  Incumbent best(p, budget.effort());
  insert_in_order_within(p, density_order_within(p, budget), best, budget);
  BoundSoFar bound{best_bid_bound(p), BoundSource::BestBids};
  auto open_gap = [&] { return bound.value - best.objective > optimality_tolerance(bound.value); };
  if (open_gap() && enumerate_small_window(p, options.enumerate_bids, budget, best))
    bound = {best.objective, BoundSource::Search};
  auto until = [base](double share) {
    return static_cast<std::int64_t>(share * static_cast<double>(base));
  };
  std::vector<double> dual_mu;  // the dual phase's best multipliers, once it has found some
  auto done = [&] { return finish(problem, p, best, bound, dual_mu, budget, options); };
  if (!open_gap() || !budget.affordable(dual_setup_cost(p))) return done();
  const DualPhaseResult dual = run_dual_phase(p, budget, until(kDualShare), best);
  bound.tighten(dual.bound, BoundSource::Lagrangian);
  if (options.lp_bound) dual_mu = dual.mu;
  if (!open_gap() || !budget.affordable(search_setup_cost(p))) return done();
  LocalSearch search(p, budget);
  search.set_hard_limit(base);  // every phase before the kicks ends within base
  search.improve(best, until(kLocalSearchShare));
  if (open_gap() && !dual.lambda.empty() && budget.affordable(pricing_cost(p))) {
    const PricedBids priced = price_bids(p, dual.lambda, budget.effort());
    const double share = p.jobs <= kSmallWindowJobs ? kSmallWindowBranchAndBoundShare
                                                    : kLargeWindowBranchAndBoundShare;
    const std::int64_t cap =
        std::min(budget.spent() + until(share), base - branch_and_bound_reserve(p));
    if (cap > budget.spent() && lagrangian_branch_and_bound(p, priced, all_jobs(p), budget, cap, best))
      bound = {best.objective, BoundSource::Search};  // the search completed: proven optimal
    if (open_gap() && budget.affordable(walk_setup_cost(p))) {
      EjectionWalk walk(p, budget, options.seed);
      if (walk.improve(best, walk_targets(best, dual, budget), until(kWalkShare)))
        search.improve(best, until(kWalkShare));
    }
    if (open_gap() && budget.affordable(neighbourhood_setup_cost(p))) {
      NeighbourhoodSearch neighbourhoods(p, priced.reduced, budget);
      if (neighbourhoods.improve(best, base)) search.improve(best, base);
    }
  }
  if (open_gap()) {
    search.set_hard_limit(limit);
    search.iterate_with_kicks(best, options.seed, limit);
  }
  return done();
}

}  // namespace hs::solver
