#include "policy/window/pass_summary.hpp"

#include <algorithm>

namespace hs::window {

double percentile(std::vector<double> values, double q) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const auto k = static_cast<std::size_t>(q * static_cast<double>(values.size() - 1) + 0.5);
  return values[std::min(k, values.size() - 1)];
}

double bound_gap(const PassStats& pass) {
  return std::max(0.0, pass.bound - pass.objective) / std::max(1.0, pass.bound);
}

PassSummary summarize_passes(const std::vector<PassStats>& passes) {
  PassSummary s;
  std::vector<double> solve_times, gaps;
  double jobs = 0, bids = 0;
  for (const PassStats& p : passes) {
    ++s.passes;
    s.repeated += p.repeated;
    s.timeouts += p.timed_out;
    s.fallbacks += p.fallback;
    if (p.rejected_proposals > 0 && s.rejected_proposals == 0) s.first_problem = p.problem();
    s.rejected_proposals += p.rejected_proposals;
    if (p.solves == 0) continue;
    ++s.solved;
    jobs += p.window;
    bids += p.bids;
    solve_times.push_back(p.solve_seconds);
    gaps.push_back(bound_gap(p));
    s.proven += p.proven;
  }
  if (s.solved > 0) {
    s.mean_window = jobs / static_cast<double>(s.solved);
    s.mean_bids = bids / static_cast<double>(s.solved);
  }
  s.solve_p50_s = percentile(solve_times, 0.5);
  s.solve_p99_s = percentile(solve_times, 0.99);
  s.solve_max_s = percentile(solve_times, 1.0);
  s.gap_p50 = percentile(gaps, 0.5);
  s.gap_p95 = percentile(gaps, 0.95);
  s.gap_max = percentile(gaps, 1.0);
  return s;
}

}  // namespace hs::window
