#include "solver/reference_optimum.hpp"

#include "solver/mip_model.hpp"
#include "solver/solvers.hpp"

namespace hs::solver {

std::optional<ReferenceOptimum> reference_optimum(const WindowProblem& problem, double cbc_limit_s) {
  if (problem.job_count <= 16) {
    const SolveResult r = make_window_solver("exhaustive")->solve(problem, {});
    if (r.call == CallStatus::Ok && r.status == SolveStatus::Optimal)
      return ReferenceOptimum{r.solution.objective, "exhaustive", r.seconds};
  }
  if (!cbc_available()) return std::nullopt;
  SolverOptions options;
  options.time_limit_s = cbc_limit_s;
  const SolveResult r = make_window_solver("cbc")->solve(problem, options);
  if (r.call != CallStatus::Ok || r.status != SolveStatus::Optimal) return std::nullopt;
  return ReferenceOptimum{r.solution.objective, "cbc", r.seconds};
}

}  // namespace hs::solver
