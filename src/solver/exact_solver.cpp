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
// does not close, the default solver runs again at its full effort, so the answer is never
// worse than the default's.
constexpr std::int64_t kSeedEffortPerBid = 8'000;

std::int64_t seed_effort(const WindowProblem& problem) {
  const auto bids = static_cast<std::int64_t>(problem.bids.size());
  return std::min(LagrangianSolver::kDefaultEffort, std::max<std::int64_t>(1, bids) * kSeedEffortPerBid);
}

SolveResult run_default(const WindowProblem& problem, const SolverOptions& options,
                        std::int64_t effort_limit) {
  SolverOptions o = options;
  o.effort_limit = effort_limit;
  o.exact_bids = 0;
  o.lp_bound = false;  // the tree bounds by its own LP
  return LagrangianSolver().solve(problem, o);
}

// The default solver at its full effort, after a seed with less (`seed_cap`) and a tree that
// did not close; under a wall-clock cap only with time left. Nothing when it does not run.
std::optional<SolveResult> full_default_after(const WindowProblem& problem, const SolverOptions& options,
                                              std::int64_t seed_cap, const SolveResult& seed,
                                              const Budget& tree_budget) {
  if (seed_cap >= LagrangianSolver::kDefaultEffort) return std::nullopt;
  SolverOptions o = options;
  if (options.time_limit_s > 0) {
    o.time_limit_s = options.time_limit_s - seed.seconds - tree_budget.elapsed_s();
    if (o.time_limit_s <= 0) return std::nullopt;
  }
  SolveResult full = run_default(problem, o, 0);
  if (full.call != CallStatus::Ok) return std::nullopt;
  return full;
}

}  // namespace

SolveResult ExactSolver::solve(const WindowProblem& problem, const SolverOptions& options) {
  if (auto defect = find_problem_defect(problem)) return defect_result(*defect);
  const std::int64_t seed_cap = seed_effort(problem);
  const SolveResult seed = run_default(problem, options, seed_cap);
  if (seed.call != CallStatus::Ok || seed.status == SolveStatus::Optimal) return seed;
  const CompactProblem p = compact_used_nodes(problem);
  // A wall-clock cap covers the seed and the tree together (a cap already spent leaves the
  // tree a moment, enough to stop at once).
  const double time_left =
      options.time_limit_s > 0 ? std::max(1e-9, options.time_limit_s - seed.seconds) : 0.0;
  Budget budget(options.effort_limit > 0 ? options.effort_limit : kDefaultEffort, time_left);
  std::vector<std::int32_t> best = seed.solution.bid_of_job;
  // Without the capacity rows a neighbouring node's row implies: the same LP, and on windows
  // captured from replays (bids spanning runs of equal nodes) 3–6 times fewer nonzeros, so
  // every solve, cut round and separation in the tree costs that much less.
  const LpSearchResult tree =
      lp_branch_and_bound(p, WindowLpOptions{.drop_dominated_rows = true}, budget, best);
  const std::optional<SolveResult> full =
      tree.complete ? std::nullopt : full_default_after(problem, options, seed_cap, seed, budget);
  if (full && full->solution.objective > objective_of(p, best)) best = full->solution.bid_of_job;
  const SolveResult& bounding = full && full->bound < seed.bound ? *full : seed;
  double bound = std::min(bounding.bound, tree.bound);
  SolveResult result = finish_result(problem, p, best, tree.complete ? objective_of(p, best) : bound,
                                     budget);
  result.bound_source = tree.complete               ? BoundSource::Search
                        : tree.bound < bounding.bound ? BoundSource::Lp
                                                      : bounding.bound_source;
  // The solve's effort includes the seed's and the second run's, its time the seed's (the
  // budget's clock ran through the tree and the second run).
  result.effort += seed.effort + (full ? full->effort : 0);
  result.seconds += seed.seconds;
  return result;
}

}  // namespace hs::solver
