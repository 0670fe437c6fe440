#pragma once
// One run's window passes in a few numbers: how many were solved or skipped, window and
// bid sizes, solver wall time percentiles, and every failure signal (IPSCHED time-outs,
// greedy fallbacks, solver proposals the checker refused). Times are for reporting only.
#include <cstdint>
#include <string>
#include <vector>

#include "policy/window/window_schedulers.hpp"

namespace hs::window {

struct PassSummary {
  std::int64_t passes = 0;   // passes recorded (a pass with events or a requested tick)
  std::int64_t solved = 0;   // passes that called the solver
  std::int64_t repeated = 0; // skipped: same inputs as the last idle pass
  double mean_window = 0.0;  // jobs per solved window
  double mean_bids = 0.0;    // bids or columns per solved window (last solve of the pass)
  double solve_p50_s = 0.0, solve_p99_s = 0.0, solve_max_s = 0.0;  // solver time per pass
  std::int64_t timeouts = 0;
  std::int64_t fallbacks = 0;
  std::int64_t rejected_proposals = 0;
  std::string first_problem;  // why the first refused proposal was refused
  // Solver's gap to its own bound per solved pass (bound_gap), and the passes it proved.
  double gap_p50 = 0.0, gap_p95 = 0.0, gap_max = 0.0;
  std::int64_t proven = 0;
};

PassSummary summarize_passes(const std::vector<PassStats>& passes);

// (bound - objective) / max(1, bound): how far the pass's answer may be from the optimum.
double bound_gap(const PassStats& pass);

// Nearest-rank percentile (q in [0, 1]) of `values`; 0 when empty.
double percentile(std::vector<double> values, double q);

}  // namespace hs::window
