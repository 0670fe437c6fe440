#include "solver/neighbourhood_search.hpp"

#include <algorithm>

#include "solver/neighbourhood_packing.hpp"

namespace hs::solver {

namespace {
constexpr std::int64_t kPackingEffort = 100'000;  // per re-packing attempt

// Growing shapes, each first without and then with leaving one cheaper job out (a swap).
constexpr NeighbourhoodShape kShapes[] = {{32, 4, 0}, {32, 4, 1}, {48, 5, 0}, {48, 5, 1}};
}  // namespace

NeighbourhoodSearch::NeighbourhoodSearch(const CompactProblem& problem,
                                         const std::vector<double>& reduced, Budget& budget)
    : problem_(problem), budget_(budget), winners_on_node_(problem.nodes),
      member_stamp_(problem.jobs, 0) {
  const CompactProblem& p = problem_;
  job_order_begin_.push_back(0);
  for (std::int32_t job = 0; job < p.jobs; ++job) {
    const auto first = bids_by_reduced_.size();
    for (std::int32_t k = p.job_bid_begin[job]; k < p.job_bid_begin[job + 1]; ++k)
      if (p.usable[p.job_bids[k]]) bids_by_reduced_.push_back(p.job_bids[k]);
    std::sort(bids_by_reduced_.begin() + first, bids_by_reduced_.end(),
              [&reduced](std::int32_t a, std::int32_t b) {
                return reduced[a] > reduced[b] || (reduced[a] == reduced[b] && a < b);
              });
    job_order_begin_.push_back(static_cast<std::int32_t>(bids_by_reduced_.size()));
  }
  build_node_index();
  budget_.effort() += static_cast<std::int64_t>(node_bids_.size()) * 2 + sort_effort(bids_by_reduced_.size());
}

// Per node, the incumbent's winning bids on it in ascending bid order (the order of
// node_bids_), rebuilt only when the incumbent changed since the last call.
void NeighbourhoodSearch::index_winners(const Incumbent& incumbent) {
  if (incumbent.bid_of_job == indexed_choice_) return;
  indexed_choice_ = incumbent.bid_of_job;
  for (auto& on_node : winners_on_node_) on_node.clear();
  std::vector<std::int32_t> winners;
  for (std::int32_t bid : incumbent.bid_of_job)
    if (bid >= 0) winners.push_back(bid);
  std::sort(winners.begin(), winners.end());
  for (std::int32_t bid : winners)
    for (std::int32_t u = problem_.use_begin[bid]; u < problem_.use_begin[bid + 1]; ++u)
      winners_on_node_[problem_.use_node[u]].push_back(bid);
}

void NeighbourhoodSearch::build_node_index() {
  const CompactProblem& p = problem_;
  node_bid_begin_.assign(p.nodes + 1, 0);
  for (std::int32_t b = 0; b < p.bid_count(); ++b)
    if (p.usable[b])
      for (std::int32_t u = p.use_begin[b]; u < p.use_begin[b + 1]; ++u) ++node_bid_begin_[p.use_node[u] + 1];
  for (std::int32_t n = 0; n < p.nodes; ++n) node_bid_begin_[n + 1] += node_bid_begin_[n];
  node_bids_.resize(node_bid_begin_[p.nodes]);
  std::vector<std::int32_t> fill(node_bid_begin_.begin(), node_bid_begin_.end() - 1);
  for (std::int32_t b = 0; b < p.bid_count(); ++b)
    if (p.usable[b])
      for (std::int32_t u = p.use_begin[b]; u < p.use_begin[b + 1]; ++u) node_bids_[fill[p.use_node[u]]++] = b;
}

// Jobs that do not start, by descending value per node of their smallest bid: small jobs
// are the ones a re-packing can most often squeeze in.
std::vector<std::int32_t> NeighbourhoodSearch::targets(const Incumbent& incumbent) {
  std::vector<std::pair<double, std::int32_t>> keyed;
  for (std::int32_t job = 0; job < problem_.jobs; ++job) {
    if (incumbent.bid_of_job[job] >= 0 || job_order_begin_[job] == job_order_begin_[job + 1]) continue;
    double top = 0.0;
    std::int32_t smallest = INT32_MAX;
    for (std::int32_t k = job_order_begin_[job]; k < job_order_begin_[job + 1]; ++k) {
      top = std::max(top, problem_.value[bids_by_reduced_[k]]);
      smallest = std::min(smallest, problem_.use_count(bids_by_reduced_[k]));
    }
    keyed.emplace_back(-top / std::max(1, smallest), job);
  }
  std::sort(keyed.begin(), keyed.end());
  const std::int64_t cost = static_cast<std::int64_t>(bids_by_reduced_.size()) + sort_effort(keyed.size());
  if (!within_cap(cost)) return {};
  budget_.effort() += cost;
  std::vector<std::int32_t> jobs;
  for (const auto& entry : keyed) jobs.push_back(entry.second);
  return jobs;
}

// Breadth first from the target: each member's `bids_per_job` best bids by reduced value
// name the started jobs in their way, which join (until `jobs` members).
std::vector<std::int32_t> NeighbourhoodSearch::neighbourhood(const Incumbent& incumbent,
                                                             std::int32_t target,
                                                             const NeighbourhoodShape& shape) {
  index_winners(incumbent);
  ++stamp_;
  std::vector<std::int32_t> members{target};
  member_stamp_[target] = stamp_;
  auto full = [&] { return members.size() >= shape.jobs; };
  for (std::size_t i = 0; i < members.size() && !full(); ++i) {
    const std::int32_t job = members[i];
    const std::int32_t end = std::min(job_order_begin_[job + 1], job_order_begin_[job] + shape.bids_per_job);
    for (std::int32_t k = job_order_begin_[job]; k < end && !full(); ++k) {
      const std::int32_t bid = bids_by_reduced_[k];
      for (std::int32_t u = problem_.use_begin[bid]; u < problem_.use_begin[bid + 1] && !full(); ++u) {
        const std::int32_t node = problem_.use_node[u];
        // Charged as a scan of every bid on the node (the effort model predates the index).
        const std::int64_t scan = node_bid_begin_[node + 1] - node_bid_begin_[node];
        if (!within_cap(scan)) return {};  // too close to the cap for this one
        budget_.effort() += scan;
        for (std::int32_t winner : winners_on_node_[node]) {
          if (full()) break;
          const std::int32_t owner = problem_.job_of_bid[winner];
          if (member_stamp_[owner] == stamp_) continue;
          member_stamp_[owner] = stamp_;
          members.push_back(owner);
        }
      }
    }
  }
  return members;
}

bool NeighbourhoodSearch::improve_pass(Incumbent& best, const NeighbourhoodShape& shape) {
  bool improved = false;
  for (std::int32_t target : targets(best)) {
    if (out_of_effort()) break;
    if (best.bid_of_job[target] >= 0) continue;  // started by an earlier re-packing
    const std::vector<std::int32_t> members = neighbourhood(best, target, shape);
    if (members.empty()) break;  // the limit is too close for a neighbourhood
    // The re-packing's search stops early enough that its set-up and the packing's
    // application stay within the cap (and the budget's limit).
    const std::int64_t within_limit = hard_cap() - budget_.spent() - repacking_reserve(problem_, members);
    const std::int64_t effort = std::min({kPackingEffort, effort_cap_ - budget_.spent(), within_limit});
    if (within_limit <= 0) break;
    improved |= repack_neighbourhood(problem_, members, shape.max_drops, budget_, effort, best);
  }
  return improved;
}

bool NeighbourhoodSearch::improve(Incumbent& best, std::int64_t effort_cap) {
  effort_cap_ = effort_cap;
  const double start = best.objective;
  for (const NeighbourhoodShape& shape : kShapes) {
    while (!out_of_effort() && improve_pass(best, shape)) {
    }
  }
  return best.objective > start;
}

}  // namespace hs::solver
