#include "solver/neighbourhood_dual.hpp"

#include <algorithm>
#include <limits>
#include <unordered_map>

namespace hs::solver {

namespace {

constexpr int kIterations = 40;
constexpr double kInitialTheta = 1.0;
constexpr double kMinTheta = 1e-3;
constexpr int kStallIterations = 4;

// The sub-problem in local numbering: rows with their residual capacity, and per free job
// the bids that fit that capacity, each with its (local row, amount / residual) uses.
struct SubProblem {
  std::vector<std::size_t> row_entry;           // local row -> global capacity entry
  std::vector<double> residual;                 // per local row
  std::vector<std::int32_t> job_begin{0};       // free jobs + 1 offsets into bid
  std::vector<std::int32_t> bid;                // listed bids, grouped by free job
  std::vector<std::int32_t> use_begin{0};       // listed bids + 1
  std::vector<std::int32_t> use_row;
  std::vector<double> use_share;                // amount / residual of the row
};

void add_bid(const CompactProblem& p, std::int32_t bid, const CapacityLedger& ledger,
             std::unordered_map<std::size_t, std::int32_t>& local, SubProblem& sub) {
  sub.bid.push_back(bid);
  for (std::int32_t u = p.use_begin[bid]; u < p.use_begin[bid + 1]; ++u)
    for (std::int32_t d = 0; d < p.dims; ++d) {
      const std::int32_t amount = p.use_amount[static_cast<std::size_t>(u) * p.dims + d];
      if (amount == 0) continue;
      const std::size_t entry = static_cast<std::size_t>(p.use_node[u]) * p.dims + d;
      const auto [it, added] = local.try_emplace(entry, static_cast<std::int32_t>(sub.row_entry.size()));
      if (added) {
        sub.row_entry.push_back(entry);
        sub.residual.push_back(ledger.remaining(p.use_node[u], d));
      }
      sub.use_row.push_back(it->second);
      sub.use_share.push_back(amount / sub.residual[it->second]);
    }
  sub.use_begin.push_back(static_cast<std::int32_t>(sub.use_row.size()));
}

SubProblem build(const CompactProblem& p, const std::vector<std::int32_t>& free_jobs,
                 const CapacityLedger& ledger, std::int64_t& effort) {
  SubProblem sub;
  std::unordered_map<std::size_t, std::int32_t> local;
  for (std::int32_t job : free_jobs) {
    for (std::int32_t k = p.job_bid_begin[job]; k < p.job_bid_begin[job + 1]; ++k) {
      const std::int32_t bid = p.job_bids[k];
      if (!p.usable[bid] || !ledger.fits(bid)) continue;
      add_bid(p, bid, ledger, local, sub);
      effort += 2 * p.use_count(bid);
    }
    sub.job_begin.push_back(static_cast<std::int32_t>(sub.bid.size()));
  }
  return sub;
}

// The sub-problem's Lagrangian at `mu` (per local row, scaled so the row reads
// sum share x <= 1); fills each local row's use share by the relaxed choice.
double evaluate(const CompactProblem& p, const SubProblem& sub, const std::vector<double>& mu,
                std::vector<double>& usage, std::int64_t& effort) {
  double bound = 0.0;
  for (double m : mu) bound += m;
  std::fill(usage.begin(), usage.end(), 0.0);
  for (std::size_t j = 0; j + 1 < sub.job_begin.size(); ++j) {
    double best = 0.0;
    std::int32_t chosen = -1;
    for (std::int32_t i = sub.job_begin[j]; i < sub.job_begin[j + 1]; ++i) {
      double reduced = p.value[sub.bid[i]];
      for (std::int32_t u = sub.use_begin[i]; u < sub.use_begin[i + 1]; ++u)
        reduced -= mu[sub.use_row[u]] * sub.use_share[u];
      if (reduced > best) {
        best = reduced;
        chosen = i;
      }
    }
    bound += best;
    if (chosen >= 0)
      for (std::int32_t u = sub.use_begin[chosen]; u < sub.use_begin[chosen + 1]; ++u)
        usage[sub.use_row[u]] += sub.use_share[u];
  }
  effort += static_cast<std::int64_t>(sub.use_row.size() + sub.bid.size() + mu.size());
  return bound;
}

// Projected subgradient step of Polyak length; false when the subgradient vanishes.
bool step(std::vector<double>& mu, const std::vector<double>& usage, double distance, double theta) {
  double norm = 0.0;
  std::vector<double> slope(mu.size());
  for (std::size_t r = 0; r < mu.size(); ++r) {
    slope[r] = 1.0 - usage[r];
    if (mu[r] <= 0.0 && slope[r] > 0.0) slope[r] = 0.0;
    norm += slope[r] * slope[r];
  }
  if (norm <= 0.0) return false;
  const double length = theta * std::max(distance, 0.0) / norm;
  for (std::size_t r = 0; r < mu.size(); ++r) mu[r] = std::max(0.0, mu[r] - length * slope[r]);
  return true;
}

}  // namespace

NeighbourhoodPricing price_neighbourhood(const CompactProblem& p, const PricedBids& global,
                                         const std::vector<std::int32_t>& free_jobs,
                                         const Incumbent& incumbent, Budget& budget) {
  NeighbourhoodPricing result;
  CapacityLedger ledger = incumbent.ledger;
  for (std::int32_t job : free_jobs)
    if (const std::int32_t bid = incumbent.bid_of_job[job]; bid >= 0) {
      ledger.release(bid);
      result.incumbent += p.value[bid];
    }
  const SubProblem sub = build(p, free_jobs, ledger, budget.effort());
  std::vector<double> mu(sub.row_entry.size()), usage(mu.size()), best_mu;
  for (std::size_t r = 0; r < mu.size(); ++r) mu[r] = global.lambda[sub.row_entry[r]] * sub.residual[r];
  result.bound = std::numeric_limits<double>::infinity();
  double theta = kInitialTheta;
  int stall = 0;
  for (int iteration = 0; iteration < kIterations; ++iteration) {
    const double value = evaluate(p, sub, mu, usage, budget.effort());
    if (value < result.bound - 1e-12) {
      result.bound = value;
      best_mu = mu;
      stall = 0;
    } else if (++stall >= kStallIterations) {
      theta /= 2.0;
      stall = 0;
    }
    if (result.bound - result.incumbent <= optimality_tolerance(result.bound)) break;
    if (theta < kMinTheta || !step(mu, usage, value - result.incumbent, theta)) break;
  }
  result.priced.lambda = global.lambda;
  for (std::size_t r = 0; r < best_mu.size(); ++r)
    result.priced.lambda[sub.row_entry[r]] = best_mu[r] / sub.residual[r];
  result.priced.reduced = global.reduced;
  for (std::int32_t bid : sub.bid) {
    double use = 0.0;
    for (std::int32_t u = p.use_begin[bid]; u < p.use_begin[bid + 1]; ++u)
      for (std::int32_t d = 0; d < p.dims; ++d)
        use += result.priced.lambda[static_cast<std::size_t>(p.use_node[u]) * p.dims + d] *
               p.use_amount[static_cast<std::size_t>(u) * p.dims + d];
    result.priced.reduced[bid] = p.value[bid] - use;
  }
  budget.effort() += static_cast<std::int64_t>(sub.use_row.size() + global.lambda.size() / 8 +
                                               global.reduced.size() / 8);
  return result;
}

}  // namespace hs::solver
