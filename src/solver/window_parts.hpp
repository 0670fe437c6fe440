#pragma once
// Independent parts of a window. Two jobs compete only through a node that usable bids of
// both take something of; the jobs linked that way, directly or through others, form a part,
// and no choice in one part constrains another. Each part can then be solved on its own, its
// own small windows enumerated or proven, and the answers and bounds add up
// (docs/solver.md, "Independent parts").
#include <cstdint>
#include <functional>
#include <vector>

#include "solver/window_problem.hpp"

namespace hs::solver {

struct WindowPart {
  WindowProblem problem;              // the part's jobs, nodes and usable bids, renumbered
  std::vector<std::int32_t> job_of;   // part job -> window job
  std::vector<std::int32_t> bid_of;   // part bid -> window bid
};

// The parts of a well-formed problem (find_problem_defect) with two jobs or more, then one
// part gathering the jobs that compete with no other. Empty when fewer than two parts have two
// jobs or more: such a window has nothing to split and is solved whole. Bids that cannot fit
// the empty cluster and uses that take nothing are left out (they constrain nothing).
std::vector<WindowPart> independent_parts(const WindowProblem& problem);

using PartSolver = std::function<SolveResult(const WindowProblem&, const SolverOptions&)>;

// Effort at most a part gets to prove itself optimal on its own (solve_by_parts): about a
// millisecond of the default solver, which proves small parts and costs a large one little.
constexpr std::int64_t kPartProbeEffort = 250'000;

// The most effort a part's probe may take (kPartProbeEffort unless the caller says more).
using ProbeCap = std::function<std::int64_t(const WindowProblem&)>;

// Solves the parts with `solve_part` and joins the answers. From the fewest bids up, each part
// first gets a probe (its bids' share of the effort left, at most `probe_cap`); a part the
// probe proves optimal is settled. The parts not proven are then solved together, whole
// (split_parts off), with all the effort left, their probes' answers and bounds kept where
// better. The whole keeps `effort_limit`; the joined answer is checked against `problem` and
// its bound is the sum of the parts' bounds.
SolveResult solve_by_parts(const WindowProblem& problem, const std::vector<WindowPart>& parts,
                           const SolverOptions& options, std::int64_t effort_limit,
                           const PartSolver& solve_part, const ProbeCap& probe_cap = {});

}  // namespace hs::solver
