#pragma once
// What `hetsched solve` found for one window file: printed for people, and written as JSON
// (--out) for programs. Both are deterministic (wall time is printed, never written).
#include <iosfwd>
#include <optional>
#include <string>

#include "solver/window_problem.hpp"
#include "window_file/window_file.hpp"

namespace hs::cli {

struct SolveReport {
  std::string window_path;
  std::string solver;
  std::int64_t effort_limit = 0;  // as passed (0 = the solver's default)
  std::int32_t exact_bids = 0;    // SolverOptions::exact_bids as passed (0 = off)
  solver::SolveResult result;
  bool has_solution = false;            // status optimal or feasible, call ok
  std::optional<std::string> defect;    // the independent check's finding, if any
  std::optional<window_file::ReplayRecord> replay;
};

// "reproduced", "differs", or why the replay's objective is not comparable ("" without one).
std::string replay_verdict(const SolveReport& report);

void print_solve_report(std::ostream& out, const window_file::WindowFile& file,
                        const SolveReport& report);
void write_solve_json(std::ostream& out, const window_file::WindowFile& file,
                      const SolveReport& report);

}  // namespace hs::cli
