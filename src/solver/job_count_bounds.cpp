#include "solver/job_count_bounds.hpp"

#include <algorithm>
#include <functional>

namespace hs::solver {

JobCountBounds::JobCountBounds(const CompactProblem& p) {
  for (std::int32_t j = 0; j < p.jobs; ++j) {
    double low = 0.0, high = 0.0;
    bool any = false;
    for (std::int32_t k = p.job_bid_begin[j]; k < p.job_bid_begin[j + 1]; ++k) {
      const std::int32_t bid = p.job_bids[k];
      if (!p.usable[bid]) continue;
      low = any ? std::min(low, p.value[bid]) : p.value[bid];
      high = any ? std::max(high, p.value[bid]) : p.value[bid];
      any = true;
    }
    if (!any) continue;
    cheapest_.push_back(low);
    dearest_.push_back(high);
  }
  std::sort(cheapest_.begin(), cheapest_.end());
  std::sort(dearest_.begin(), dearest_.end(), std::greater<>());
}

std::int32_t JobCountBounds::most_within(double bound) const {
  double least = 0.0;
  for (std::int32_t k = 0; k < jobs(); ++k) {
    least += cheapest_[k];
    if (least > bound) return k;
  }
  return jobs();
}

std::int32_t JobCountBounds::fewest_above(double value) const {
  double most = 0.0;
  for (std::int32_t k = 0; k < jobs(); ++k) {
    if (most > value) return k;
    most += dearest_[k];
  }
  return most > value ? jobs() : jobs() + 1;  // jobs() + 1: no choice is worth more
}

}  // namespace hs::solver
