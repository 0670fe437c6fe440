#include "solver/lp_branching.hpp"

#ifdef HETSCHED_HAVE_CBC
#include "solver/cbc/clp_relaxation.hpp"

namespace hs::solver {

namespace {

// How the LP spreads a job over its bids: how many it uses, and the one it uses most
// (the first of equals).
struct Spread {
  std::int32_t leading = -1;
  std::int32_t positive = 0;
};

Spread spread_of(const CompactProblem& p, const ClpRelaxation& lp, std::int32_t job) {
  Spread spread;
  for (std::int32_t k = p.job_bid_begin[job]; k < p.job_bid_begin[job + 1]; ++k) {
    const std::int32_t bid = p.job_bids[k];
    if (lp.value(bid) <= kIntegral) continue;
    ++spread.positive;
    if (spread.leading < 0 || lp.value(bid) > lp.value(spread.leading)) spread.leading = bid;
  }
  return spread;
}

double job_share(const CompactProblem& p, const ClpRelaxation& lp, std::int32_t job) {
  double share = 0.0;
  for (std::int32_t k = p.job_bid_begin[job]; k < p.job_bid_begin[job + 1]; ++k)
    share += lp.value(p.job_bids[k]);
  return share;
}

// A job that the LP starts only in part (Σ x of its bids fractional): the most nearly
// started one (ties: the lower index); -1 when every job is started wholly or not at all.
std::int32_t branching_job(const CompactProblem& p, const std::vector<std::int32_t>& job_row,
                           const ClpRelaxation& lp) {
  std::int32_t chosen = -1;
  double best_share = 0.0;
  for (std::int32_t j = 0; j < p.jobs; ++j) {
    if (job_row[j] < 0) continue;
    const double share = job_share(p, lp, j);
    if (share < kIntegral || share > 1.0 - kIntegral) continue;
    if (chosen < 0 || share > best_share + 1e-9) {
      chosen = j;
      best_share = share;
    }
  }
  return chosen;
}

}  // namespace

Branch choose_branch(const CompactProblem& p, const std::vector<std::int32_t>& job_row,
                     const ClpRelaxation& lp) {
  const std::int32_t job = branching_job(p, job_row, lp);
  if (job < 0) return {-1, branching_column(p, lp)};
  const Spread spread = spread_of(p, lp, job);
  return spread.positive >= 2 ? Branch{-1, spread.leading} : Branch{job, -1};
}

std::int32_t branching_column(const CompactProblem& p, const ClpRelaxation& lp) {
  std::int32_t chosen = -1;
  double best_x = 0.0;
  for (std::int32_t c = 0; c < p.bid_count(); ++c) {
    const double x = lp.value(c);
    if (x < kIntegral || x > 1.0 - kIntegral) continue;
    if (chosen < 0 || x > best_x + 1e-9 || (x > best_x - 1e-9 && p.value[c] > p.value[chosen])) {
      chosen = c;
      best_x = x;
    }
  }
  return chosen;
}

}  // namespace hs::solver

#endif  // HETSCHED_HAVE_CBC
