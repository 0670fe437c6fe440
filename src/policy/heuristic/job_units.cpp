#include "policy/heuristic/job_units.hpp"

#include <algorithm>
#include <limits>

namespace hs::heuristic {

std::int64_t JobUnits::total_gres(int t) const {
  return static_cast<std::int64_t>(count) * gres[t] +
         static_cast<std::int64_t>(node_gres[t]) * min_nodes();
}

std::int64_t JobUnits::total_mem() const {
  return static_cast<std::int64_t>(count) * mem_mb + node_mem_mb * min_nodes();
}

std::int32_t JobUnits::min_nodes() const { return max_per_node == 1 ? count : 1; }

namespace {

std::string str(std::int64_t v) { return std::to_string(v); }

// Per-node gres (range minimum) and memory of the request, as unit or node amounts.
void set_per_node_needs(const JobRequest& r, GresCounts& gres, std::int64_t& mem) {
  for (const GresRequest& g : r.gres)
    g.for_each_type([&](int t, std::int32_t min, std::int32_t) { gres[t] = min; });
  mem = r.mem_per_node_mb;
}

}  // namespace

UnitsOrReason units_from_request(const Job& job) {
  const JobRequest& r = job.req;
  if (r.ntasks <= 0) return "ntasks must be positive, got " + str(r.ntasks);
  for (const GresRequest& g : r.gres)
    if (g.type < 0 || g.type >= kMaxGresTypes || g.kind_type >= kMaxGresTypes ||
        (!g.kind.empty() && g.kind_type < 0))
      return "gres '" + g.kind_name() + "' is not bound to a cluster gres type";
  JobUnits u;
  u.contiguous = r.contiguous;
  u.total_cores = r.ntasks;
  const std::int32_t nodes = r.nodes_min > 0 ? r.nodes_min : r.nodes_max;
  if (r.units()) {  // -c / --gpus-per-task: Slurm's tasks are the units
    if (nodes > 0) return "a node count (-N) with tasks spread as units is not modelled here";
    u.count = r.unit_count();
    u.cores = r.task_cores;
    set_per_node_needs(r, u.gres, u.node_mem_mb);  // gres per task, --mem per node
  } else if (r.ntasks_per_node > 0) {
    if (r.ntasks % r.ntasks_per_node != 0)
      return "ntasks " + str(r.ntasks) + " is not a multiple of ntasks-per-node " +
             str(r.ntasks_per_node) + ": no identical units";
    u.count = r.ntasks / r.ntasks_per_node;
    u.cores = r.ntasks_per_node;
    u.max_per_node = 1;
    set_per_node_needs(r, u.gres, u.mem_mb);
  } else if (nodes > 0) {
    if (r.ntasks < nodes)
      return "ntasks " + str(r.ntasks) + " is below the node count " + str(nodes);
    u.count = nodes;
    u.cores = (r.ntasks + nodes - 1) / nodes;
    u.max_per_node = 1;
    set_per_node_needs(r, u.gres, u.mem_mb);
  } else {
    u.count = r.ntasks;
    u.cores = 1;
    set_per_node_needs(r, u.node_gres, u.node_mem_mb);
  }
  return u;
}

std::int32_t units_fitting(const Node& node, const NodeFree& free, const JobUnits& u) {
  if (free.cores < u.cores) return 0;  // the common full node, decided before the divisions
  const bool mem_modelled = node.memory_mb > 0;
  std::int64_t cores = free.cores;
  std::int64_t mem = free.mem_mb - (mem_modelled ? u.node_mem_mb : 0);
  if (mem < 0) return 0;
  std::int64_t fit = u.max_per_node > 0 ? u.max_per_node : std::numeric_limits<std::int32_t>::max();
  fit = std::min<std::int64_t>(fit, cores / u.cores);
  if (mem_modelled && u.mem_mb > 0) fit = std::min(fit, mem / u.mem_mb);
  for (int t = 0; t < kMaxGresTypes; ++t) {
    const std::int64_t left = free.gres[t] - u.node_gres[t];
    if (left < 0) return 0;
    if (u.gres[t] > 0) fit = std::min<std::int64_t>(fit, left / u.gres[t]);
  }
  return static_cast<std::int32_t>(std::max<std::int64_t>(fit, 0));
}

bool units_feasible(const Cluster& cluster, const ClusterState& state, const JobUnits& u,
                    std::span<const char> usable) {
  if (u.contiguous) return place_units(cluster, state, u, {}, usable).has_value();
  std::int64_t placed = 0;
  for (NodeIndex n = 0; n < state.node_count(); ++n) {
    if (!usable.empty() && !usable[n]) continue;
    placed += units_fitting(cluster.nodes[n], state.node(n), u);
    if (placed >= u.count) return true;
  }
  return false;
}

namespace {

NodeShare share_for(const Cluster& cluster, NodeIndex n, std::int32_t units, const JobUnits& u) {
  NodeShare s;
  s.node = n;
  s.cores = units * u.cores;
  for (int t = 0; t < kMaxGresTypes; ++t) s.gres[t] = units * u.gres[t] + u.node_gres[t];
  if (cluster.nodes[n].memory_mb > 0) s.mem_mb = units * u.mem_mb + u.node_mem_mb;
  return s;
}

// Gives back the cores reserved beyond total_cores, one per share from the back, so the
// allocation holds exactly the requested cores (only the -N mapping reserves extra).
void trim_to_total_cores(Allocation& alloc, std::int32_t total) {
  std::int32_t excess = alloc.total_cores() - total;
  bool progress = true;
  while (excess > 0 && progress) {
    progress = false;
    for (auto it = alloc.shares.rbegin(); it != alloc.shares.rend() && excess > 0; ++it) {
      if (it->cores <= 1) continue;
      --it->cores;
      --excess;
      progress = true;
    }
  }
}

std::optional<Allocation> finish(Allocation alloc, const JobUnits& u) {
  alloc.sort_by_node();
  trim_to_total_cores(alloc, u.total_cores);
  return alloc;
}

std::optional<Allocation> place_contiguous(const Cluster& cluster, const ClusterState& state,
                                           const JobUnits& u, std::span<const char> usable) {
  const NodeIndex count = state.node_count();
  for (NodeIndex first = 0; first < count; ++first) {
    Allocation alloc;
    std::int32_t left = u.count;
    for (NodeIndex n = first; n < count && left > 0; ++n) {
      const std::int32_t fit = (usable.empty() || usable[n])
                                   ? units_fitting(cluster.nodes[n], state.node(n), u)
                                   : 0;
      if (fit == 0) break;
      const std::int32_t take = std::min(fit, left);
      alloc.shares.push_back(share_for(cluster, n, take, u));
      left -= take;
    }
    if (left == 0) return finish(std::move(alloc), u);
  }
  return std::nullopt;
}

}  // namespace

std::optional<Allocation> place_units(const Cluster& cluster, const ClusterState& state,
                                      const JobUnits& u, std::span<const NodeIndex> order,
                                      std::span<const char> usable) {
  if (u.contiguous) return place_contiguous(cluster, state, u, usable);
  Allocation alloc;
  std::int32_t left = u.count;
  for (NodeIndex n : order) {
    if (left == 0) break;
    if (!usable.empty() && !usable[n]) continue;
    const std::int32_t fit = units_fitting(cluster.nodes[n], state.node(n), u);
    if (fit == 0) continue;
    const std::int32_t take = std::min(fit, left);
    alloc.shares.push_back(share_for(cluster, n, take, u));
    left -= take;
  }
  if (left > 0) return std::nullopt;
  return finish(std::move(alloc), u);
}

}  // namespace hs::heuristic
