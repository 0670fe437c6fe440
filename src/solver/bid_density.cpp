#include "solver/bid_density.hpp"

namespace hs::solver {

namespace {

std::vector<double> base_prices(const CompactProblem& p) {
  double value_sum = 0.0;
  std::int32_t usable_count = 0;
  for (std::int32_t b = 0; b < p.bid_count(); ++b)
    if (p.usable[b]) {
      value_sum += p.value[b];
      ++usable_count;
    }
  const double mean_value = usable_count > 0 ? value_sum / usable_count : 0.0;
  std::vector<double> price(p.dims, 0.0);
  for (std::int32_t d = 0; d < p.dims; ++d) {
    double total = 0.0;
    for (std::int32_t n = 0; n < p.nodes; ++n) total += p.capacity[static_cast<std::size_t>(n) * p.dims + d];
    if (total > 0.0) price[d] = mean_value / total;
  }
  return price;
}

}  // namespace

std::vector<double> density_keys(const CompactProblem& p, const std::vector<double>& lambda,
                                 std::int64_t& effort) {
  const std::vector<double> base = base_prices(p);
  const std::size_t dims = static_cast<std::size_t>(p.dims);
  std::vector<double> price(static_cast<std::size_t>(p.nodes) * dims);  // base + lambda
  for (std::size_t e = 0; e < price.size(); ++e)
    price[e] = base[e % dims] + (lambda.empty() ? 0.0 : lambda[e]);
  std::vector<double> key(p.bid_count(), 0.0);
  for (std::int32_t b = 0; b < p.bid_count(); ++b) {
    if (!p.usable[b]) continue;
    double priced_use = 0.0;
    for (std::int32_t u = p.use_begin[b]; u < p.use_begin[b + 1]; ++u) {
      const double* node_price = &price[static_cast<std::size_t>(p.use_node[u]) * dims];
      const double* amount = &p.use_amount_real[static_cast<std::size_t>(u) * dims];
      for (std::size_t d = 0; d < dims; ++d) priced_use += node_price[d] * amount[d];
    }
    key[b] = p.value[b] / (1e-12 * p.value[b] + priced_use);
    effort += p.use_count(b) + 1;
  }
  return key;
}

}  // namespace hs::solver
