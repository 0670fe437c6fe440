// CPH (queue_policies.hpp): aggregated schedule first, then the allocator.
#include <algorithm>
#include <numeric>

#include "policy/heuristic/cph_search.hpp"
#include "policy/heuristic/queue_policies.hpp"

namespace hs::heuristic {

namespace {

// Whole-system amounts of an allocation (memory only where nodes model it).
AggregateVector aggregate_of(const Allocation& a) {
  AggregateVector v{};
  for (const NodeShare& s : a.shares) {
    v[0] += s.cores;
    for (int t = 0; t < kMaxGresTypes; ++t) v[1 + t] += s.gres[t];
    v[1 + kMaxGresTypes] += s.mem_mb;
  }
  return v;
}

AggregateVector aggregate_free(const Cluster& cluster, const ClusterState& free) {
  AggregateVector v{};
  for (NodeIndex n = 0; n < free.node_count(); ++n) {
    const NodeFree& f = free.node(n);
    v[0] += f.cores;
    for (int t = 0; t < kMaxGresTypes; ++t) v[1 + t] += f.gres[t];
    if (cluster.nodes[n].memory_mb > 0) v[1 + kMaxGresTypes] += f.mem_mb;
  }
  return v;
}

AggregateVector aggregate_demand(const Cluster& cluster, const JobUnits& u) {
  AggregateVector v{};
  v[0] = u.total_cores;
  for (int t = 0; t < kMaxGresTypes; ++t) v[1 + t] = u.total_gres(t);
  bool memory_modelled = false;
  for (const Node& n : cluster.nodes) memory_modelled |= n.memory_mb > 0;
  if (memory_modelled) v[1 + kMaxGresTypes] = u.total_mem();
  return v;
}

bool fits(const AggregateVector& free, const AggregateVector& need) {
  for (int k = 0; k < kAggregateKinds; ++k)
    if (free[k] < need[k]) return false;
  return true;
}

AggregateProblem build_problem(const DispatchCore& core, std::size_t window) {
  AggregateProblem p;
  p.now = core.now();
  p.free_now = aggregate_free(core.cluster(), core.free());
  for (const RunningJob& r : core.view().running)
    p.releases.push_back({core.expected_end(r), aggregate_of(*r.alloc)});
  const auto& queue = core.queue();
  for (std::size_t i = 0; i < std::min(window, queue.size()); ++i) {
    const QueuedJob& q = queue[i];
    p.jobs.push_back({aggregate_demand(core.cluster(), *q.units), q.predicted,
                      core.view().job(q.job).submit});
  }
  return p;
}

}  // namespace

void schedule_cph(DispatchCore& core, const CphOptions& opt, Decisions& out) {
  const AggregateProblem p = build_problem(core, static_cast<std::size_t>(opt.window));
  // A schedule can only start jobs whose demand fits what is free now.
  const bool any_fits_now = std::any_of(p.jobs.begin(), p.jobs.end(), [&](const AggregateJob& j) {
    return fits(p.free_now, j.demand);
  });
  if (!any_fits_now) return;
  const AggregateSchedule best = search_schedule(p, opt.effort);
  for (int j : best.order) {
    if (best.start[j] != p.now) continue;
    core.try_start(core.queue()[j], out);  // a job the nodes cannot hold is postponed
  }
}

}  // namespace hs::heuristic
