// Every solver's claims against a reference optimum on windows of many shapes (1-4
// dimensions, scattered nodes, uneven amounts, ties, duplicates, values up to 10^12): the
// answer checks, is not above the optimum, the bound is not below it, and nothing is called
// optimal that is not. bench_solver_audit runs the same audit on more and larger windows.
#include <gtest/gtest.h>

#include <optional>

#include "solver/mip_model.hpp"
#include "solver/reference_optimum.hpp"
#include "solver/solvers.hpp"
#include "solver/varied_windows.hpp"
#include "solver/window_lp.hpp"

namespace hs::solver {
namespace {

// The optimum by exhaustive search (at most 16 jobs) or by CBC; false when neither proves it.
bool proven_optimum(const WindowProblem& p, double& optimum) {
  const std::optional<ReferenceOptimum> reference = solver::reference_optimum(p, 20.0);
  optimum = reference ? reference->value : 0.0;
  return reference.has_value();
}

TEST(SolverAudit, NoSolverClaimsMoreThanItHasOnWindowsOfManyShapes) {
  SolverOptions replay;
  replay.enumerate_bids = kDefaultEnumerateBids;
  SolverOptions with_lp_bound = replay;
  with_lp_bound.lp_bound = true;
  SolverOptions whole;
  whole.split_parts = false;
  SolverOptions small_limit;
  small_limit.effort_limit = 20'000;
  struct Run {
    const char* solver;
    SolverOptions options;
  };
  std::vector<Run> runs = {{"lagrangian", replay}, {"lagrangian", with_lp_bound}, {"lagrangian", whole},
                           {"lagrangian", small_limit}, {"greedy", {}}};
  if (clp_available()) {
    runs.push_back({"exact", {}});
    runs.push_back({"exact", small_limit});
  }
  int audited = 0, at_optimum = 0;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    const WindowProblem p = make_varied_window(seed, VariedWindowSize::Small);
    double optimum = 0.0;
    if (!proven_optimum(p, optimum)) continue;
    ++audited;
    for (const Run& run : runs) {
      const SolveResult r = make_window_solver(run.solver)->solve(p, run.options);
      EXPECT_FALSE(check_claims(p, r, optimum)) << "seed " << seed << ", " << run.solver << ": "
                                                 << check_claims(p, r, optimum).value_or("");
      at_optimum += r.solution.objective >= optimum - 1e-9 * (std::abs(optimum) + 1.0);
    }
  }
  EXPECT_GE(audited, cbc_available() ? 195 : 100);
  // Not a claim the audit checks, but a change that lost most optima would show here first.
  EXPECT_GE(at_optimum, audited * static_cast<int>(runs.size()) * 8 / 10);
}

// The audit itself finds a false claim: a bound below the optimum, an answer called optimal
// below it, an answer above it.
TEST(SolverAudit, CheckClaimsFindsAFalseBoundAndAFalseProof) {
  const WindowProblem p = make_varied_window(3, VariedWindowSize::Small);
  double optimum = 0.0;
  ASSERT_TRUE(proven_optimum(p, optimum));
  ASSERT_GT(optimum, 0.0);
  SolveResult r = make_window_solver("lagrangian")->solve(p, {});
  ASSERT_FALSE(check_claims(p, r, optimum));
  SolveResult low_bound = r;
  low_bound.bound = optimum * 0.5 - 1.0;
  EXPECT_TRUE(check_claims(p, low_bound, optimum));
  SolveResult false_proof = r;
  false_proof.solution = WindowSolution{std::vector<std::int32_t>(p.job_count, -1), 0.0};
  false_proof.status = SolveStatus::Optimal;
  EXPECT_TRUE(check_claims(p, false_proof, optimum));
  EXPECT_TRUE(check_claims(p, r, optimum * 0.5));  // an answer above the "optimum"
}

}  // namespace
}  // namespace hs::solver
