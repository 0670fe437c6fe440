#pragma once
// The specialised (non-MIP) window solvers. See docs/solver.md for the algorithms.
#include <cstdint>

#include "solver/window_problem.hpp"

namespace hs::solver {

// Lagrangian relaxation of the capacity rows with subgradient multiplier updates and a
// guided greedy repair at every iteration; then local search (re-bid, drop-and-refill,
// swap, ejection chains), a Lagrangian branch and bound that proves small windows optimal,
// and iterated local search with the remaining effort. Effort units are node uses visited
// (about 3 ns each on the benchmark machine); the default meets the latency target on the
// largest benchmark window (docs/solver.md).
class LagrangianSolver : public WindowSolver {
 public:
  static constexpr std::int64_t kDefaultEffort = 12'000'000;
  std::string name() const override { return "lagrangian"; }
  SolveResult solve(const WindowProblem& problem, const SolverOptions& options) override;
};

// One greedy pass by value over share of the cluster; bound = sum of best bid values.
class GreedySolver : public WindowSolver {
 public:
  std::string name() const override { return "greedy"; }
  SolveResult solve(const WindowProblem& problem, const SolverOptions& options) override;
};

// Depth-first branch and bound over jobs; exact, for tiny instances (tests).
class ExhaustiveSolver : public WindowSolver {
 public:
  static constexpr std::int32_t kMaxJobs = 24;
  static constexpr std::int64_t kDefaultEffort = 2'000'000'000;
  std::string name() const override { return "exhaustive"; }
  SolveResult solve(const WindowProblem& problem, const SolverOptions& options) override;
};

// Exact for small windows (COIN-OR CLP builds only): the default solver's answer (with an
// effort in proportion to the bids) seeds the incumbent, then a branch and bound over the LP
// relaxation with root cuts (lp_branch_and_bound.hpp). A given effort limit is a hard cap on
// the whole solve (seed, tree and the default solver's second run); without one the tree
// gets kDefaultEffort. Optimal when the tree closes; otherwise the best found, with the
// tightest bound known, never worse than the default solver's at its full effort unless a
// limit below the default solve's needs left no room for its second run.
class ExactSolver : public WindowSolver {
 public:
  static constexpr std::int64_t kDefaultEffort = 20'000'000;  // the tree's share
  // The seed's effort on this window: 8,000 units a bid, at most the default solver's own.
  static std::int64_t seed_effort(const WindowProblem& problem);
  std::string name() const override { return "exact"; }
  SolveResult solve(const WindowProblem& problem, const SolverOptions& options) override;
};

}  // namespace hs::solver
