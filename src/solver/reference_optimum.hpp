#pragma once
// A window's optimum from a solver other than the one being checked, for audits
// (bench_solver_audit, tests/solver/solver_audit_test.cpp): the exhaustive search on windows
// of at most 16 jobs, otherwise CBC when it proves its answer within its time limit.
#include <optional>

#include "solver/window_problem.hpp"

namespace hs::solver {

struct ReferenceOptimum {
  double value = 0.0;
  const char* solver = "";  // "exhaustive" or "cbc"
  double seconds = 0.0;     // the reference's wall time (CBC runs in a child process)
};

// Nothing when neither proves the window's optimum (or the build has no CBC).
std::optional<ReferenceOptimum> reference_optimum(const WindowProblem& problem, double cbc_limit_s);

}  // namespace hs::solver
