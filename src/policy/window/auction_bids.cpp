#include "policy/window/auction_bids.hpp"

#include <algorithm>
#include <deque>
#include <numeric>
#include <optional>
#include <set>
#include <utility>

#include "policy/slurm/node_space.hpp"
#include "policy/slurm/select.hpp"
#include "policy/window/nodesets.hpp"

namespace hs::window {
namespace {

// Everything one job's bid generation at one gres level needs.
struct LevelContext {
  const FreeArrays* free;
  const WindowJob* job;
  std::span<const char> mask;
  std::int32_t g;
  std::int32_t node_count;
  std::span<const Nodeset> sets;  // owned by the call's NodesetCache
  PreferenceTable table;
  int slot;
};

class BidSink {
 public:
  BidSink(std::vector<Candidate>& out, int budget) : out_(out), budget_(budget) {}
  bool full() const { return added_ >= budget_; }
  int added() const { return added_; }
  void offer(Candidate c, const LevelContext& ctx) {
    if (full()) return;
    normalise(c);
    std::vector<std::int32_t> key{c.gres_per_node};
    key.insert(key.end(), c.nodes.begin(), c.nodes.end());
    key.insert(key.end(), c.cores.begin(), c.cores.end());
    if (!seen_.insert(std::move(key)).second) return;
    c.preference = preference(ctx.table, *ctx.job, c, ctx.node_count,
                              static_cast<std::int32_t>(ctx.sets.size()));
    out_.push_back(std::move(c));
    ++added_;
  }

 private:
  std::vector<Candidate>& out_;
  int budget_;
  int added_ = 0;
  std::set<std::vector<std::int32_t>> seen_;
};

std::vector<std::int32_t> caps_of(const LevelContext& ctx, std::span<const NodeIndex> order) {
  std::vector<std::int32_t> caps(order.size());
  for (std::size_t k = 0; k < order.size(); ++k) caps[k] = core_cap(*ctx.free, *ctx.job, order[k]);
  return caps;
}

// The caps of the part of `order` that take_prefix walks: it stops at the first prefix that
// holds the job's cores and node minimum, so the nodes after it (most of a wide nodeset
// for a small job) are not read.
std::vector<std::int32_t> walked_caps(const LevelContext& ctx, std::span<const NodeIndex> order) {
  std::vector<std::int32_t> caps;
  caps.reserve(order.size());
  std::int64_t sum = 0;
  for (const NodeIndex n : order) {
    if (sum >= ctx.job->cores && static_cast<std::int32_t>(caps.size()) >= ctx.job->nodes_min)
      break;
    caps.push_back(core_cap(*ctx.free, *ctx.job, n));
    sum += caps.back();
  }
  return caps;
}

// Picks nodes along `order` and shapes the cores the way the job type asks.
bool place(const LevelContext& ctx, std::span<const NodeIndex> order, BidClass cls,
           Candidate& out) {
  const auto caps = walked_caps(ctx, order);
  out = Candidate{};
  out.slot = ctx.slot;
  out.cls = cls;
  out.gres_per_node = ctx.g;
  if (!take_prefix(order.first(caps.size()), caps, *ctx.job, ctx.node_count, out)) return false;
  if (ctx.job->type == JobType::NodesAndCores) {
    std::vector<std::int32_t> even;
    if (!spread_evenly(std::span(caps).first(out.nodes.size()), ctx.job->cores, even))
      return false;
    out.cores = even;
  }
  return true;
}

std::vector<NodeIndex> nodes_of(const Nodeset& s) {
  std::vector<NodeIndex> v(s.size());
  std::iota(v.begin(), v.end(), s.first);
  return v;
}

// Whether place() could succeed on the set alone. Its free cores bound the job's usable
// cores from above, so on a full machine most sets fail here without a walk; every bid of
// class A or B drawn from a set needs it to pass.
bool set_may_hold(const LevelContext& ctx, const Nodeset& s) {
  return s.cores >= ctx.job->cores && s.size() >= ctx.job->nodes_min;
}

// The nodes of consecutive sets, in order.
std::vector<NodeIndex> nodes_of(std::span<const Nodeset> sets) {
  std::size_t count = 0;
  for (const Nodeset& s : sets) count += s.size();
  std::vector<NodeIndex> v;
  v.reserve(count);
  for (const Nodeset& s : sets)
    for (NodeIndex n = s.first; n <= s.last; ++n) v.push_back(n);
  return v;
}

void class_a(const LevelContext& ctx, BidSink& sink) {
  for (const Nodeset& s : ctx.sets) {
    if (sink.full()) return;
    if (!set_may_hold(ctx, s)) continue;
    auto order = nodes_of(s);
    Candidate c;
    if (!place(ctx, order, BidClass::A, c)) continue;
    const std::size_t used = c.nodes.size();
    sink.offer(std::move(c), ctx);
    std::reverse(order.begin(), order.end());
    if (place(ctx, order, BidClass::A, c)) sink.offer(std::move(c), ctx);
    // Type 1: the whole nodeset with cores spread evenly, the bid the u/r formulation gets
    // when the class is the full nodeset (frees cores on every node for gres jobs).
    if (ctx.job->type == JobType::CoresOnly && order.size() > used &&
        static_cast<std::int32_t>(order.size()) <= effective_nodes_max(*ctx.job, ctx.node_count)) {
      const auto caps = caps_of(ctx, order);
      Candidate w;
      w.slot = ctx.slot;
      w.cls = BidClass::A;
      w.gres_per_node = ctx.g;
      w.nodes = order;
      if (spread_evenly(caps, ctx.job->cores, w.cores)) sink.offer(std::move(w), ctx);
    }
  }
}

void class_b(const LevelContext& ctx, BidSink& sink) {
  for (const Nodeset& s : ctx.sets) {
    if (!set_may_hold(ctx, s)) continue;
    const auto order = nodes_of(s);
    Candidate first;
    if (!place(ctx, order, BidClass::B, first)) continue;
    const std::size_t step = first.nodes.size();
    for (std::size_t p = step; p < order.size() && !sink.full(); p += step) {
      Candidate c;
      if (!place(ctx, std::span(order).subspan(p), BidClass::B, c)) break;
      if (c.nodes.back() == s.last || c.nodes.front() == s.last) break;  // aligned: that is A
      sink.offer(std::move(c), ctx);
    }
    if (sink.full()) return;
  }
}

// Usable cores of the job in a nodeset (cpn-capped).
std::int64_t usable_cores(const LevelContext& ctx, const Nodeset& s) {
  std::int64_t sum = 0;
  for (NodeIndex n = s.first; n <= s.last; ++n) sum += core_cap(*ctx.free, *ctx.job, n);
  return sum;
}

bool enough(const LevelContext& ctx, std::int64_t cores, std::int64_t nodes) {
  return cores >= ctx.job->cores && nodes >= ctx.job->nodes_min;
}

void class_c(const LevelContext& ctx, BidSink& sink) {
  std::vector<std::int64_t> usable(ctx.sets.size());
  for (std::size_t k = 0; k < ctx.sets.size(); ++k) usable[k] = usable_cores(ctx, ctx.sets[k]);
  for (std::size_t k = 0; k < ctx.sets.size() && !sink.full(); ++k) {
    if (enough(ctx, usable[k], ctx.sets[k].size())) continue;  // A/B cover it
    std::int64_t cores = 0, nodes = 0;
    for (std::size_t m = k; m < ctx.sets.size(); ++m) {
      cores += usable[m];
      nodes += ctx.sets[m].size();
      if (!enough(ctx, cores, nodes)) continue;
      // Only the first enough run of sets is placed (a longer order has the same prefix),
      // so only its nodes are listed.
      const auto order = nodes_of(ctx.sets.subspan(k, m - k + 1));
      Candidate c;
      if (place(ctx, order, BidClass::C, c)) {
        c.nodesets = static_cast<std::int32_t>(m - k + 1);
        sink.offer(std::move(c), ctx);
      }
      break;
    }
  }
}

// False when the job's nodesets at this level cannot hold it even together. The free cores
// of the nodesets bound their usable cores from above: most jobs of a full machine's window
// fail on that sum without a walk over the nodes.
bool level_can_hold(const LevelContext& ctx) {
  std::int64_t free_cores = 0, nodes = 0;
  for (const Nodeset& s : ctx.sets) {
    free_cores += s.cores;
    nodes += s.size();
  }
  if (!enough(ctx, free_cores, nodes)) return false;
  std::int64_t cores = 0;
  for (const Nodeset& s : ctx.sets) {
    cores += usable_cores(ctx, s);
    if (cores >= ctx.job->cores) return true;  // nodes already suffice
  }
  return false;
}

// Runs of the job's usable nodes under every switch whose level is `switch_level`; a run
// never leaves its switch. Sorted by first node.
std::vector<Nodeset> switch_nodesets(const SwitchTree& tree, const FreeArrays& free,
                                     const WindowJob& job, std::span<const char> mask,
                                     std::int32_t g, std::int32_t switch_level) {
  auto usable = [&](NodeIndex n) { return node_fits(free, job, mask, n, g); };
  std::vector<Nodeset> all;
  for (std::size_t s = 0; s < tree.switches.size(); ++s) {
    if (tree.switches[s].level != switch_level) continue;
    auto runs = build_runs(tree.switches[s].nodes, usable, free.cores, g,
                           static_cast<std::int32_t>(s));
    all.insert(all.end(), runs.begin(), runs.end());
  }
  std::sort(all.begin(), all.end(),
            [](const Nodeset& a, const Nodeset& b) { return a.first < b.first; });
  return all;
}

// The documents' 1-D nodesets over the whole node order.
std::vector<Nodeset> flat_nodesets(const FreeArrays& free, const WindowJob& job,
                                   std::span<const char> mask, std::int32_t g) {
  auto usable = [&](NodeIndex n) { return node_fits(free, job, mask, n, g); };
  return build_runs_over_range(0, free.node_count(), usable, free.cores, g, 0);
}

// Nodeset scopes tried in turn until one yields a bid: AUCSCHED3 starts with the leaf
// switches (the documents' per-switch nodesets) and climbs one switch level at a time, so a
// job wider than a leaf still finds contiguous runs under a higher switch; the last scope is
// always the flat 1-D order (nodes outside the tree, disjoint trees). 0 = flat.
std::vector<std::int32_t> nodeset_scopes(const Cluster& cluster, bool per_switch) {
  std::vector<std::int32_t> scopes;
  if (per_switch && cluster.topology)
    for (std::int32_t l = 1; l <= cluster.topology->max_level(); ++l) scopes.push_back(l);
  scopes.push_back(0);
  return scopes;
}

// What a job's nodesets depend on (node_fits plus the scope): jobs of a window that agree
// on it share one set of runs.
struct NodesetKey {
  std::int32_t min_cores = 1;
  std::int32_t gres_type = -1;  // only when g > 0
  std::int32_t g = 0;
  std::int64_t mem_per_node_mb = 0;
  std::int32_t scope = 0;
  std::vector<char> mask;
  bool operator==(const NodesetKey&) const = default;
};

NodesetKey nodeset_key(const WindowJob& job, std::span<const char> mask, std::int32_t g,
                       std::int32_t scope) {
  NodesetKey key;
  key.min_cores = std::max(1, job.cores_per_node);
  key.gres_type = g > 0 ? job.gres_type : -1;
  key.g = g;
  key.mem_per_node_mb = std::max<std::int64_t>(0, job.mem_per_node_mb);
  key.scope = scope;
  key.mask.assign(mask.begin(), mask.end());
  return key;
}

// Nodesets of one bid generation call (one free state), shared between window jobs.
class NodesetCache {
 public:
  const std::vector<Nodeset>& sets(const Cluster& cluster, const FreeArrays& free,
                                   const WindowJob& job, std::span<const char> mask,
                                   std::int32_t g, std::int32_t scope) {
    NodesetKey key = nodeset_key(job, mask, g, scope);
    for (const auto& [k, v] : entries_)
      if (k == key) return v;
    entries_.emplace_back(std::move(key),
                          scope > 0 ? switch_nodesets(*cluster.topology, free, job, mask, g, scope)
                                    : flat_nodesets(free, job, mask, g));
    return entries_.back().second;
  }

 private:
  std::deque<std::pair<NodesetKey, std::vector<Nodeset>>> entries_;  // stable references
};

std::vector<LevelContext> gres_levels(const Cluster& cluster, const FreeArrays& free,
                                      const WindowJob& job, int slot,
                                      std::span<const char> mask, const AuctionConfig& config,
                                      std::int32_t scope, NodesetCache& cache) {
  std::vector<LevelContext> levels;
  const std::int32_t top = config.gres_ranges ? job.gres_max : job.gres_min;
  for (std::int32_t g = top; g >= job.gres_min; --g) {
    LevelContext ctx{&free, &job, mask, g, free.node_count(), {}, config.table, slot};
    ctx.sets = cache.sets(cluster, free, job, mask, g, scope);
    if (level_can_hold(ctx)) levels.push_back(std::move(ctx));
  }
  return levels;
}

int job_bids(const Cluster& cluster, const FreeArrays& free, const WindowJob& job, int slot,
             std::span<const char> mask, const AuctionConfig& config, int budget,
             NodesetCache& cache, std::vector<Candidate>& out) {
  BidSink sink(out, budget);
  for (std::int32_t scope : nodeset_scopes(cluster, config.per_switch)) {
    const auto levels = gres_levels(cluster, free, job, slot, mask, config, scope, cache);
    for (const auto& ctx : levels) class_a(ctx, sink);
    for (const auto& ctx : levels) class_b(ctx, sink);
    if (!job.contiguous)
      for (const auto& ctx : levels) class_c(ctx, sink);
    if (sink.added() > 0) break;
  }
  return sink.added();
}

}  // namespace

int generate_job_bids(const Cluster& cluster, const FreeArrays& free, const WindowJob& job,
                      int slot, std::span<const char> mask, const AuctionConfig& config,
                      int budget, std::vector<Candidate>& out) {
  NodesetCache cache;
  return job_bids(cluster, free, job, slot, mask, config, budget, cache, out);
}

namespace {

// Each partition's nodes as a bitset (all nodes without partitions), for the Slurm bids'
// SelectOptions::within: select_nodes then visits only the partition's nodes with free
// cores, which offer what a visit of every node would (a full node offers nothing), so
// the bids are the same. Built on first use in one generate_auction_bids call.
class PartitionBits {
 public:
  explicit PartitionBits(const Cluster& cluster) : cluster_(cluster) {}
  std::span<const std::uint64_t> of(const Job& job) {
    const std::size_t k = index_of(job);
    if (bits_.size() <= k) bits_.resize(k + 1);
    if (bits_[k].size() == 0) bits_[k] = bits_for(k);
    return bits_[k].words();
  }

 private:
  std::size_t index_of(const Job& job) const {
    const Partition* p = cluster_.partitions.empty() ? nullptr
                                                     : cluster_.find_partition(job.partition);
    return p ? static_cast<std::size_t>(p - cluster_.partitions.data()) + 1 : 0;
  }
  slurm::NodeBits bits_for(std::size_t k) const {
    if (k == 0) return slurm::NodeBits(cluster_.node_count(), true);
    slurm::NodeBits b(cluster_.node_count());
    for (NodeIndex n : cluster_.partitions[k - 1].nodes) b.set(n);
    return b;
  }
  const Cluster& cluster_;
  std::vector<slurm::NodeBits> bits_;
};

std::optional<Candidate> slurm_bid(const AuctionInput& in, const ClusterState& state, int slot,
                                   PartitionBits& partitions) {
  const WindowJob& job = in.window[slot];
  std::optional<Allocation> alloc;
  try {
    slurm::SelectOptions options;
    options.within = partitions.of(*in.jobs[slot]);
    alloc = slurm::select_nodes(*in.cluster, state, *in.jobs[slot], options);
  } catch (const std::exception&) {
    return std::nullopt;  // the Slurm model refused the request: no Slurm bid
  }
  if (!alloc || alloc->shares.empty()) return std::nullopt;
  Candidate c;
  c.slot = slot;
  c.cls = BidClass::Slurm;
  c.gres_per_node = job.gres_type >= 0 ? alloc->shares.front().gres[job.gres_type] : 0;
  for (const NodeShare& s : alloc->shares) {
    if (job.gres_type >= 0 && s.gres[job.gres_type] != c.gres_per_node) return std::nullopt;
    if (!in.masks[slot].empty() && !in.masks[slot][s.node]) return std::nullopt;
    c.nodes.push_back(s.node);
    c.cores.push_back(s.cores);
  }
  c.preference = 1.0;
  return c;
}

// AUCSCHED1's Slurm bids plan on a copy of the free state: each job's Slurm choice takes
// its allocation before the next job's. Most jobs of a full machine's window ask for more
// cores than are free: their choice fails without a node scan.
class SlurmPlan {
 public:
  explicit SlurmPlan(const ClusterState& now) : state_(now), free_cores_(state_.free_cores()) {}
  std::optional<Candidate> bid(const AuctionInput& in, int slot, PartitionBits& partitions) const {
    if (free_cores_ < slurm::cpus_needed(*in.jobs[slot])) return std::nullopt;
    return slurm_bid(in, state_, slot, partitions);
  }
  void take(const Allocation& alloc) {
    state_.take(alloc);
    free_cores_ = state_.free_cores();
  }

 private:
  ClusterState state_;
  std::int64_t free_cores_;
};

// Whether the job's usable free nodes hold its cores and node minimum at some gres level
// (the cheap test that guards the Slurm fallback).
bool free_resources_suffice(const Cluster& cluster, const FreeArrays& free, const WindowJob& job,
                            int slot, std::span<const char> mask, const AuctionConfig& config,
                            NodesetCache& cache) {
  return !gres_levels(cluster, free, job, slot, mask, config, 0, cache).empty();
}

}  // namespace

void BidMemo::begin(std::uint64_t free_serial) {
  if (free_serial == free_serial_) return;
  free_serial_ = free_serial;
  bids_.clear();
}

const std::vector<Candidate>* BidMemo::find(JobRef job) const {
  const auto it = bids_.find(job);
  return it == bids_.end() ? nullptr : &it->second;
}

void BidMemo::store(JobRef job, std::span<const Candidate> bids) {
  used_[job].assign(bids.begin(), bids.end());
}

void BidMemo::end() {
  bids_.swap(used_);
  used_.clear();
}

namespace {

// Appends the memo's bids of the job in `slot`; false when the memo does not know it.
bool reuse_bids(BidMemo& memo, JobRef job, int slot, std::vector<Candidate>& out) {
  const std::vector<Candidate>* known = memo.find(job);
  if (known == nullptr) return false;
  const std::size_t first = out.size();
  out.insert(out.end(), known->begin(), known->end());
  for (std::size_t k = first; k < out.size(); ++k) out[k].slot = slot;
  memo.store(job, *known);
  return true;
}

}  // namespace

std::vector<Candidate> generate_auction_bids(const AuctionInput& in, const AuctionConfig& config,
                                             BidMemo* memo) {
  std::optional<FreeArrays> built;
  if (in.free == nullptr) built = FreeArrays::from(*in.cluster, *in.state);
  const FreeArrays& free = in.free != nullptr ? *in.free : *built;
  std::optional<SlurmPlan> slurm_plan;
  if (config.slurm_bids) slurm_plan.emplace(*in.state);
  std::vector<Candidate> out;
  NodesetCache cache;  // `free` stays fixed for the whole call
  PartitionBits partitions(*in.cluster);
  if (config.slurm_bids) memo = nullptr;
  if (memo && in.free_serial == 0) memo = nullptr;  // the state has no number
  if (memo) memo->begin(in.free_serial);
  for (int slot = 0; slot < static_cast<int>(in.window.size()); ++slot) {
    if (memo && reuse_bids(*memo, in.window[slot].ref, slot, out)) {
      if (static_cast<int>(out.size()) >= config.max_bids) break;
      continue;
    }
    const std::size_t first = out.size();
    int count = 0;
    if (config.slurm_bids) {
      if (auto c = slurm_plan->bid(in, slot, partitions)) {
        slurm_plan->take(to_allocation(*in.cluster, *c, in.window[slot]));
        out.push_back(std::move(*c));
        ++count;
      }
    }
    count += job_bids(*in.cluster, free, in.window[slot], slot, in.masks[slot], config,
                      config.max_bids_per_job - count, cache, out);
    if (count == 0 && free_resources_suffice(*in.cluster, free, in.window[slot], slot,
                                             in.masks[slot], config, cache)) {
      // Last resort so that a job the free nodes can hold is never left without a bid.
      if (auto c = slurm_bid(in, *in.state, slot, partitions)) out.push_back(std::move(*c));
    }
    if (memo) memo->store(in.window[slot].ref, std::span(out).subspan(first));
    if (static_cast<int>(out.size()) >= config.max_bids) break;
  }
  if (memo) memo->end();
  return out;
}

}  // namespace hs::window
