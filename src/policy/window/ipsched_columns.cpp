#include "policy/window/ipsched_columns.hpp"

#include <algorithm>
#include <numeric>

#include "policy/window/column_orders.hpp"

namespace hs::window {
namespace {

std::vector<NodeIndex> eligible_nodes(const FreeArrays& free, const WindowJob& job,
                                      std::span<const char> mask) {
  std::vector<NodeIndex> v;
  for (NodeIndex n = 0; n < free.node_count(); ++n)
    if (node_fits(free, job, mask, n, job.gres_min)) v.push_back(n);
  return v;
}

// eligible_nodes on `free`, given `base`, the eligible nodes on a state that differs from
// `free` only on the `changed` nodes: only those are tested again.
std::vector<NodeIndex> eligible_after_change(const FreeArrays& free, const WindowJob& job,
                                             std::span<const char> mask,
                                             const std::vector<NodeIndex>& base,
                                             std::span<const NodeIndex> changed_nodes) {
  std::vector<NodeIndex> changed(changed_nodes.begin(), changed_nodes.end());
  std::sort(changed.begin(), changed.end());
  changed.erase(std::unique(changed.begin(), changed.end()), changed.end());
  std::vector<NodeIndex> v;
  v.reserve(base.size() + changed.size());
  std::size_t i = 0, k = 0;
  while (i < base.size() || k < changed.size()) {
    if (k == changed.size() || (i < base.size() && base[i] < changed[k])) {
      v.push_back(base[i++]);
      continue;
    }
    const NodeIndex n = changed[k++];
    if (i < base.size() && base[i] == n) ++i;
    if (node_fits(free, job, mask, n, job.gres_min)) v.push_back(n);
  }
  return v;
}

// eligible_nodes on `free` when `free` only lost capacity since `base` was computed (a
// sequential fill taking columns): eligibility cannot appear, so only `base` is tested.
std::vector<NodeIndex> still_eligible(const FreeArrays& free, const WindowJob& job,
                                      std::span<const char> mask,
                                      const std::vector<NodeIndex>& base) {
  std::vector<NodeIndex> v;
  v.reserve(base.size());
  for (NodeIndex n : base)
    if (node_fits(free, job, mask, n, job.gres_min)) v.push_back(n);
  return v;
}

// The nodes with a free core, ascending: every node a job can use is one of them.
std::vector<NodeIndex> open_nodes(const FreeArrays& free) {
  std::vector<NodeIndex> v;
  for (NodeIndex n = 0; n < free.node_count(); ++n)
    if (free.cores[n] > 0) v.push_back(n);
  return v;
}

// still_eligible when only the `touched` nodes lost capacity since `base` was computed:
// only those are tested again. Written to `out`, which is returned.
const std::vector<NodeIndex>& still_eligible_off(const FreeArrays& free, const WindowJob& job,
                                                 std::span<const char> mask,
                                                 const std::vector<NodeIndex>& base,
                                                 const std::vector<char>& touched,
                                                 std::vector<NodeIndex>& out) {
  out.clear();
  for (NodeIndex n : base)
    if (!touched[n] || node_fits(free, job, mask, n, job.gres_min)) out.push_back(n);
  return out;
}

// Eligible nodes per window slot on one free state, computed on first use from the state's
// open nodes (on a busy machine most nodes have no free core).
class EligibleCache {
 public:
  EligibleCache(const FreeArrays& free, std::span<const WindowJob> window,
                std::span<const std::vector<char>> masks)
      : free_(free), window_(window), masks_(masks), open_(open_nodes(free)),
        nodes_(window.size()), known_(window.size(), 0) {}
  const std::vector<NodeIndex>& of(int slot) {
    if (!known_[slot]) nodes_[slot] = still_eligible(free_, window_[slot], masks_[slot], open_);
    known_[slot] = 1;
    return nodes_[slot];
  }

 private:
  const FreeArrays& free_;
  std::span<const WindowJob> window_;
  std::span<const std::vector<char>> masks_;
  std::vector<NodeIndex> open_;
  std::vector<std::vector<NodeIndex>> nodes_;
  std::vector<char> known_;
};

}  // namespace

namespace {

// --contiguous (not in IPSCHED's documents, but a request the allocation must honour):
// Packed/GresSaving take the fewest nodes over every consecutive run of eligible nodes,
// Spread the longest feasible run with cores spread evenly.
bool contiguous_column(const FreeArrays& free, const WindowJob& job,
                       const std::vector<NodeIndex>& nodes, ColumnShape shape, Candidate& out) {
  bool found = false;
  Candidate best;
  for (std::size_t a = 0; a < nodes.size();) {
    std::size_t b = a + 1;
    while (b < nodes.size() && nodes[b] == nodes[b - 1] + 1) ++b;
    const std::span<const NodeIndex> run(nodes.data() + a, b - a);
    std::vector<std::int32_t> caps(run.size());
    for (std::size_t k = 0; k < run.size(); ++k) caps[k] = core_cap(free, job, run[k]);
    for (std::size_t s = 0; s < run.size(); ++s) {
      Candidate c = out;
      if (shape == ColumnShape::Spread) {
        const std::size_t k = std::min<std::size_t>(run.size() - s,
                                                    effective_nodes_max(job, free.node_count()));
        if (static_cast<std::int32_t>(k) < job.nodes_min) break;
        c.nodes.assign(run.begin() + s, run.begin() + s + k);
        if (!spread_evenly(std::span(caps).subspan(s, k), job.cores, c.cores)) continue;
        if (!found || c.nodes.size() > best.nodes.size()) best = c, found = true;
        break;
      }
      if (!take_prefix(run.subspan(s), std::span(caps).subspan(s), job, free.node_count(), c))
        continue;
      if (!found || c.nodes.size() < best.nodes.size()) best = c, found = true;
    }
    a = b;
  }
  if (found) out = best;
  return found;
}

}  // namespace

namespace {

bool build_column_on(const FreeArrays& free, const WindowJob& job, int slot,
                     const std::vector<NodeIndex>& eligible, ColumnShape shape,
                     ShapeOrders& orders, Candidate& out) {
  if (!orders.can_fit(free, job, eligible))
    return false;  // cannot fit at all: skip the copy and the sorting below
  if (job.contiguous) {
    out = Candidate{};
    out.slot = slot;
    out.cls = BidClass::Column;
    out.gres_per_node = job.gres_type >= 0 ? job.gres_min : 0;
    return contiguous_column(free, job, eligible, shape, out);
  }
  if (eligible.empty()) return false;
  // Best fit reads the whole order (best_fit); the other shapes read at most the first nmax
  // nodes (take_prefix gives up there, Spread takes that many), so only those are sorted.
  const bool whole = shape == ColumnShape::BestFit && job.nodes_min <= 1 && job.cores_per_node == 0;
  out = Candidate{};
  out.slot = slot;
  out.cls = BidClass::Column;
  out.gres_per_node = job.gres_type >= 0 ? job.gres_min : 0;
  if (whole) return best_fit(free, job, eligible, out);
  const auto nmax = static_cast<std::size_t>(effective_nodes_max(job, free.node_count()));
  const auto& [nodes, caps] = orders.of(free, job, shape, nmax, eligible);
  if (shape != ColumnShape::Spread) {
    if (!take_prefix(nodes, caps, job, free.node_count(), out)) return false;
    normalise(out);
    return true;
  }
  const auto k = std::min<std::size_t>(nodes.size(), nmax);
  if (static_cast<std::int32_t>(k) < job.nodes_min) return false;
  out.nodes.assign(nodes.begin(), nodes.begin() + k);
  if (!spread_evenly(std::span(caps).first(k), job.cores, out.cores)) return false;
  normalise(out);
  return true;
}

}  // namespace

bool build_column(const FreeArrays& free, const WindowJob& job, int slot,
                  std::span<const char> mask, ColumnShape shape, Candidate& out) {
  return build_column_among(free, job, slot, eligible_nodes(free, job, mask), shape, out);
}

bool build_column_among(const FreeArrays& free, const WindowJob& job, int slot,
                        const std::vector<NodeIndex>& eligible, ColumnShape shape, Candidate& out) {
  ShapeOrders orders;
  return build_column_on(free, job, slot, eligible, shape, orders, out);
}

namespace {

struct Enumerator {
  const std::vector<NodeIndex>& nodes;
  const std::vector<std::int32_t>& caps;
  const WindowJob& job;
  std::int32_t nmax;
  std::int64_t cap;
  int slot;
  std::int32_t gres;
  std::vector<Candidate>& out;
  std::vector<std::int32_t> cur;
  std::vector<std::int64_t> suffix;  // caps summed from position k on
  bool overflow = false;

  void emit() {
    Candidate c;
    c.slot = slot;
    c.cls = BidClass::Column;
    c.gres_per_node = gres;
    for (std::size_t k = 0; k < cur.size(); ++k)
      if (cur[k] > 0) {
        c.nodes.push_back(nodes[k]);
        c.cores.push_back(cur[k]);
      }
    out.push_back(std::move(c));
    if (static_cast<std::int64_t>(out.size()) > cap) overflow = true;
  }
  void walk(std::size_t k, std::int32_t left, std::int32_t used) {
    if (overflow || used > nmax || suffix[k] < left) return;
    if (k == nodes.size()) {
      if (left == 0 && used >= job.nodes_min) emit();
      return;
    }
    for (std::int32_t x = std::min(left, caps[k]); x >= 0; --x) {
      cur[k] = x;
      walk(k + 1, left - x, used + (x > 0 ? 1 : 0));
    }
    cur[k] = 0;
  }
};

}  // namespace

bool enumerate_columns(const FreeArrays& free, const WindowJob& job, int slot,
                       std::span<const char> mask, std::int64_t cap,
                       std::vector<Candidate>& out) {
  const auto nodes = eligible_nodes(free, job, mask);
  std::vector<std::int32_t> caps(nodes.size());
  for (std::size_t k = 0; k < nodes.size(); ++k) caps[k] = core_cap(free, job, nodes[k]);
  std::vector<Candidate> found;
  Enumerator e{nodes, caps, job, effective_nodes_max(job, free.node_count()), cap, slot,
               job.gres_type >= 0 ? job.gres_min : 0, found, std::vector<std::int32_t>(nodes.size(), 0),
               std::vector<std::int64_t>(nodes.size() + 1, 0)};
  for (std::size_t k = nodes.size(); k-- > 0;) e.suffix[k] = e.suffix[k + 1] + caps[k];
  e.walk(0, job.cores, 0);
  if (e.overflow) return false;
  // cpn jobs take exactly cpn on every node but one (the remainder).
  for (auto& c : found) {
    if (job.contiguous && c.nodes.back() - c.nodes.front() + 1 != static_cast<int>(c.nodes.size()))
      continue;
    if (job.cores_per_node > 0) {
      int partial = 0;
      for (auto x : c.cores) partial += x != job.cores_per_node;
      if (partial > 1) continue;
    }
    out.push_back(std::move(c));
  }
  return true;
}

bool ColumnPool::add(Candidate c) {
  std::vector<std::int32_t> key{c.slot, c.gres_per_node};
  key.insert(key.end(), c.nodes.begin(), c.nodes.end());
  key.push_back(-1);
  key.insert(key.end(), c.cores.begin(), c.cores.end());
  auto it = std::lower_bound(keys_.begin(), keys_.end(), key);
  if (it != keys_.end() && *it == key) return false;
  keys_.insert(it, std::move(key));
  columns_.push_back(std::move(c));
  return true;
}

namespace {

constexpr ColumnShape kShapes[] = {ColumnShape::Packed, ColumnShape::GresSaving,
                                   ColumnShape::Spread, ColumnShape::BestFit};

// One pass over the window in `order`, each job placed on what the earlier ones left.
// `work` is the free state of `on_free` (a separate copy): the columns are taken on it and
// given back at the end, instead of filling a copy of the whole free state per call.
void sequential_fill(FreeArrays& work, std::span<const WindowJob> window,
                     std::span<const std::vector<char>> masks, const std::vector<int>& order,
                     ColumnShape shape, EligibleCache& on_free, ColumnPool& pool) {
  std::vector<Candidate> taken;
  std::vector<char> touched(work.node_count(), 0);  // nodes the fill has taken from
  std::vector<NodeIndex> scratch;
  for (int slot : order) {
    Candidate c;
    const std::vector<NodeIndex>& base = on_free.of(slot);
    const std::vector<NodeIndex>& nodes =
        taken.empty() ? base : still_eligible_off(work, window[slot], masks[slot], base, touched, scratch);
    ShapeOrders orders;
    // Packed again only when it is not the shape that just failed.
    if (!build_column_on(work, window[slot], slot, nodes, shape, orders, c) &&
        (shape == ColumnShape::Packed ||
         !build_column_on(work, window[slot], slot, nodes, ColumnShape::Packed, orders, c)))
      continue;
    work.take(c, window[slot]);
    for (NodeIndex n : c.nodes) touched[n] = 1;
    taken.push_back(c);
    pool.add(std::move(c));
  }
  for (const Candidate& c : taken) work.give_back(c, window[c.slot]);
}

}  // namespace

void initial_columns(const FreeArrays& free, std::span<const WindowJob> window,
                     std::span<const std::vector<char>> masks, ColumnPool& pool) {
  EligibleCache eligible(free, window, masks);
  for (int slot = 0; slot < static_cast<int>(window.size()); ++slot) {
    const auto& nodes = eligible.of(slot);
    ShapeOrders orders;
    for (ColumnShape shape : kShapes) {
      Candidate c;
      if (build_column_on(free, window[slot], slot, nodes, shape, orders, c)) pool.add(std::move(c));
    }
  }
  // Sequential fills in window order and in ascending size order (small jobs first gives
  // them distinct nodes, the columns a large job at the window front would otherwise hide).
  std::vector<int> by_window(window.size()), by_size(window.size());
  std::iota(by_window.begin(), by_window.end(), 0);
  by_size = by_window;
  std::stable_sort(by_size.begin(), by_size.end(),
                   [&](int a, int b) { return window[a].cores < window[b].cores; });
  FreeArrays work = free;  // a copy: `eligible` reads `free` lazily
  for (const auto* order : {&by_window, &by_size}) {
    // A fill depends only on its order and shape: the same order again adds nothing new.
    if (order == &by_size && by_size == by_window) break;
    for (ColumnShape shape : kShapes)
      sequential_fill(work, window, masks, *order, shape, eligible, pool);
  }
}

namespace {

// The loser placed where the winner was, the winner re-placed on what is left. `work` holds
// the residual on entry and again on return: the winner's and the loser's columns are given
// back and taken on it instead of on copies of the whole free state. `eligible` holds both
// jobs' eligible nodes on the residual; opening the winner's nodes and taking the loser's
// column change eligibility only on those nodes.
int repack_pair(FreeArrays& work, std::span<const WindowJob> window,
                std::span<const std::vector<char>> masks, int loser, const Candidate& winner,
                EligibleCache& eligible, ColumnPool& pool) {
  const int ws_slot = winner.slot;
  work.give_back(winner, window[ws_slot]);
  const auto loser_nodes =
      eligible_after_change(work, window[loser], masks[loser], eligible.of(loser), winner.nodes);
  const auto winner_opened = eligible_after_change(work, window[ws_slot], masks[ws_slot],
                                                   eligible.of(ws_slot), winner.nodes);
  int added = 0;
  ShapeOrders loser_orders;  // `work` is the same for each of the loser's shapes
  for (ColumnShape ls : kShapes) {
    Candidate lc;
    if (!build_column_on(work, window[loser], loser, loser_nodes, ls, loser_orders, lc)) continue;
    work.take(lc, window[loser]);
    const auto winner_nodes =
        eligible_after_change(work, window[ws_slot], masks[ws_slot], winner_opened, lc.nodes);
    ShapeOrders winner_orders;
    for (ColumnShape ws : kShapes) {
      Candidate wc;
      if (!build_column_on(work, window[ws_slot], ws_slot, winner_nodes, ws, winner_orders, wc))
        continue;
      added += pool.add(lc) ? 1 : 0;
      added += pool.add(std::move(wc)) ? 1 : 0;
      break;
    }
    work.give_back(lc, window[loser]);
  }
  work.take(winner, window[ws_slot]);
  return added;
}

}  // namespace

int residual_columns(const FreeArrays& residual_in, std::span<const WindowJob> window,
                     std::span<const std::vector<char>> masks,
                     std::span<const Candidate> winners, int repack_losers, int repack_pairs,
                     ColumnPool& pool) {
  std::vector<char> started(window.size(), 0);
  for (const Candidate& w : winners) started[w.slot] = 1;
  FreeArrays residual = residual_in;
  std::vector<Candidate> taken;  // the columns taken on `residual` below
  EligibleCache eligible(residual_in, window, masks);
  int added = 0;
  for (int slot = 0; slot < static_cast<int>(window.size()); ++slot) {
    if (started[slot]) continue;
    bool took = false;
    auto nodes = still_eligible(residual, window[slot], masks[slot], eligible.of(slot));
    ShapeOrders orders;
    for (ColumnShape shape : kShapes) {
      Candidate c;
      if (!build_column_on(residual, window[slot], slot, nodes, shape, orders, c)) continue;
      if (!took) {
        residual.take(c, window[slot]);
        taken.push_back(c);
        took = true;
        nodes = still_eligible(residual, window[slot], masks[slot], nodes);  // after the take
        orders.forget();
      }
      added += pool.add(std::move(c)) ? 1 : 0;
    }
  }
  // Back to residual_in: the repacks below take and give back on it (each leaves it as it
  // found it) instead of on copies of the whole state.
  for (const Candidate& c : taken) residual.give_back(c, window[c.slot]);
  int losers = 0, pairs = 0;
  for (int slot = 0; slot < static_cast<int>(window.size()) && losers < repack_losers; ++slot) {
    if (started[slot]) continue;
    ++losers;
    for (const Candidate& w : winners) {
      if (pairs++ >= repack_pairs) return added;
      added += repack_pair(residual, window, masks, slot, w, eligible, pool);
    }
  }
  return added;
}

}  // namespace hs::window
