#include "solver/solvers.hpp"

#include "solver/cbc_window_solver.hpp"
#include "solver/mip_model.hpp"
#include "solver/specialised_solvers.hpp"
#include "solver/value_scale.hpp"
#include "solver/window_lp.hpp"
#include "util/error.hpp"

namespace hs::solver {

std::vector<std::string> window_solver_names() {
  std::vector<std::string> names{"lagrangian", "greedy", "exhaustive"};
  if (clp_available()) names.push_back("exact");
  if (cbc_available()) names.push_back("cbc");
  return names;
}

std::string_view window_solver_summary(std::string_view name) {
  if (name == "lagrangian")
    return "default: Lagrangian bound, guided repair, local search, ejection walk, re-packing; "
           "deterministic effort limit";
  if (name == "greedy") return "one greedy pass by value over priced use (a baseline)";
  if (name == "exhaustive") return "exact depth-first branch and bound, windows of up to 24 jobs";
  if (name == "exact")
    return "exact for small windows: LP branch and bound (CLP) seeded by the default solver; "
           "an effort limit caps the whole solve";
  if (name == "cbc") return "COIN-OR CBC in a child process under a time limit (for checking)";
  return "";
}

bool counts_effort(std::string_view name) { return name != "cbc"; }

namespace {

std::unique_ptr<WindowSolver> make_unscaled_solver(std::string_view name) {
  if (name == "lagrangian") return std::make_unique<LagrangianSolver>();
  if (name == "greedy") return std::make_unique<GreedySolver>();
  if (name == "exhaustive") return std::make_unique<ExhaustiveSolver>();
  if (name == "exact" && clp_available()) return std::make_unique<ExactSolver>();
  if (name == "cbc" && cbc_available()) return std::make_unique<CbcWindowSolver>();
  return nullptr;
}

}  // namespace

std::unique_ptr<WindowSolver> make_window_solver(std::string_view name) {
  if (auto solver = make_unscaled_solver(name)) return with_value_scaling(std::move(solver));
  std::string known;
  for (const std::string& n : window_solver_names()) known += (known.empty() ? "" : ", ") + n;
  const std::string why = name == "cbc" ? "this build has no CBC backend; known solvers: "
                                        : "unknown window solver; known solvers: ";
  throw InputError({"<window solver>", 0}, "solver", std::string(name), why + known);
}

}  // namespace hs::solver
