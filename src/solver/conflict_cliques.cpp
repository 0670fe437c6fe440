#include "solver/conflict_cliques.hpp"

#include <algorithm>
#include <numeric>
#include <set>

namespace hs::solver {

namespace {

// The work left before the limit; every step charges what it touches before it starts.
class WorkMeter {
 public:
  explicit WorkMeter(std::int64_t limit) : limit_(limit) {}
  bool afford(std::int64_t cost) {
    if (cost > limit_ - work_) return false;
    work_ += cost;
    return true;
  }
  std::int64_t work() const { return work_; }

 private:
  std::int64_t limit_;
  std::int64_t work_ = 0;
};

using Adjacency = std::vector<std::vector<std::int32_t>>;

// A capacity row's bids by amount, largest first (ties: the lower bid).
struct RowEntry {
  double amount;
  std::int32_t bid;
};

// The capacity rows by amount, and where each bid sits in them.
struct SortedRows {
  std::vector<std::vector<RowEntry>> by_amount;                       // per row
  std::vector<std::vector<std::pair<std::int32_t, std::int32_t>>> places;  // per bid: (row, position)
};

// Each pair of one job's usable bids.
bool add_job_pairs(const CompactProblem& p, WorkMeter& meter, Adjacency& adj) {
  for (std::int32_t j = 0; j < p.jobs; ++j) {
    std::vector<std::int32_t> bids;
    for (std::int32_t k = p.job_bid_begin[j]; k < p.job_bid_begin[j + 1]; ++k)
      if (p.usable[p.job_bids[k]]) bids.push_back(p.job_bids[k]);
    const auto n = static_cast<std::int64_t>(bids.size());
    if (!meter.afford(n * n)) return false;
    for (std::int32_t a : bids)
      for (std::int32_t b : bids)
        if (a != b) adj[a].push_back(b);
  }
  return true;
}

bool sort_rows(const std::vector<CapacityRowView>& rows, std::size_t bids, WorkMeter& meter,
               SortedRows& sorted) {
  sorted.by_amount.assign(rows.size(), {});
  sorted.places.assign(bids, {});
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const MipRow& row = *rows[r].row;
    if (!meter.afford(2 * static_cast<std::int64_t>(row.columns.size()))) return false;
    std::vector<RowEntry>& entries = sorted.by_amount[r];
    for (std::size_t k = 0; k < row.columns.size(); ++k) entries.push_back({row.coefficients[k], row.columns[k]});
    std::sort(entries.begin(), entries.end(), [](const RowEntry& x, const RowEntry& y) {
      return x.amount > y.amount || (x.amount == y.amount && x.bid < y.bid);
    });
    for (std::size_t k = 0; k < entries.size(); ++k)
      sorted.places[entries[k].bid].emplace_back(static_cast<std::int32_t>(r), static_cast<std::int32_t>(k));
  }
  return true;
}

// Adds to bid a's list the bids that overflow a row of a's together with it and that the
// list does not hold yet (`seen[b] == a`: b is on it), one unit a bid visited.
bool add_row_partners(std::int32_t a, const std::vector<CapacityRowView>& rows, const SortedRows& sorted,
                      WorkMeter& meter, std::vector<std::int32_t>& seen, std::vector<std::int32_t>& list) {
  for (const auto& [r, position] : sorted.places[a]) {
    const std::vector<RowEntry>& entries = sorted.by_amount[static_cast<std::size_t>(r)];
    const double room = static_cast<double>(rows[static_cast<std::size_t>(r)].capacity) - entries[position].amount;
    for (std::int32_t k = 0; k < static_cast<std::int32_t>(entries.size()); ++k) {
      if (entries[k].amount <= room) break;  // amounts descend: no later bid overflows with a
      if (k == position) continue;
      if (!meter.afford(1)) return false;
      if (seen[entries[k].bid] != a) {
        seen[entries[k].bid] = a;
        list.push_back(entries[k].bid);
      }
    }
  }
  return true;
}

// Pairs of one job's usable bids, and pairs of bids that overflow a capacity row together,
// each list sorted and without repeats. Bids over runs of nodes (windows captured from
// replays) share dozens of rows, so a pair is met on many of them: each bid's partners are
// collected once, by a stamp, instead of a list of every meeting sorted afterwards (which
// took most of the time on such windows). False when the limit stopped it (the graph is
// then incomplete and unused).
bool build_conflicts(const CompactProblem& p, const std::vector<CapacityRowView>& rows,
                     WorkMeter& meter, Adjacency& adj) {
  adj.assign(static_cast<std::size_t>(p.bid_count()), {});
  SortedRows sorted;
  if (!add_job_pairs(p, meter, adj) || !sort_rows(rows, adj.size(), meter, sorted)) return false;
  std::vector<std::int32_t> seen(adj.size(), -1);
  for (std::int32_t a = 0; a < p.bid_count(); ++a) {
    std::vector<std::int32_t>& list = adj[a];
    for (std::int32_t b : list) seen[b] = a;
    if (!add_row_partners(a, rows, sorted, meter, seen, list)) return false;
    if (!meter.afford(static_cast<std::int64_t>(list.size()) + 1)) return false;
    std::sort(list.begin(), list.end());
  }
  return true;
}

// Per-bid scratch for greedy_clique, kept from one seed to the next.
struct CliqueScratch {
  explicit CliqueScratch(std::size_t bids) : in_candidates(bids, 0), next(bids, 0), links(bids, 0) {}
  std::vector<std::int64_t> in_candidates;  // == round: still a candidate
  std::vector<std::int64_t> next;           // == round: conflicts with the bid just taken
  std::vector<std::int64_t> links;          // per candidate: its conflicts among the candidates
  std::int64_t round = 0;
};

// Grows a clique from `seed` greedily (see the header), keeping each candidate's count of
// conflicts among the candidates up to date as candidates drop out: about the sum of the
// seed's neighbours' degrees, instead of that sum at every step. Each step is charged before
// it runs: the scan for the best candidate, the chosen bid's conflicts marked, the sifting
// of the candidates, and the dropped ones' conflicts. Empty when the limit stopped it.
std::vector<std::int32_t> greedy_clique(const CompactProblem& p, const Adjacency& adj,
                                        std::int32_t seed, WorkMeter& meter, CliqueScratch& s) {
  std::vector<std::int32_t> clique{seed};
  std::vector<std::int32_t> candidates = adj[seed];
  const std::int64_t round = ++s.round;
  std::int64_t cost = static_cast<std::int64_t>(candidates.size());
  for (std::int32_t k : candidates) cost += static_cast<std::int64_t>(adj[k].size());
  if (!meter.afford(cost)) return {};
  for (std::int32_t k : candidates) s.in_candidates[k] = round;
  for (std::int32_t k : candidates) {
    s.links[k] = 0;
    for (std::int32_t m : adj[k]) s.links[k] += s.in_candidates[m] == round ? 1 : 0;
  }
  std::vector<std::int32_t> dropped;
  while (!candidates.empty()) {
    const auto scanned = static_cast<std::int64_t>(candidates.size());
    if (!meter.afford(2 * scanned)) return {};  // the best candidate's scan, then the sifting
    std::int32_t chosen = candidates.front();  // candidates ascend: ties keep the lower index
    for (std::int32_t k : candidates)
      if (s.links[k] > s.links[chosen] || (s.links[k] == s.links[chosen] && p.value[k] > p.value[chosen]))
        chosen = k;
    clique.push_back(chosen);
    if (!meter.afford(static_cast<std::int64_t>(adj[chosen].size()))) return {};
    const std::int64_t mark = ++s.round;
    for (std::int32_t m : adj[chosen]) s.next[m] = mark;
    dropped.clear();
    std::erase_if(candidates, [&](std::int32_t k) {
      if (s.next[k] == mark) return false;
      dropped.push_back(k);  // the chosen bid among them
      return true;
    });
    cost = 0;
    for (std::int32_t k : dropped) cost += 1 + static_cast<std::int64_t>(adj[k].size());
    if (!meter.afford(cost)) return {};
    for (std::int32_t k : dropped) s.in_candidates[k] = 0;
    for (std::int32_t k : dropped)
      for (std::int32_t m : adj[k]) s.links[m] -= s.in_candidates[m] == round ? 1 : 0;
  }
  if (!meter.afford(static_cast<std::int64_t>(clique.size()))) return {};  // sorted, then compared
  std::sort(clique.begin(), clique.end());
  return clique;
}

bool spans_two_jobs(const CompactProblem& p, const std::vector<std::int32_t>& clique) {
  for (std::int32_t b : clique)
    if (p.job_of_bid[b] != p.job_of_bid[clique.front()]) return true;
  return false;
}

}  // namespace

ConflictCliques conflict_cliques(const CompactProblem& p, const std::vector<CapacityRowView>& rows,
                                 std::int64_t work_limit) {
  WorkMeter meter(work_limit);
  ConflictCliques result;
  Adjacency adj;
  if (!build_conflicts(p, rows, meter, adj) || !meter.afford(p.bid_count() /* the seeds' order */)) {
    result.work = meter.work();
    return result;
  }
  std::vector<std::int32_t> order(static_cast<std::size_t>(p.bid_count()));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::int32_t a, std::int32_t b) { return p.value[a] > p.value[b]; });
  CliqueScratch scratch(order.size());
  std::set<std::vector<std::int32_t>> seen;
  std::vector<char> covered(order.size(), 0);  // in a clique kept: not a seed again
  for (std::int32_t seed : order) {
    if (!p.usable[seed] || adj[seed].size() < 2 || covered[seed]) continue;
    std::vector<std::int32_t> clique = greedy_clique(p, adj, seed, meter, scratch);
    if (clique.empty()) break;  // the limit
    if (clique.size() < 3 || !spans_two_jobs(p, clique) || !seen.insert(clique).second) continue;
    for (std::int32_t b : clique) covered[b] = 1;
    result.cliques.push_back(std::move(clique));
  }
  result.work = meter.work();
  return result;
}

}  // namespace hs::solver
