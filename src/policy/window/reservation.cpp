#include "policy/window/reservation.hpp"

#include <algorithm>

#include "policy/window/ipsched_columns.hpp"

namespace hs::window {
namespace {

void release(FreeArrays& free, const Allocation& alloc) {
  for (const NodeShare& s : alloc.shares) {
    free.cores[s.node] += s.cores;
    for (int t = 0; t < kMaxGresTypes; ++t) free.gres[s.node][t] += s.gres[t];
    free.mem[s.node] += s.mem_mb;
  }
}

bool try_place(const FreeArrays& free, const WindowJob& job, int slot,
               std::span<const char> mask, Candidate& where) {
  return build_column(free, job, slot, mask, ColumnShape::Packed, where) ||
         build_column(free, job, slot, mask, ColumnShape::GresSaving, where);
}

}  // namespace

std::optional<Reservation> plan_reservation(const SystemView& view, const WindowJob& job,
                                            int slot, std::span<const char> mask) {
  FreeArrays free = FreeArrays::from(*view.cluster, *view.free);
  std::vector<const RunningJob*> running;
  for (const RunningJob& r : view.running) running.push_back(&r);
  std::stable_sort(running.begin(), running.end(),
                   [](const RunningJob* a, const RunningJob* b) { return a->limit_end < b->limit_end; });
  Time at = view.now;
  std::size_t next = 0;
  while (true) {
    Candidate where;
    if (try_place(free, job, slot, mask, where)) {
      free.take(where, job);
      return Reservation{slot, at, std::move(free)};
    }
    if (next == running.size()) return std::nullopt;
    at = std::max(view.now, running[next]->limit_end);
    while (next < running.size() && std::max(view.now, running[next]->limit_end) == at)
      release(free, *running[next++]->alloc);
  }
}

bool overlaps_reservation(const Reservation& r, const WindowJob& /*job*/, int slot, Time now,
                          Time time_limit) {
  if (slot == r.slot) return false;
  return now + time_limit > r.start;
}

}  // namespace hs::window
