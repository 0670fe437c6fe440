#include "solver/compact_problem.hpp"

#include <algorithm>
#include <cmath>

namespace hs::solver {

namespace {

std::string bid_label(std::size_t index) { return "bids[" + std::to_string(index) + "]"; }

std::optional<std::string> find_header_defect(const WindowProblem& p) {
  if (p.job_count < 0) return "job_count is negative: " + std::to_string(p.job_count);
  if (p.node_count < 0) return "node_count is negative: " + std::to_string(p.node_count);
  if (p.dims < 1 || p.dims > kMaxDims)
    return "dims must be in [1, " + std::to_string(kMaxDims) + "], got " + std::to_string(p.dims);
  const auto expected = static_cast<std::size_t>(p.node_count) * p.dims;
  if (p.capacity.size() != expected)
    return "capacity has " + std::to_string(p.capacity.size()) + " entries, expected " +
           std::to_string(expected);
  for (std::size_t i = 0; i < p.capacity.size(); ++i)
    if (p.capacity[i] < 0) return "capacity[" + std::to_string(i) + "] is negative";
  return std::nullopt;
}

std::optional<std::string> find_bid_defect(const WindowProblem& p, std::size_t index) {
  const Bid& bid = p.bids[index];
  if (bid.job < 0 || bid.job >= p.job_count)
    return bid_label(index) + ".job out of range: " + std::to_string(bid.job);
  if (!std::isfinite(bid.value) || bid.value <= 0.0)
    return bid_label(index) + ".value must be finite and > 0, got " + std::to_string(bid.value);
  std::int32_t previous = -1;
  for (const NodeUse& use : bid.uses) {
    if (use.node < 0 || use.node >= p.node_count)
      return bid_label(index) + " uses node out of range: " + std::to_string(use.node);
    if (use.node <= previous)
      return bid_label(index) + " uses are not strictly ascending at node " +
             std::to_string(use.node);
    previous = use.node;
    for (int d = 0; d < kMaxDims; ++d) {
      if (use.amount[d] < 0)
        return bid_label(index) + " has a negative amount on node " + std::to_string(use.node);
      if (d >= p.dims && use.amount[d] != 0)
        return bid_label(index) + " uses dimension " + std::to_string(d) + " beyond dims";
    }
  }
  return std::nullopt;
}

bool fits_empty_cluster(const CompactProblem& c, std::int32_t bid) {
  for (std::int32_t u = c.use_begin[bid]; u < c.use_begin[bid + 1]; ++u)
    for (std::int32_t d = 0; d < c.dims; ++d)
      if (c.use_amount[static_cast<std::size_t>(u) * c.dims + d] >
          c.capacity[static_cast<std::size_t>(c.use_node[u]) * c.dims + d])
        return false;
  return true;
}

void group_bids_by_job(CompactProblem& c) {
  c.job_bid_begin.assign(c.jobs + 1, 0);
  for (std::int32_t job : c.job_of_bid) ++c.job_bid_begin[job + 1];
  for (std::int32_t j = 0; j < c.jobs; ++j) c.job_bid_begin[j + 1] += c.job_bid_begin[j];
  c.job_bids.resize(c.job_of_bid.size());
  std::vector<std::int32_t> fill(c.job_bid_begin.begin(), c.job_bid_begin.end() - 1);
  for (std::int32_t b = 0; b < c.bid_count(); ++b) c.job_bids[fill[c.job_of_bid[b]]++] = b;
}

}  // namespace

std::optional<std::string> find_problem_defect(const WindowProblem& problem) {
  if (auto defect = find_header_defect(problem)) return defect;
  for (std::size_t i = 0; i < problem.bids.size(); ++i)
    if (auto defect = find_bid_defect(problem, i)) return defect;
  return std::nullopt;
}

namespace {

// Mean usable bid value over the total capacity of each dimension, summed over every node of
// `capacity` (the problem's, node by node).
std::vector<double> base_prices(const CompactProblem& p, const std::vector<std::int32_t>& capacity) {
  double value_sum = 0.0;
  std::int32_t usable_count = 0;
  for (std::int32_t b = 0; b < p.bid_count(); ++b)
    if (p.usable[b]) {
      value_sum += p.value[b];
      ++usable_count;
    }
  const double mean_value = usable_count > 0 ? value_sum / usable_count : 0.0;
  std::vector<double> price(p.dims, 0.0);
  const std::size_t nodes = capacity.size() / static_cast<std::size_t>(p.dims);
  for (std::int32_t d = 0; d < p.dims; ++d) {
    double total = 0.0;
    for (std::size_t n = 0; n < nodes; ++n) total += capacity[n * p.dims + d];
    if (total > 0.0) price[d] = mean_value / total;
  }
  return price;
}

// Bids, uses and amounts of `problem`, with each use's node passed through `node_index`.
template <typename NodeIndexOf>
void copy_bids(const WindowProblem& problem, NodeIndexOf node_index, CompactProblem& c) {
  std::size_t uses = 0;
  for (const Bid& bid : problem.bids) uses += bid.uses.size();
  c.value.reserve(problem.bids.size());
  c.job_of_bid.reserve(problem.bids.size());
  c.use_begin.reserve(problem.bids.size() + 1);
  c.use_node.reserve(uses);
  c.use_amount.reserve(uses * static_cast<std::size_t>(c.dims));
  c.use_amount_real.reserve(uses * static_cast<std::size_t>(c.dims));
  c.use_begin.push_back(0);
  for (const Bid& bid : problem.bids) {
    c.value.push_back(bid.value);
    c.job_of_bid.push_back(bid.job);
    for (const NodeUse& use : bid.uses) {
      c.use_node.push_back(node_index(use.node));
      for (std::int32_t d = 0; d < c.dims; ++d) {
        c.use_amount.push_back(use.amount[d]);
        c.use_amount_real.push_back(static_cast<double>(use.amount[d]));
      }
    }
    c.use_begin.push_back(static_cast<std::int32_t>(c.use_node.size()));
  }
}

// Usability, base prices (over every node of the problem) and the per-job grouping.
void finish_compact(const WindowProblem& problem, CompactProblem& c) {
  c.usable.resize(problem.bids.size());
  for (std::int32_t b = 0; b < c.bid_count(); ++b) c.usable[b] = fits_empty_cluster(c, b);
  c.base_price = base_prices(c, problem.capacity);
  group_bids_by_job(c);
}

}  // namespace

CompactProblem compact(const WindowProblem& problem) {
  CompactProblem c;
  c.jobs = problem.job_count;
  c.nodes = problem.node_count;
  c.charged_nodes = problem.node_count;
  c.dims = problem.dims;
  c.capacity = problem.capacity;
  copy_bids(problem, [](std::int32_t node) { return node; }, c);
  finish_compact(problem, c);
  return c;
}

CompactProblem compact_used_nodes(const WindowProblem& problem) {
  // rank[node]: the node's index among the used ones, -1 for the others. Kept between calls
  // (all -1 again on return) so a call costs what the bids use, not the node count.
  thread_local std::vector<std::int32_t> rank;
  if (rank.size() < static_cast<std::size_t>(problem.node_count))
    rank.resize(static_cast<std::size_t>(problem.node_count), -1);
  std::vector<std::int32_t> used;  // the problem's nodes some bid uses, ascending
  struct Reset {  // puts rank back however the call ends
    const std::vector<std::int32_t>& nodes;
    ~Reset() {
      for (std::int32_t node : nodes) rank[node] = -1;
    }
  } reset{used};
  std::int32_t lowest = problem.node_count, highest = -1;
  for (const Bid& bid : problem.bids)
    for (const NodeUse& use : bid.uses)
      if (rank[use.node] < 0) {
        used.push_back(use.node), rank[use.node] = 0;
        lowest = std::min(lowest, use.node), highest = std::max(highest, use.node);
      }
  // In ascending order: where the used nodes are dense in their range (bids of jobs over
  // thousands of nodes), by a scan of the marks, which costs less than a sort; else sorted.
  if (!used.empty() && static_cast<std::size_t>(highest - lowest) < 4 * used.size()) {
    used.clear();
    for (std::int32_t node = lowest; node <= highest; ++node)
      if (rank[node] == 0) used.push_back(node);
  } else {
    std::sort(used.begin(), used.end());
  }
  for (std::size_t k = 0; k < used.size(); ++k) rank[used[k]] = static_cast<std::int32_t>(k);
  CompactProblem c;
  c.jobs = problem.job_count;
  c.nodes = static_cast<std::int32_t>(used.size());
  c.charged_nodes = problem.node_count;
  c.dims = problem.dims;
  c.capacity.reserve(used.size() * static_cast<std::size_t>(c.dims));
  for (std::int32_t node : used)
    for (std::int32_t d = 0; d < c.dims; ++d) c.capacity.push_back(problem.cap(node, d));
  copy_bids(problem, [](std::int32_t node) { return rank[node]; }, c);
  finish_compact(problem, c);
  return c;
}

double objective_of(const CompactProblem& problem, const std::vector<std::int32_t>& bid_of_job) {
  double total = 0.0;
  for (std::int32_t bid : bid_of_job)
    if (bid >= 0) total += problem.value[bid];
  return total;
}

}  // namespace hs::solver
