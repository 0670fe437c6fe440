// CPH (queue_policies.hpp): aggregated schedule first, then the allocator.
#include <algorithm>
#include <limits>
#include <numeric>

#include "policy/heuristic/cph_search.hpp"
#include "policy/heuristic/queue_policies.hpp"

namespace hs::heuristic {

namespace {

// PRB's expected queue wait before any job of the queue started (as prb-initial-wait).
constexpr double kCphInitialWaitS = 600;

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

// First expected end of a running job after now: the earliest moment the free resources grow.
Time next_release(const AggregateProblem& p) {
  Time next = std::numeric_limits<Time>::max();
  for (const AggregateRelease& r : p.releases)
    if (r.time > p.now) next = std::min(next, r.time);
  return next == std::numeric_limits<Time>::max() ? p.now + 1 : next;
}

AggregateProblem build_problem(DispatchCore& core, const std::vector<QueuedJob>& jobs) {
  AggregateProblem p;
  p.now = core.now();
  p.free_now = aggregate_free(core.cluster(), core.free());
  for (const RunningJob& r : core.view().running)
    p.releases.push_back({core.expected_end(r), aggregate_of(*r.alloc)});
  for (std::size_t i = 0; i < jobs.size(); ++i)
    p.jobs.push_back({aggregate_demand(core.cluster(), *jobs[i].units), jobs[i].predicted,
                      core.view().job(jobs[i].job).submit});  // weight 1: plain total wait
  // Aggregation hides fragmentation: a job the allocator cannot place on the free nodes now
  // is given a release date at the next expected end instead of holding aggregated
  // resources it cannot use (which would push other jobs out of "now").
  const Time later = next_release(p);
  for (std::size_t i = 0; i < jobs.size(); ++i)
    if (fits(p.free_now, p.jobs[i].demand) && !core.plan(jobs[i], core.free()))
      p.jobs[i].earliest = later;
  return p;
}

// The `window` most urgent queued jobs by PRB's order, as AccaSim's CPH (its search
// variables are the first jobs of the PRB-sorted queue).
std::vector<QueuedJob> cph_window(const DispatchCore& core, int window) {
  std::vector<QueuedJob> order = prb_order(core, kCphInitialWaitS);
  const auto limit = static_cast<std::size_t>(window);
  if (order.size() > limit) order.resize(limit);
  return order;
}

}  // namespace

void schedule_cph(DispatchCore& core, const CphOptions& opt, Decisions& out) {
  const std::vector<QueuedJob> jobs = cph_window(core, opt.window);
  const AggregateProblem p = build_problem(core, jobs);
  // A schedule can only start now jobs whose demand fits what is free now and that the
  // allocator can place (no release date): without one, no search is needed.
  const bool any_fits_now = std::any_of(p.jobs.begin(), p.jobs.end(), [&](const AggregateJob& j) {
    return j.earliest <= p.now && fits(p.free_now, j.demand);
  });
  if (!any_fits_now) return;
  const AggregateSchedule best = search_schedule(p, opt.effort);
  for (int j : best.order) {
    if (best.start[j] != core.now()) continue;
    core.try_start(jobs[j], out);  // a job the nodes cannot hold is postponed
  }
}

}  // namespace hs::heuristic
