#include "policy/window/reservation.hpp"

#include <algorithm>

#include "policy/window/ipsched_columns.hpp"

namespace hs::window {
namespace {

void release(FreeArrays& free, const Allocation& alloc) {
  for (const NodeShare& s : alloc.shares) {
    free.cores[s.node] += free.held(s.node, s.cores);
    for (int t = 0; t < kMaxGresTypes; ++t) free.gres[s.node][t] += s.gres[t];
    free.mem[s.node] += s.mem_mb;
  }
}

// What build_column tests before anything else, kept per node: the job's eligible nodes
// (node_fits at its gres minimum) and their usable cores. A release re-reads only the nodes
// it touched, so the search below tries a placement only when that test can pass.
class FitTally {
 public:
  FitTally(const FreeArrays& free, const WindowJob& job, std::span<const char> mask)
      : free_(free), job_(job), mask_(mask), cap_(free.node_count(), -1) {
    for (NodeIndex n = 0; n < free.node_count(); ++n) refresh(n);
  }
  void refresh(NodeIndex n) {
    if (cap_[n] >= 0) {
      usable_ -= cap_[n];
      --eligible_;
    }
    cap_[n] = node_fits(free_, job_, mask_, n, job_.gres_min) ? core_cap(free_, job_, n) : -1;
    if (cap_[n] >= 0) {
      usable_ += cap_[n];
      ++eligible_;
    }
  }
  // False when build_column must fail on the current state.
  bool may_fit() const { return usable_ >= job_.cores && eligible_ >= job_.nodes_min; }
  // The eligible nodes, ascending (as build_column finds them).
  const std::vector<NodeIndex>& eligible_nodes() {
    nodes_.clear();
    for (NodeIndex n = 0; n < static_cast<NodeIndex>(cap_.size()); ++n)
      if (cap_[n] >= 0) nodes_.push_back(n);
    return nodes_;
  }

 private:
  const FreeArrays& free_;
  const WindowJob& job_;
  std::span<const char> mask_;
  std::vector<std::int32_t> cap_;  // usable cores of an eligible node, -1 when not eligible
  std::int64_t usable_ = 0;
  std::int32_t eligible_ = 0;
  std::vector<NodeIndex> nodes_;  // scratch for eligible_nodes()
};

bool try_place(const FreeArrays& free, const WindowJob& job, int slot,
               const std::vector<NodeIndex>& eligible, Candidate& where) {
  return build_column_among(free, job, slot, eligible, ColumnShape::Packed, where) ||
         build_column_among(free, job, slot, eligible, ColumnShape::GresSaving, where);
}

}  // namespace

std::optional<Reservation> plan_reservation(const SystemView& view, const WindowJob& job,
                                            int slot, std::span<const char> mask) {
  return plan_reservation(view, FreeArrays::from(*view.cluster, *view.free), job, slot, mask);
}

std::optional<Reservation> plan_reservation(const SystemView& view, const FreeArrays& free_now,
                                            const WindowJob& job, int slot,
                                            std::span<const char> mask) {
  FreeArrays free = free_now;
  std::vector<const RunningJob*> running;
  for (const RunningJob& r : view.running) running.push_back(&r);
  std::stable_sort(running.begin(), running.end(),
                   [](const RunningJob* a, const RunningJob* b) { return a->limit_end < b->limit_end; });
  Time at = view.now;
  std::size_t next = 0;
  FitTally tally(free, job, mask);
  while (true) {
    Candidate where;
    if (tally.may_fit() && try_place(free, job, slot, tally.eligible_nodes(), where)) {
      free.take(where, job);
      return Reservation{slot, at, std::move(free)};
    }
    if (next == running.size()) return std::nullopt;
    at = std::max(view.now, running[next]->limit_end);
    while (next < running.size() && std::max(view.now, running[next]->limit_end) == at) {
      const Allocation& alloc = *running[next++]->alloc;
      release(free, alloc);
      for (const NodeShare& s : alloc.shares) tally.refresh(s.node);
    }
  }
}

namespace {

// Every running job's limit lies after `now` (then the search's times do not depend on now).
bool limits_ahead(const SystemView& view, Time now) {
  return std::all_of(view.running.begin(), view.running.end(),
                     [now](const RunningJob& r) { return r.limit_end > now; });
}

}  // namespace

bool ReservationMemo::reusable(const SystemView& view, std::uint64_t free_serial, JobRef job,
                               int slot) const {
  if (!valid_ || job != job_ || slot != slot_ || view.running.size() != running_.size())
    return false;
  for (std::size_t k = 0; k < running_.size(); ++k)
    if (view.running[k].job != running_[k].first || view.running[k].limit_end != running_[k].second)
      return false;
  return limits_ahead(view, view.now) && free_serial == free_serial_;
}

void ReservationMemo::remember(const SystemView& view, std::uint64_t free_serial, JobRef job,
                               int slot) {
  valid_ = limits_ahead(view, view.now);
  free_serial_ = free_serial;
  running_.clear();
  for (const RunningJob& r : view.running) running_.emplace_back(r.job, r.limit_end);
  job_ = job;
  slot_ = slot;
  now_ = view.now;
}

const Reservation* ReservationMemo::plan(const SystemView& view, const FreeArrays& free,
                                                 std::uint64_t free_serial, const WindowJob& job,
                                                 int slot, std::span<const char> mask) {
  if (reusable(view, free_serial, job.ref, slot)) {
    if (answer_ && answer_->start == now_) answer_->start = view.now;
    now_ = view.now;
    return answer_ ? &*answer_ : nullptr;
  }
  answer_ = plan_reservation(view, free, job, slot, mask);
  remember(view, free_serial, job.ref, slot);
  return answer_ ? &*answer_ : nullptr;
}

bool overlaps_reservation(const Reservation& r, const WindowJob& /*job*/, int slot, Time now,
                          Time time_limit) {
  if (slot == r.slot) return false;
  return now + time_limit > r.start;
}

}  // namespace hs::window
