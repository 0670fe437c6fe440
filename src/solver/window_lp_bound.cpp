#include "solver/window_lp_bound.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "solver/cover_cuts.hpp"
#include "solver/window_lp.hpp"
#ifdef HETSCHED_HAVE_CBC
#include "solver/cbc/clp_relaxation.hpp"
#endif

namespace hs::solver {

#ifdef HETSCHED_HAVE_CBC

namespace {

// Σ_i y_i b_i + Σ_c u_c max(0, v_c − Σ_i y_i a_ic) with y = CLP's row duals clipped to >= 0,
// in long double; valid for any y >= 0 because every row is "≤ b" and every column in [0, u].
double dual_value(const MipModel& model, const std::vector<MipRow>& rows, const ClpRelaxation& lp) {
  std::vector<long double> reduced(model.columns.size());
  for (std::size_t c = 0; c < model.columns.size(); ++c) reduced[c] = model.columns[c].objective;
  long double total = 0.0L;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const double y = std::max(0.0, lp.row_dual(static_cast<std::int32_t>(i)));
    if (y == 0.0 || rows[i].upper == kMipInfinity) continue;
    total += static_cast<long double>(y) * rows[i].upper;
    for (std::size_t k = 0; k < rows[i].columns.size(); ++k)
      reduced[rows[i].columns[k]] -= static_cast<long double>(y) * rows[i].coefficients[k];
  }
  for (std::size_t c = 0; c < model.columns.size(); ++c)
    total += model.columns[c].upper * std::max(0.0L, reduced[c]);
  return static_cast<double>(total);
}

class LpBoundRun {
 public:
  LpBoundRun(const CompactProblem& p, const LpBoundOptions& options)
      : options_(options),
        window_(window_lp(p, {.clique_rows = options.clique_rows,
                              .drop_dominated_rows = options.drop_dominated_rows})),
        rows_(window_.model.rows), lp_(window_.model) {}

  LpBound run() {
    bool solved = solve();
    for (int round = 0; solved && round < options_.cut_rounds; ++round) {
      if (!add_cuts()) break;
      solved = solve();
    }
    const double value = dual_value(window_.model, rows_, lp_);
    if (std::isfinite(value)) result_.bound = value + kLpBoundMargin * std::fabs(value);
    return result_;
  }

 private:
  // One dual simplex run within the pivot cap left; true when it ended optimal.
  bool solve() {
    const std::int64_t left = options_.max_iterations - result_.iterations;
    result_.optimal = false;
    if (left <= 0) return false;
    const ClpRelaxation::Outcome outcome = lp_.solve(left);
    result_.iterations += lp_.last_iterations();
    const auto size = static_cast<std::int64_t>(rows_.size() + window_.model.columns.size());
    result_.effort += lp_.last_iterations() * size;
    result_.optimal = outcome == ClpRelaxation::Outcome::Optimal;
    return result_.optimal;
  }

  // Cover cuts violated by the LP solution; false when there are none.
  bool add_cuts() {
    std::vector<double> x(window_.model.columns.size());
    for (std::size_t c = 0; c < x.size(); ++c) x[c] = lp_.value(static_cast<std::int32_t>(c));
    std::vector<MipRow> cuts = separate_covers(rows_, x);
    if (cuts.empty()) return false;
    lp_.add_rows(cuts);
    for (MipRow& cut : cuts) rows_.push_back(std::move(cut));
    ++result_.cut_rounds;
    return true;
  }

  const LpBoundOptions options_;
  const WindowLp window_;
  std::vector<MipRow> rows_;  // the model's rows and the cuts added, in CLP's row order
  ClpRelaxation lp_;
  LpBound result_;
};

}  // namespace

LpBound window_lp_bound(const CompactProblem& problem, const LpBoundOptions& options) {
  if (options.max_iterations <= 0) return {};
  return LpBoundRun(problem, options).run();
}

#else

LpBound window_lp_bound(const CompactProblem&, const LpBoundOptions&) { return {}; }

#endif

}  // namespace hs::solver
