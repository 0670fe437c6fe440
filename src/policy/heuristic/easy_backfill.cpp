// EASY backfill with predicted durations (queue_policies.hpp).
#include <algorithm>

#include "policy/heuristic/queue_policies.hpp"

namespace hs::heuristic {

namespace {

struct Reservation {
  Time shadow = kNoTime;              // when the head job is expected to start
  std::optional<ClusterState> spare;  // free at the shadow time minus the head's share
  // Jobs held back since the last start: a job of the same shape that runs at least as
  // long would be held too (nothing changed in between).
  std::vector<std::pair<const QueuedJob*, Time>> held;
};

struct ExpectedRelease {
  Time end;
  const Allocation* alloc;
};

// Everything running (including jobs started earlier in this pass) by expected end.
std::vector<ExpectedRelease> expected_releases(const DispatchCore& core) {
  std::vector<ExpectedRelease> rel;
  for (const RunningJob& r : core.view().running) rel.push_back({core.expected_end(r), r.alloc});
  for (const StartedJob& s : core.started()) rel.push_back({s.expected_end, &s.alloc});
  std::stable_sort(rel.begin(), rel.end(),
                   [](const ExpectedRelease& a, const ExpectedRelease& b) { return a.end < b.end; });
  return rel;
}

// units_feasible's count kept per node while releases change a state: a release re-reads
// only the nodes it touched, and the head is planned only once its units can fit (the same
// answer as planning after every release). Contiguous jobs are always planned.
class UnitTally {
 public:
  UnitTally(const Cluster& cluster, const ClusterState& state, const JobUnits& u,
            std::span<const char> usable)
      : cluster_(cluster), state_(state), u_(u), usable_(usable), fit_(state.node_count(), 0) {
    for (NodeIndex n = 0; n < state.node_count(); ++n) refresh(n);
  }
  void refresh(NodeIndex n) {
    if (!usable_.empty() && !usable_[n]) return;
    total_ -= fit_[n];
    fit_[n] = units_fitting(cluster_.nodes[n], state_.node(n), u_);
    total_ += fit_[n];
  }
  bool may_fit() const { return u_.contiguous || total_ >= u_.count; }

 private:
  const Cluster& cluster_;
  const ClusterState& state_;
  const JobUnits& u_;
  std::span<const char> usable_;
  std::vector<std::int32_t> fit_;
  std::int64_t total_ = 0;
};

Reservation reserve(DispatchCore& core, const QueuedJob& head) {
  ClusterState future = core.free();
  const auto rel = expected_releases(core);
  UnitTally tally(core.cluster(), future, *head.units, core.usable(head.job));
  for (std::size_t i = 0; i < rel.size();) {
    const Time t = rel[i].end;
    for (; i < rel.size() && rel[i].end == t; ++i) {
      future.release(*rel[i].alloc);
      for (const NodeShare& s : rel[i].alloc->shares) tally.refresh(s.node);
    }
    if (!tally.may_fit()) continue;
    if (auto alloc = core.plan(head, future)) {
      Reservation res{t, future, {}};
      res.spare->take(*alloc);
      return res;
    }
  }
  return {};  // unreachable for jobs that fit the idle cluster: no protection then
}

// Starts `q` now if that cannot delay the head job's expected start.
bool known_held(const DispatchCore& core, const Reservation& res, const QueuedJob& q, Time bound) {
  for (const auto& [h, h_bound] : res.held)
    if (bound >= h_bound && *h->units == *q.units && core.usable(h->job).data() == core.usable(q.job).data())
      return true;
  return false;
}

void backfill_one(DispatchCore& core, const QueuedJob& q, const EasyOptions& opt,
                  Reservation& res, Decisions& out) {
  const Time bound = opt.bound_by_limit ? walltime_of(core.view().job(q.job)) : q.predicted;
  if (known_held(core, res, q, bound)) return;
  auto alloc = core.attempt(q, false);
  if (!alloc) {
    core.allocator().record_outcome(*q.units, false);
    return;
  }
  const bool ends_in_time = res.shadow == kNoTime || core.now() + bound <= res.shadow;
  if (!ends_in_time && !res.spare->can_hold(*alloc)) {
    alloc = core.plan(q, lesser_of(core.free(), *res.spare));
    if (!alloc) {  // held back by the reservation
      res.held.emplace_back(&q, bound);
      return;
    }
  }
  if (!ends_in_time) res.spare->take(*alloc);
  core.allocator().record_outcome(*q.units, true);
  core.commit(q, std::move(*alloc), out);
  res.held.clear();
}

}  // namespace

void schedule_easy(DispatchCore& core, const EasyOptions& opt, Decisions& out) {
  const auto& queue = core.queue();
  std::size_t i = 0;
  while (i < queue.size() && core.try_start(queue[i], out)) ++i;
  if (i >= queue.size()) return;
  Reservation res = reserve(core, queue[i]);
  for (std::size_t k = i + 1; k < queue.size(); ++k) backfill_one(core, queue[k], opt, res, out);
}

}  // namespace hs::heuristic
