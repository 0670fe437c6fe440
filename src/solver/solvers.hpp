#pragma once
// Window solvers by name. Policies ask for a solver here and see only WindowSolver.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "solver/window_problem.hpp"

namespace hs::solver {

// "lagrangian" (default), "greedy", "exhaustive" and, when built with CBC, "cbc".
// Throws hs::InputError naming the unknown solver and the known ones.
std::unique_ptr<WindowSolver> make_window_solver(std::string_view name);
std::vector<std::string> window_solver_names();
// One line on what the named solver does ("" for unknown names).
std::string_view window_solver_summary(std::string_view name);
// Whether the named solver counts deterministic effort units: all but "cbc", which only a
// time limit bounds. Callers reject an effort limit for one that does not, rather than let
// it be ignored.
bool counts_effort(std::string_view name);
inline constexpr std::string_view kDefaultWindowSolver = "lagrangian";

}  // namespace hs::solver
