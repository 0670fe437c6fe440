#include "policy/heuristic/allocators.hpp"

#include <algorithm>
#include <numeric>

#include "util/error.hpp"

namespace hs::heuristic {

namespace {

// "gpu,mic" (also "gpu/mic" or "gpu+mic", since ',' separates options in a spec).
std::vector<std::string> split_types(const std::string& text) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : text + ",") {
    if (c == ',' || c == '/' || c == '+') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else if (c != ' ') {
      cur += c;
    }
  }
  return out;
}

// Critical gres type names, resolved against whichever cluster the allocator first sees.
// Names the cluster lacks are ignored (the Eurora default "gpu,mic" on a GPU-only machine).
class CriticalTypes {
 public:
  explicit CriticalTypes(std::vector<std::string> names) : names_(std::move(names)) {}
  const std::vector<int>& resolve(const Cluster& cluster) {
    if (resolved_for_ != &cluster) {
      indices_.clear();
      for (const auto& n : names_)
        if (int t = cluster.gres_index(n); t >= 0) indices_.push_back(t);
      resolved_for_ = &cluster;
    }
    return indices_;
  }
  const std::vector<int>& resolved() const { return indices_; }

 private:
  std::vector<std::string> names_;
  std::vector<int> indices_;
  const Cluster* resolved_for_ = nullptr;
};

void static_order(int count, std::vector<NodeIndex>& order) {
  order.resize(count);
  std::iota(order.begin(), order.end(), 0);
}

// Sorts node indices by a key, ties by index (stable 1-D order).
template <typename Key>
void order_by_key(const std::vector<Key>& key, std::vector<NodeIndex>& order) {
  static_order(static_cast<int>(key.size()), order);
  std::stable_sort(order.begin(), order.end(),
                   [&](NodeIndex a, NodeIndex b) { return key[a] < key[b]; });
}

class FirstFit final : public Allocator {
 public:
  std::string name() const override { return "ff"; }
  bool placement_is_stateless() const override { return true; }
  bool orders_cheaply() const override { return true; }
  void order_nodes(const Cluster&, const ClusterState& state, const JobUnits&,
                   std::vector<NodeIndex>& order) override {
    if (static_cast<int>(identity_.size()) != state.node_count())
      static_order(state.node_count(), identity_);
    order = identity_;
  }

 private:
  std::vector<NodeIndex> identity_;
};

class BestFit final : public Allocator {
 public:
  std::string name() const override { return "bf"; }
  bool placement_is_stateless() const override { return true; }
  void order_nodes(const Cluster& cluster, const ClusterState& state, const JobUnits&,
                   std::vector<NodeIndex>& order) override {
    key_.resize(state.node_count());
    for (NodeIndex n = 0; n < state.node_count(); ++n) {
      const NodeFree& f = state.node(n);
      key_[n] = f.cores;
      for (int t = 0; t < kMaxGresTypes; ++t)  // a typed unit is counted once, by its name
        if (!cluster.is_gres_kind(t)) key_[n] += f.gres[t];
    }
    order_by_key(key_, order);
  }

 private:
  std::vector<std::int64_t> key_;
};

class Balanced final : public Allocator {
 public:
  explicit Balanced(std::vector<std::string> critical) : critical_(std::move(critical)) {}
  std::string name() const override { return "balanced"; }
  bool placement_is_stateless() const override { return true; }
  // The order depends on the state alone, so the last one holds while the state is unchanged
  // (most attempts of a pass look at the same state).
  bool orders_cheaply_on(const ClusterState& state) const override { return last_.holds_for(state); }
  void order_nodes(const Cluster& cluster, const ClusterState& state, const JobUnits&,
                   std::vector<NodeIndex>& order) override;

 private:
  void compute_order(const Cluster& cluster, const ClusterState& state, std::vector<NodeIndex>& order);

  struct LastOrder {
    const ClusterState* state = nullptr;
    ClusterState::Version version;
    int nodes = -1;
    std::vector<NodeIndex> order;
    bool holds_for(const ClusterState& s) const {
      return state == &s && version == s.version() && nodes == s.node_count();
    }
  };
  CriticalTypes critical_;
  LastOrder last_;
  std::vector<std::vector<NodeIndex>> bins_;
};

// Bin of a node: the critical type it has most of free (first listed on ties), or -1.
int balanced_bin(const NodeFree& f, const std::vector<int>& critical) {
  int bin = -1;
  std::int32_t best = 0;
  for (std::size_t i = 0; i < critical.size(); ++i) {
    if (f.gres[critical[i]] > best) {
      best = f.gres[critical[i]];
      bin = static_cast<int>(i);
    }
  }
  return bin;
}

void Balanced::order_nodes(const Cluster& cluster, const ClusterState& state, const JobUnits&,
                           std::vector<NodeIndex>& order) {
  if (!last_.holds_for(state)) {
    compute_order(cluster, state, last_.order);
    last_.state = &state;
    last_.version = state.version();
    last_.nodes = state.node_count();
  }
  order = last_.order;
}

void Balanced::compute_order(const Cluster& cluster, const ClusterState& state,
                             std::vector<NodeIndex>& order) {
  const std::vector<int>& critical = critical_.resolve(cluster);
  std::vector<std::vector<NodeIndex>>& bins = bins_;  // kept from call to call
  bins.resize(critical.size());
  for (auto& bin : bins) bin.clear();
  order.clear();
  for (NodeIndex n = 0; n < state.node_count(); ++n) {
    const int bin = balanced_bin(state.node(n), critical);
    if (bin < 0)
      order.push_back(n);  // the nul bin leads
    else
      bins[bin].push_back(n);
  }
  std::vector<std::size_t> next(bins.size(), 0);
  while (true) {
    int largest = -1;
    std::size_t largest_left = 0;
    for (std::size_t b = 0; b < bins.size(); ++b) {
      const std::size_t left = bins[b].size() - next[b];
      if (left > largest_left) {
        largest_left = left;
        largest = static_cast<int>(b);
      }
    }
    if (largest < 0) break;
    order.push_back(bins[largest][next[largest]++]);
  }
}

class Weighted : public Allocator {
 public:
  std::string name() const override { return "weighted"; }
  void begin_pass(const AllocationContext& ctx) override {
    weights_ = weighted_resource_weights(ctx);
  }
  void order_nodes(const Cluster& cluster, const ClusterState& state, const JobUnits& u,
                   std::vector<NodeIndex>& order) override;

 protected:
  virtual double priority(int kind) const { (void)kind; return 1.0; }

 private:
  ResourceWeights weights_{};
  std::vector<double> rank_;
};

// Resources left on the node after placing as many of the job's units as fit there.
std::array<double, kResourceKinds> impact(const Node& node, const NodeFree& f, const JobUnits& u) {
  const std::int32_t placed = std::min(units_fitting(node, f, u), u.count);
  const bool any = placed > 0;
  const bool mem = node.memory_mb > 0;
  std::array<double, kResourceKinds> left{};
  left[kCoresKind] = f.cores - static_cast<double>(placed) * u.cores;
  for (int t = 0; t < kMaxGresTypes; ++t)
    left[1 + t] = f.gres[t] - static_cast<double>(placed) * u.gres[t] - (any ? u.node_gres[t] : 0);
  left[kMemKind] = static_cast<double>(f.mem_mb) -
                   (mem ? static_cast<double>(placed) * static_cast<double>(u.mem_mb) +
                              (any ? static_cast<double>(u.node_mem_mb) : 0.0)
                        : 0.0);
  return left;
}

void Weighted::order_nodes(const Cluster& cluster, const ClusterState& state, const JobUnits& u,
                           std::vector<NodeIndex>& order) {
  rank_.assign(state.node_count(), 0.0);
  for (NodeIndex n = 0; n < state.node_count(); ++n) {
    const auto left = impact(cluster.nodes[n], state.node(n), u);
    for (int k = 0; k < kResourceKinds; ++k) rank_[n] += weights_[k] * priority(k) * left[k];
  }
  order_by_key(rank_, order);
}

class PriorityWeighted final : public Weighted {
 public:
  PriorityWeighted(std::vector<std::string> critical, std::int32_t bound)
      : critical_(std::move(critical)), bound_(bound) {
    p_.fill(1);
  }
  std::string name() const override { return "pweighted"; }
  void begin_pass(const AllocationContext& ctx) override {
    critical_.resolve(*ctx.cluster);
    Weighted::begin_pass(ctx);
  }
  void order_nodes(const Cluster& cluster, const ClusterState& state, const JobUnits& u,
                   std::vector<NodeIndex>& order) override {
    critical_.resolve(cluster);
    Weighted::order_nodes(cluster, state, u, order);
  }
  void record_outcome(const JobUnits& u, bool placed) override;
  const std::array<std::int32_t, kMaxGresTypes>& values() const { return p_; }

 protected:
  double priority(int kind) const override {
    return kind >= 1 && kind <= kMaxGresTypes ? p_[kind - 1] : 1.0;
  }

 private:
  CriticalTypes critical_;
  std::int32_t bound_;
  std::array<std::int32_t, kMaxGresTypes> p_{};
};

void PriorityWeighted::record_outcome(const JobUnits& u, bool placed) {
  // Critical types were resolved by begin_pass/order_nodes; before that nothing is known.
  for (int t : critical_.resolved()) {
    if (u.gres[t] == 0 && u.node_gres[t] == 0) continue;
    p_[t] = std::clamp(p_[t] + (placed ? -1 : 1), 1, bound_);
  }
}

// Params has no free-text getter: the value given (or the default) is registered as the
// only allowed choice so it is marked used and shows in the effective configuration.
std::vector<std::string> critical_types_option(Params& params) {
  const std::string key = "critical-types";
  const std::string def = "gpu,mic";
  const auto it = params.values().find(key);
  const std::string text = it == params.values().end() ? def : it->second;
  params.get_choice(key, def, {text},
                    "critical gres types of balanced/pweighted, separated by ',' '/' or '+'");
  auto types = split_types(text);
  if (types.empty())
    throw InputError({"<scheduler spec>", 0}, key, text, "expected at least one gres type name");
  return types;
}

}  // namespace

ResourceWeights weighted_resource_weights(const AllocationContext& ctx) {
  const Cluster& cluster = *ctx.cluster;
  std::array<double, kResourceKinds> cap{}, used{}, req{};
  cap[kCoresKind] = static_cast<double>(cluster.total_cores());
  for (int t = 0; t < kMaxGresTypes; ++t)
    cap[1 + t] = t < static_cast<int>(cluster.gres_types.size())
                     ? static_cast<double>(cluster.total_gres(t)) : 0.0;
  for (NodeIndex n = 0; n < cluster.node_count(); ++n) {
    const Node& node = cluster.nodes[n];
    const NodeFree& f = ctx.free->node(n);
    used[kCoresKind] += node.cores - f.cores;
    for (int t = 0; t < kMaxGresTypes; ++t) used[1 + t] += node.gres[t] - f.gres[t];
    if (node.memory_mb > 0) {
      cap[kMemKind] += static_cast<double>(node.memory_mb);
      used[kMemKind] += static_cast<double>(node.memory_mb - f.mem_mb);
    }
  }
  double total_weight = 0;
  for (const QueuedJob& q : ctx.queue) {
    const double w = static_cast<double>(q.predicted);
    total_weight += w;
    req[kCoresKind] += w * q.units->total_cores;
    for (int t = 0; t < kMaxGresTypes; ++t) req[1 + t] += w * static_cast<double>(q.units->total_gres(t));
    req[kMemKind] += w * static_cast<double>(q.units->total_mem());
  }
  ResourceWeights weights{};
  if (total_weight <= 0) return weights;
  for (int k = 0; k < kResourceKinds; ++k) {
    if (cap[k] <= 0) continue;
    const double load = used[k] / cap[k];
    weights[k] = (req[k] / total_weight) * load / cap[k];
  }
  return weights;
}

std::vector<NamedItem> allocator_list() {
  return {
      {"ff", "first fit: nodes in their static 1-D order"},
      {"bf", "best fit: fewest free cores + gres first"},
      {"balanced", "nodes without free critical resources first, then critical bins interleaved"},
      {"weighted", "least weighted leftover first; weights from queued demand x load / capacity"},
      {"pweighted", "weighted with a bounded priority per critical type that rises on failures"},
  };
}

std::unique_ptr<Allocator> make_allocator(std::string_view name, Params& params) {
  auto critical = [&] { return critical_types_option(params); };
  if (name == "ff") return std::make_unique<FirstFit>();
  if (name == "bf") return std::make_unique<BestFit>();
  if (name == "balanced") return std::make_unique<Balanced>(critical());
  if (name == "weighted") return std::make_unique<Weighted>();
  if (name == "pweighted") {
    auto types = critical();
    const auto bound = params.get_int("priority-bound", 10, 1, 1000,
                                      "upper bound of pweighted's priority value p_k");
    return std::make_unique<PriorityWeighted>(std::move(types), static_cast<std::int32_t>(bound));
  }
  throw InputError({"<scheduler spec>", 0}, "allocator", std::string(name),
                   "unknown allocator (ff|bf|balanced|weighted|pweighted)");
}

std::optional<Allocation> allocate(Allocator& allocator, const Cluster& cluster,
                                   const ClusterState& state, const JobUnits& u,
                                   std::span<const char> usable, bool record) {
  std::optional<Allocation> alloc;
  // Greedy placement over every node fails exactly when the units do not fit.
  if (allocator.orders_cheaply_on(state) || units_feasible(cluster, state, u, usable)) {
    thread_local std::vector<NodeIndex> order;
    allocator.order_nodes(cluster, state, u, order);
    alloc = place_units(cluster, state, u, order, usable);
  }
  if (record) allocator.record_outcome(u, alloc.has_value());
  return alloc;
}

std::array<std::int32_t, kMaxGresTypes> priority_values(const Allocator& a) {
  if (const auto* p = dynamic_cast<const PriorityWeighted*>(&a)) return p->values();
  std::array<std::int32_t, kMaxGresTypes> ones{};
  ones.fill(1);
  return ones;
}

}  // namespace hs::heuristic
