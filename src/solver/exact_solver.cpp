#include <algorithm>
#include <optional>

#include "solver/incumbent.hpp"
#include "solver/lp_branch_and_bound.hpp"
#include "solver/specialised_solvers.hpp"

namespace hs::solver {

namespace {

// The seed's effort: the default solver's own default on windows of 1,500 bids or more,
// 8,000 units a bid below that. On windows of a few hundred bids the tree mostly proves the
// answer, and a seed of 12 M units was most of the solve's time (session 36). When the tree
// does not close, the default solver runs again at its full effort (when a limit leaves room:
// see EffortPlan), so the answer is never worse than the default's.
constexpr std::int64_t kSeedEffortPerBid = 8'000;


SolveResult run_default(const WindowProblem& problem, const SolverOptions& options,
                        std::int64_t effort_limit) {
  SolverOptions o = options;
  o.effort_limit = effort_limit;
  o.exact_bids = 0;
  o.lp_bound = false;  // the tree bounds by its own LP
  return LagrangianSolver().solve(problem, o);
}

// How the solve's effort is shared. Without a limit: the seed as above, the tree its own
// kDefaultEffort, and a second default run at its full effort after a tree that does not
// close (when the seed had less). With a limit L the three together stay within L: the seed
// gets min(its share, L); of what it leaves, the tree takes up to kDefaultEffort first, then
// the second run up to its full effort, and the tree all beyond that. So from L = seed +
// kDefaultEffort + 12 M on, the solve is the default one with a larger tree.
struct EffortPlan {
  std::int64_t seed = 0;
  std::int64_t tree = 0;
  std::int64_t second_run = 0;  // 0: no second run; else its effort limit
};

EffortPlan seed_plan(const WindowProblem& problem, std::int64_t limit) {
  const std::int64_t seed = ExactSolver::seed_effort(problem);
  return {.seed = limit > 0 ? std::min(seed, limit) : seed};
}

void plan_after_seed(EffortPlan& plan, std::int64_t limit, std::int64_t seed_spent) {
  constexpr std::int64_t kFull = LagrangianSolver::kDefaultEffort;
  const bool rerun = plan.seed < kFull;
  if (limit <= 0) {
    plan.tree = ExactSolver::kDefaultEffort;
    plan.second_run = rerun ? kFull : 0;
    return;
  }
  const std::int64_t left = std::max<std::int64_t>(0, limit - seed_spent);
  const std::int64_t second =
      rerun ? std::clamp<std::int64_t>(left - ExactSolver::kDefaultEffort, 0, kFull) : 0;
  // A second run no larger than the seed's would only repeat a weaker search.
  plan.second_run = second > plan.seed ? second : 0;
  plan.tree = left - plan.second_run;
}

// The default solver once more after a tree that did not close, at the plan's effort; under
// a wall-clock cap only with time left. Nothing when it does not run.
std::optional<SolveResult> second_default_run(const WindowProblem& problem, const SolverOptions& options,
                                              const EffortPlan& plan, const SolveResult& seed,
                                              const Budget& tree_budget) {
  if (plan.second_run <= 0) return std::nullopt;
  SolverOptions o = options;
  if (options.time_limit_s > 0) {
    o.time_limit_s = options.time_limit_s - seed.seconds - tree_budget.elapsed_s();
    if (o.time_limit_s <= 0) return std::nullopt;
  }
  SolveResult second = run_default(problem, o, plan.second_run);
  if (second.call != CallStatus::Ok) return std::nullopt;
  return second;
}

}  // namespace

std::int64_t ExactSolver::seed_effort(const WindowProblem& problem) {
  const auto bids = static_cast<std::int64_t>(problem.bids.size());
  return std::min(LagrangianSolver::kDefaultEffort, std::max<std::int64_t>(1, bids) * kSeedEffortPerBid);
}

SolveResult ExactSolver::solve(const WindowProblem& problem, const SolverOptions& options) {
  if (auto defect = find_problem_defect(problem)) return defect_result(*defect);
  EffortPlan plan = seed_plan(problem, options.effort_limit);
  const SolveResult seed = run_default(problem, options, plan.seed);
  if (seed.call != CallStatus::Ok || seed.status == SolveStatus::Optimal) return seed;
  const CompactProblem p = compact_used_nodes(problem);
  // A wall-clock cap covers the seed and the tree together (a cap already spent leaves the
  // tree a moment, enough to stop at once).
  const double time_left =
      options.time_limit_s > 0 ? std::max(1e-9, options.time_limit_s - seed.seconds) : 0.0;
  plan_after_seed(plan, options.effort_limit, seed.effort);
  Budget budget(plan.tree, time_left);
  std::vector<std::int32_t> best = seed.solution.bid_of_job;
  // Without the capacity rows a neighbouring node's row implies: the same LP, and on windows
  // captured from replays (bids spanning runs of equal nodes) 3–6 times fewer nonzeros, so
  // every solve, cut round and separation in the tree costs that much less. The steps before
  // the tree take their shares of the default tree budget whatever the limit, so a larger
  // limit repeats the default search and goes on from there.
  const LpSearchResult tree =
      lp_branch_and_bound(p, WindowLpOptions{.drop_dominated_rows = true}, budget, kDefaultEffort, best);
  const std::optional<SolveResult> second =
      tree.complete ? std::nullopt : second_default_run(problem, options, plan, seed, budget);
  if (second && second->solution.objective > objective_of(p, best)) best = second->solution.bid_of_job;
  const SolveResult& bounding = second && second->bound < seed.bound ? *second : seed;
  double bound = std::min(bounding.bound, tree.bound);
  SolveResult result = finish_result(problem, p, best, tree.complete ? objective_of(p, best) : bound,
                                     budget);
  result.bound_source = tree.complete               ? BoundSource::Search
                        : tree.bound < bounding.bound ? BoundSource::Lp
                                                      : bounding.bound_source;
  // The solve's effort includes the seed's and the second run's, its time the seed's (the
  // budget's clock ran through the tree and the second run).
  result.effort += seed.effort + (second ? second->effort : 0);
  result.seconds += seed.seconds;
  return result;
}

}  // namespace hs::solver
