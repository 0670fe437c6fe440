#pragma once
// The window problem through the generic MIP path and CBC (in a child process). Not
// deterministic under a time limit; meant for checking and benchmarking the specialised
// solvers. Default time limit 5 s (the documents' solver limit) when options give none.
#include "solver/window_problem.hpp"

namespace hs::solver {

class CbcWindowSolver : public WindowSolver {
 public:
  static constexpr double kDefaultTimeLimit = 5.0;
  std::string name() const override { return "cbc"; }
  SolveResult solve(const WindowProblem& problem, const SolverOptions& options) override;
};

}  // namespace hs::solver
