// EASY backfill with predicted durations (queue_policies.hpp).
#include <algorithm>

#include "policy/heuristic/queue_policies.hpp"

namespace hs::heuristic {

namespace {

struct Reservation {
  const QueuedJob* head = nullptr;
  // The head's plan waits for the first job that could start now, on the state after the
  // head phase (a backfill start needs a successful attempt first).
  bool planned = false;
  Time shadow = kNoTime;              // when the head job is expected to start
  std::optional<ClusterState> spare;  // free at the shadow time minus the head's share
  // Per shape, the shortest bound of a job held back since the last start: a job of the
  // same shape that runs at least as long would be held too (nothing changed in between).
  ShapeMemo<Time> held;
  // What is free now and also spare at the shadow time, built on first use after a start.
  // Both only shrink during a pass, so a shape that did not fit it never will.
  std::optional<ClusterState> lesser;
  ShapeMemo<char> lesser_failed;
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

void plan_reservation(DispatchCore& core, Reservation& res) {
  res.planned = true;
  const QueuedJob& head = *res.head;
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
      res.shadow = t;
      res.spare = std::move(future);
      res.spare->take(*alloc);
      return;
    }
  }
  // unreachable for jobs that fit the idle cluster: no protection then
}

bool known_held(const DispatchCore& core, const Reservation& res, const QueuedJob& q, Time bound) {
  const Time* h_bound = res.held.find(core.shape(q.job));
  return h_bound && bound >= *h_bound;
}

// A placement on what is free now and also spare at the shadow time.
std::optional<Allocation> plan_within_spare(DispatchCore& core, const QueuedJob& q,
                                            Reservation& res) {
  const ShapeId shape = core.shape(q.job);
  if (res.lesser_failed.find(shape)) return std::nullopt;
  if (!res.lesser) res.lesser = lesser_of(core.free(), *res.spare);
  auto alloc = core.plan(q, *res.lesser);
  if (!alloc) res.lesser_failed.set(shape, 1);
  return alloc;
}

// Starts `q` now if that cannot delay the head job's expected start.
void backfill_one(DispatchCore& core, const QueuedJob& q, const EasyOptions& opt,
                  Reservation& res, Decisions& out) {
  const Time bound = opt.bound_by_limit ? walltime_of(core.view().job(q.job)) : q.predicted;
  if (known_held(core, res, q, bound)) return;
  auto alloc = core.attempt(q, false);
  if (!alloc) {
    core.allocator().record_outcome(*q.units, false);
    return;
  }
  if (!res.planned) plan_reservation(core, res);
  const bool ends_in_time = res.shadow == kNoTime || core.now() + bound <= res.shadow;
  if (!ends_in_time && !res.spare->can_hold(*alloc)) {
    alloc = plan_within_spare(core, q, res);
    if (!alloc) {  // held back by the reservation
      const ShapeId shape = core.shape(q.job);
      const Time* h_bound = res.held.find(shape);
      res.held.set(shape, h_bound ? std::min(*h_bound, bound) : bound);
      return;
    }
  }
  if (!ends_in_time) res.spare->take(*alloc);
  core.allocator().record_outcome(*q.units, true);
  core.commit(q, std::move(*alloc), out);
  res.held.clear();
  res.lesser.reset();
}

// The first time at which a running job's expected end (DispatchCore::expected_end) differs
// from its value now.
Time expected_ends_stable_until(const DispatchCore& core) {
  Time until = kNoTime;
  for (const RunningJob& r : core.view().running) {
    const Time predicted_end = r.start + core.predicted(r.job);
    if (predicted_end > core.now())
      until = std::min(until, predicted_end);
    else
      until = std::min(until, r.limit_end > core.now() ? r.limit_end : core.now() + 1);
  }
  return until;
}

bool same_free(const ClusterState& a, const ClusterState& b) {
  if (a.node_count() != b.node_count()) return false;
  for (NodeIndex n = 0; n < a.node_count(); ++n) {
    const NodeFree& x = a.node(n);
    const NodeFree& y = b.node(n);
    if (x.cores != y.cores || x.gres != y.gres || x.mem_mb != y.mem_mb) return false;
  }
  return true;
}

// The carried pass's jobs lead the queue unchanged: nothing started or ended since, and
// jobs leave the queue only by starting (rejections happen at first sight). The free state
// and the running jobs are compared too, for callers (a live bridge) whose state may change
// without an event.
bool carry_applies(const DispatchCore& core, std::span<const Event> events,
                   const EasyCarry& carry) {
  if (!carry.valid || core.now() >= carry.stable_until) return false;
  if (core.view().running.size() != carry.running || !same_free(core.free(), *carry.free))
    return false;
  const auto& queue = core.queue();
  if (carry.tried == 0 || queue.size() < carry.tried || queue[carry.tried - 1].job != carry.last_tried)
    return false;
  return std::none_of(events.begin(), events.end(),
                      [](const Event& e) { return e.kind == EventKind::Ended; });
}

void backfill_from(DispatchCore& core, std::size_t first, const EasyOptions& opt,
                   Reservation& res, Decisions& out) {
  const auto& queue = core.queue();
  for (std::size_t k = first; k < queue.size(); ++k) backfill_one(core, queue[k], opt, res, out);
}

// Keeps the reservation of a pass that started nothing for the next pass, when the
// allocator places jobs alike in every pass.
void carry_over(DispatchCore& core, Reservation& res, bool renewed, EasyCarry& carry) {
  carry.valid = core.started().empty() && core.allocator().placement_is_stateless();
  if (!carry.valid) return;
  carry.tried = core.queue().size();
  carry.last_tried = core.queue().back().job;
  carry.planned = res.planned;
  carry.shadow = res.shadow;
  carry.spare = std::move(res.spare);
  if (!renewed) return;
  carry.stable_until = expected_ends_stable_until(core);
  carry.running = core.view().running.size();
  if (carry.free) carry.free->assign_from(core.free());  // the nodes changed since last time
  else carry.free.emplace(core.free());
}

}  // namespace

void schedule_easy(DispatchCore& core, const EasyOptions& opt, std::span<const Event> events,
                   EasyCarry& carry, Decisions& out) {
  const auto& queue = core.queue();
  if (carry_applies(core, events, carry)) {
    Reservation res{&queue[0], carry.planned, carry.shadow, std::move(carry.spare), {}, {}, {}};
    backfill_from(core, carry.tried, opt, res, out);
    carry_over(core, res, false, carry);
    return;
  }
  std::size_t i = 0;
  while (i < queue.size() && core.try_start(queue[i], out)) ++i;
  if (i >= queue.size()) {
    carry.valid = false;
    return;
  }
  Reservation res;
  res.head = &queue[i];
  // An allocator that learns from outcomes would plan differently after the attempts.
  if (!core.allocator().placement_is_stateless()) plan_reservation(core, res);
  backfill_from(core, i + 1, opt, res, out);
  carry_over(core, res, true, carry);
}

}  // namespace hs::heuristic
