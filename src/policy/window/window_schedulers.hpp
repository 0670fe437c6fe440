#pragma once
// The window co-allocation schedulers of the documents: IPSCHED (thesis ch. 3), AUCSCHED1
// (ch. 4), AUCSCHED2 (ch. 5) and AUCSCHED3 (ch. 6). docs/window-schedulers.md lists every
// option with its default.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/scheduler.hpp"
#include "solver/window_problem.hpp"
#include "util/params.hpp"

namespace hs {

// name: ipsched | aucsched1 | aucsched2 | aucsched3. Reads its options from `params`
// (InputError for an unknown name or a bad value).
std::unique_ptr<Scheduler> make_window_scheduler(std::string_view name, Params& params);

std::vector<std::string> window_scheduler_names();

namespace window {

// What one scheduling pass did, for benchmarks and reports. A year's replay keeps about a
// million of them, so the fields are ordered to leave no padding (96 bytes).
struct PassStats {
  Time now = 0;
  double solve_seconds = 0.0;  // wall time in the solver, reporting only
  double pass_seconds = 0.0;   // wall time of the whole pass (bids + solves), reporting only
  // The configured solver's last answer in the pass (deterministic, unlike the times):
  double objective = 0.0;      // value of the answer kept (the greedy fallback's, if used)
  double bound = 0.0;          // the solver's proven upper bound on that window's optimum
  std::int64_t effort = 0;     // solver work units over all the pass's solves
  // Why the first proposal the check refused was refused; null when none was (the rule).
  std::shared_ptr<const std::string> first_problem;
  int window = 0;        // jobs in the window
  int bids = 0;          // bids / columns handed to the solver (last solve)
  int solves = 0;        // solver calls (IPSCHED pricing rounds)
  int started = 0;
  int rejected_proposals = 0;  // winners that failed verification (should stay 0)
  bool timed_out = false;      // IPSCHED time-out rule fired
  bool fallback = false;       // solver failed; greedy fallback used
  bool repeated = false;       // same inputs as the previous idle pass: not solved again
  bool proven = false;         // the solver proved its answer optimal (objective, bound above)
  solver::BoundSource bound_source = solver::BoundSource::None;  // where `bound` comes from

  std::string problem() const { return first_problem ? *first_problem : std::string(); }
};

// Passes recorded by a window scheduler (empty for any other scheduler).
const std::vector<PassStats>& pass_stats(const Scheduler& scheduler);
// The same, handed over (the scheduler's list is left empty): a year's replay records
// hundreds of thousands of passes, too many to copy.
std::vector<PassStats> take_pass_stats(Scheduler& scheduler);

// One call of the window solver during a pass, with the problem it was given and what the
// configured solver answered (before any check or greedy fallback).
struct SolveRecord {
  std::int64_t pass = 0;  // 0-based pass index (the pass's position in pass_stats)
  Time now = 0;           // simulated time of the pass
  int solve = 1;          // 1-based solver call within the pass
  std::string solver;     // the configured solver's name
  std::int64_t effort_limit = 0;
  double time_limit_s = 0.0;
  std::int32_t enumerate_bids = 0;  // SolverOptions::enumerate_bids as the replay passed it
  const solver::WindowProblem* problem = nullptr;
  const solver::SolveResult* result = nullptr;
  std::vector<std::string> dimension_names;  // see problem_builder.hpp
  std::vector<std::string> node_names;       // the cluster's, by problem node
  std::vector<std::string> job_ids;          // the window's jobs' ids, by problem job
};
using SolveObserver = std::function<void(const SolveRecord&)>;

// Calls `observer` after every solver call of a window scheduler (decisions are
// unaffected). False, and nothing registered, for any other scheduler.
bool observe_solves(Scheduler& scheduler, SolveObserver observer);

}  // namespace window
}  // namespace hs
