#include "solver/bid_density.hpp"

#include "solver/incumbent.hpp"

namespace hs::solver {

namespace {

// Dims > 0 fixes the dimension count at compile time so the inner loop unrolls; the sums
// are formed in the same order, so the keys are the same.
template <int Dims>
void fill_density(const CompactProblem& p, const std::vector<double>& lambda,
                  std::vector<double>& key, std::int64_t& effort) {
  const std::size_t dims = Dims > 0 ? Dims : static_cast<std::size_t>(p.dims);
  const std::vector<double>& base = p.base_price;
  const bool priced = !lambda.empty();
  for (std::int32_t b = 0; b < p.bid_count(); ++b) {
    if (!p.usable[b]) continue;
    double priced_use = 0.0;
    for (std::int32_t u = p.use_begin[b]; u < p.use_begin[b + 1]; ++u) {
      const std::size_t entry = static_cast<std::size_t>(p.use_node[u]) * dims;
      const double* amount = &p.use_amount_real[static_cast<std::size_t>(u) * dims];
      for (std::size_t d = 0; d < dims; ++d)
        priced_use += (base[d] + (priced ? lambda[entry + d] : 0.0)) * amount[d];
    }
    key[b] = p.value[b] / (1e-12 * p.value[b] + priced_use);
    effort += p.use_count(b) + 1;
  }
}

}  // namespace

std::vector<double> density_keys(const CompactProblem& p, const std::vector<double>& lambda,
                                 std::int64_t& effort) {
  std::vector<double> key;
  density_keys(p, lambda, effort, key);
  return key;
}

void density_keys(const CompactProblem& p, const std::vector<double>& lambda,
                  std::int64_t& effort, std::vector<double>& key) {
  key.assign(static_cast<std::size_t>(p.bid_count()), 0.0);
  with_fixed_dims(p.dims, [&](auto dims) {
    fill_density<decltype(dims)::value>(p, lambda, key, effort);
  });
}

std::vector<std::int32_t> density_order_within(const CompactProblem& problem, Budget& budget) {
  const auto bids = static_cast<std::size_t>(problem.bid_count());
  const std::int64_t cost =
      static_cast<std::int64_t>(problem.use_node.size()) + problem.bid_count() + sort_effort(bids);
  if (budget.affordable(cost))
    return order_by_descending(density_keys(problem, {}, budget.effort()), budget.effort());
  std::vector<std::int32_t> order(bids);
  for (std::int32_t b = 0; b < problem.bid_count(); ++b) order[b] = b;
  return order;
}

}  // namespace hs::solver
