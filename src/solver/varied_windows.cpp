#include "solver/varied_windows.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "util/rng.hpp"

namespace hs::solver {

namespace {

enum class ValueStyle : std::uint8_t { AllEqual, SmallPriorities, Huge, LargeJobTerm, Fcfs, BySize };
constexpr std::int64_t kValueStyles = 6;

std::int32_t draw(Rng& rng, std::int64_t lo, std::int64_t hi) {
  return static_cast<std::int32_t>(rng.uniform_int(lo, hi));
}

// Each node's free amount per dimension: the full amount on alike nodes, else anything
// from nothing to the full amount.
void fill_capacity(Rng& rng, const std::vector<std::int32_t>& full, WindowProblem& p) {
  const bool alike = rng.bernoulli(0.5);
  p.capacity.resize(static_cast<std::size_t>(p.node_count) * p.dims);
  for (std::int32_t n = 0; n < p.node_count; ++n)
    for (std::int32_t d = 0; d < p.dims; ++d)
      p.capacity[static_cast<std::size_t>(n) * p.dims + d] = alike ? full[d] : draw(rng, 0, full[d]);
}

double job_priority(ValueStyle style, Rng& rng, std::int32_t job, std::int32_t jobs) {
  switch (style) {
    case ValueStyle::AllEqual: return 1.0;
    case ValueStyle::SmallPriorities: return draw(rng, 1, 3);
    case ValueStyle::Huge: return 1e12 * (1.0 + rng.uniform01());
    case ValueStyle::LargeJobTerm: return std::ldexp(1.0, 32) * (jobs - job);
    case ValueStyle::Fcfs:
    case ValueStyle::BySize: break;
  }
  return 1000.0 + 10.0 * (jobs - job);
}

std::vector<std::int32_t> scattered_nodes(Rng& rng, std::int32_t node_count, std::int32_t span) {
  std::vector<std::int32_t> nodes(static_cast<std::size_t>(node_count));
  std::iota(nodes.begin(), nodes.end(), 0);
  const std::int32_t k = std::min(span, node_count);
  for (std::int32_t i = 0; i < k; ++i) std::swap(nodes[i], nodes[draw(rng, i, node_count - 1)]);
  nodes.resize(static_cast<std::size_t>(k));
  std::sort(nodes.begin(), nodes.end());
  return nodes;
}

void add_job_bids(Rng& rng, ValueStyle style, std::int32_t job, std::int32_t max_bids,
                  std::int32_t max_span, const std::vector<std::int32_t>& full, WindowProblem& p) {
  const double priority = job_priority(style, rng, job, p.job_count);
  const std::int32_t bids = draw(rng, 0, max_bids);
  const std::int32_t span = draw(rng, 1, max_span);
  std::vector<std::int32_t> amount(static_cast<std::size_t>(p.dims));
  for (std::int32_t d = 0; d < p.dims; ++d) amount[d] = draw(rng, 0, full[d]);
  for (std::int32_t b = 0; b < bids; ++b) {
    Bid bid;
    bid.job = job;
    const bool uneven = rng.bernoulli(0.3);  // amounts drawn node by node
    for (std::int32_t node : scattered_nodes(rng, p.node_count, span)) {
      NodeUse use;
      use.node = node;
      for (std::int32_t d = 0; d < p.dims; ++d) use.amount[d] = uneven ? draw(rng, 0, full[d]) : amount[d];
      bid.uses.push_back(use);
    }
    const double preference = rng.uniform01();
    if (style == ValueStyle::AllEqual) {
      bid.value = 1.0;
    } else if (style == ValueStyle::BySize) {
      bid.value = static_cast<double>(draw(rng, 1, 5)) * static_cast<double>(bid.uses.size());
    } else {
      bid.value = priority * (1.0 + 1e-3 * preference);
    }
    p.bids.push_back(bid);
    if (rng.bernoulli(0.05)) p.bids.push_back(bid);
  }
}

}  // namespace

WindowProblem make_varied_window(std::uint64_t seed, VariedWindowSize size) {
  Rng rng(seed);
  WindowProblem p;
  p.dims = draw(rng, 1, 4);
  if (size == VariedWindowSize::Medium) {
    p.node_count = draw(rng, 16, 96);
    p.job_count = draw(rng, 20, 60);
  } else {
    p.node_count = draw(rng, 1, rng.bernoulli(0.5) ? 8 : 40);
    p.job_count = draw(rng, 1, rng.bernoulli(0.5) ? 10 : 30);
  }
  const auto style = static_cast<ValueStyle>(rng.uniform_int(0, kValueStyles - 1));
  std::vector<std::int32_t> full(static_cast<std::size_t>(p.dims));
  for (std::int32_t d = 0; d < p.dims; ++d) full[d] = draw(rng, 1, d == 0 ? 64 : 8);
  fill_capacity(rng, full, p);
  const std::int32_t max_bids = draw(rng, 1, 10);
  const std::int32_t max_span = draw(rng, 1, std::max(1, p.node_count));
  for (std::int32_t job = 0; job < p.job_count; ++job) add_job_bids(rng, style, job, max_bids, max_span, full, p);
  return p;
}

}  // namespace hs::solver
