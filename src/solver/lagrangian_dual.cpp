#include "solver/lagrangian_dual.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace hs::solver {

namespace {
constexpr std::int64_t kAverageWindow = 20;  // the average forgets at about this rate

// Reduced value v_b - sum a_{b,n,d} lambda_{n,d} of every usable bid. Dims > 0 fixes the
// dimension count at compile time so the inner loop unrolls; the sums are the same.
template <int Dims>
void fill_reduced(const CompactProblem& p, const std::vector<double>& lambda,
                  std::vector<double>& reduced) {
  const std::int32_t dims = Dims > 0 ? Dims : p.dims;
  for (std::int32_t b = 0; b < p.bid_count(); ++b) {
    if (!p.usable[b]) {
      reduced[b] = -std::numeric_limits<double>::infinity();
      continue;
    }
    double priced = 0.0;
    for (std::int32_t u = p.use_begin[b]; u < p.use_begin[b + 1]; ++u) {
      const double* price = &lambda[static_cast<std::size_t>(p.use_node[u]) * dims];
      const double* amount = &p.use_amount_real[static_cast<std::size_t>(u) * dims];
      for (std::int32_t d = 0; d < dims; ++d) priced += price[d] * amount[d];
    }
    reduced[b] = p.value[b] - priced;
  }
}
// Adds the amounts of every chosen bid to `usage` (nodes * dims), bid by bid in choice
// order as before; Dims > 0 fixes the dimension count so the loop unrolls.
template <int Dims>
void add_usage(const CompactProblem& p, const std::vector<std::int32_t>& choice,
               std::vector<double>& usage) {
  const std::size_t dims = Dims > 0 ? Dims : static_cast<std::size_t>(p.dims);
  for (std::int32_t bid : choice) {
    if (bid < 0) continue;
    for (std::int32_t u = p.use_begin[bid]; u < p.use_begin[bid + 1]; ++u) {
      double* used = &usage[static_cast<std::size_t>(p.use_node[u]) * dims];
      const std::int32_t* amount = &p.use_amount[static_cast<std::size_t>(u) * dims];
      for (std::size_t d = 0; d < dims; ++d) used[d] += amount[d];
    }
  }
}
}  // namespace

LagrangianDual::LagrangianDual(const CompactProblem& problem, std::int64_t& effort)
    : problem_(problem),
      effort_(&effort),
      lambda_(problem.capacity.size(), 0.0),
      usage_(problem.capacity.size(), 0.0),
      reduced_(problem.bid_count(), 0.0),
      choice_(problem.jobs, -1),
      average_(problem.bid_count(), 0.0) {
  std::vector<std::uint8_t> drawn(problem.capacity.size(), 0);
  for (std::int32_t b = 0; b < problem.bid_count(); ++b) {
    if (!problem.usable[b]) continue;
    for (std::int32_t u = problem.use_begin[b]; u < problem.use_begin[b + 1]; ++u)
      for (std::int32_t d = 0; d < problem.dims; ++d)
        if (problem.use_amount[static_cast<std::size_t>(u) * problem.dims + d] > 0)
          drawn[static_cast<std::size_t>(problem.use_node[u]) * problem.dims + d] = 1;
  }
  for (std::size_t e = 0; e < drawn.size(); ++e)
    if (drawn[e]) rows_.push_back(static_cast<std::int32_t>(e));
  mu_.assign(rows_.size(), 0.0);
  effort += static_cast<std::int64_t>(problem.use_node.size()) + problem.charged_rows();
}

double LagrangianDual::evaluate() {
  const CompactProblem& p = problem_;
  with_fixed_dims(p.dims, [&](auto dims) {
    fill_reduced<decltype(dims)::value>(p, lambda_, reduced_);
  });
  *effort_ += static_cast<std::int64_t>(p.use_node.size()) + p.bid_count();
  double bound = 0.0;
  for (double m : mu_) bound += m;
  for (std::int32_t job = 0; job < p.jobs; ++job) {
    choice_[job] = -1;
    double best = 0.0;
    for (std::int32_t k = p.job_bid_begin[job]; k < p.job_bid_begin[job + 1]; ++k) {
      const std::int32_t bid = p.job_bids[k];
      if (reduced_[bid] > best) {
        best = reduced_[bid];
        choice_[job] = bid;
      }
    }
    bound += best;
  }
  ++evaluations_;
  const double keep = 1.0 - 1.0 / static_cast<double>(std::min<std::int64_t>(evaluations_, kAverageWindow));
  for (double& a : average_) a *= keep;
  for (std::int32_t bid : choice_)
    if (bid >= 0) average_[bid] += 1.0 - keep;
  *effort_ += p.bid_count();
  return bound;
}

bool LagrangianDual::step(double distance_to_target, double theta) {
  const CompactProblem& p = problem_;
  const std::int32_t dims = p.dims;
  for (std::int32_t e : rows_) usage_[e] = 0.0;
  with_fixed_dims(dims, [&](auto fixed) {
    add_usage<decltype(fixed)::value>(p, choice_, usage_);
  });
  double norm = 0.0;
  std::vector<double>& slope = slope_;
  slope.resize(rows_.size());  // every entry is written below
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    const std::int32_t e = rows_[i];
    // An unused row's slope is exactly 1 - 0 / C = 1: no division needed.
    const double used = usage_[e];
    double g = used == 0.0 ? 1.0 : 1.0 - used / p.capacity[e];
    if (mu_[i] <= 0.0 && g > 0.0) g = 0.0;  // projection: mu cannot go below zero
    slope[i] = g;
    norm += g * g;
  }
  *effort_ += static_cast<std::int64_t>(rows_.size()) * 2 + p.jobs;
  if (norm <= 0.0) return false;
  const double length = theta * std::max(distance_to_target, 0.0) / norm;
  // A flat row (most rows: unused and unpriced) keeps mu = max(0, mu - length * 0) and so
  // its lambda, as long as length * 0 is 0.
  const bool finite = std::isfinite(length);
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    if (slope[i] == 0.0 && finite) continue;
    mu_[i] = std::max(0.0, mu_[i] - length * slope[i]);
    lambda_[rows_[i]] = mu_[i] / p.capacity[rows_[i]];
  }
  return true;
}

void LagrangianDual::set_multipliers(const std::vector<double>& multipliers) {
  mu_ = multipliers;
  lambda_ = lambda_of(multipliers);
}

std::vector<double> LagrangianDual::lambda_of(const std::vector<double>& multipliers) const {
  std::vector<double> lambda(problem_.capacity.size(), 0.0);
  for (std::size_t i = 0; i < rows_.size(); ++i)
    lambda[rows_[i]] = multipliers[i] / problem_.capacity[rows_[i]];
  return lambda;
}

}  // namespace hs::solver
