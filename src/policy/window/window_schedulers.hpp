#pragma once
// The window co-allocation schedulers of the documents: IPSCHED (thesis ch. 3), AUCSCHED1
// (ch. 4), AUCSCHED2 (ch. 5) and AUCSCHED3 (ch. 6). docs/window-schedulers.md lists every
// option with its default.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/scheduler.hpp"
#include "util/params.hpp"

namespace hs {

// name: ipsched | aucsched1 | aucsched2 | aucsched3. Reads its options from `params`
// (InputError for an unknown name or a bad value).
std::unique_ptr<Scheduler> make_window_scheduler(std::string_view name, Params& params);

std::vector<std::string> window_scheduler_names();

namespace window {

// What one scheduling pass did, for benchmarks and reports.
struct PassStats {
  Time now = 0;
  int window = 0;        // jobs in the window
  int bids = 0;          // bids / columns handed to the solver (last solve)
  int solves = 0;        // solver calls (IPSCHED pricing rounds)
  double solve_seconds = 0.0;  // wall time in the solver, reporting only
  double pass_seconds = 0.0;   // wall time of the whole pass (bids + solves), reporting only
  int started = 0;
  bool timed_out = false;      // IPSCHED time-out rule fired
  bool fallback = false;       // solver failed; greedy fallback used
  int rejected_proposals = 0;  // winners that failed verification (should stay 0)
  std::string first_problem;   // why the first of them failed
  bool repeated = false;       // same inputs as the previous idle pass: not solved again
};

// Passes recorded by a window scheduler (empty for any other scheduler).
const std::vector<PassStats>& pass_stats(const Scheduler& scheduler);

}  // namespace window
}  // namespace hs
