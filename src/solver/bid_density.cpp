#include "solver/bid_density.hpp"

namespace hs::solver {

std::vector<double> density_keys(const CompactProblem& p, const std::vector<double>& lambda,
                                 std::int64_t& effort) {
  const std::vector<double>& base = p.base_price;
  const std::size_t dims = static_cast<std::size_t>(p.dims);
  std::vector<double> key(p.bid_count(), 0.0);
  for (std::int32_t b = 0; b < p.bid_count(); ++b) {
    if (!p.usable[b]) continue;
    double priced_use = 0.0;
    for (std::int32_t u = p.use_begin[b]; u < p.use_begin[b + 1]; ++u) {
      const std::size_t entry = static_cast<std::size_t>(p.use_node[u]) * dims;
      const double* amount = &p.use_amount_real[static_cast<std::size_t>(u) * dims];
      for (std::size_t d = 0; d < dims; ++d)
        priced_use += (base[d] + (lambda.empty() ? 0.0 : lambda[entry + d])) * amount[d];
    }
    key[b] = p.value[b] / (1e-12 * p.value[b] + priced_use);
    effort += p.use_count(b) + 1;
  }
  return key;
}

}  // namespace hs::solver
