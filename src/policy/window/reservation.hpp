#pragma once
// starvation=reserve: a reservation for the top waiting job, computed as backfill does
// (release running jobs at their time limits until the job fits), that the window solve
// honours through extra "capacity at the reservation time" dimensions.
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "policy/window/candidate.hpp"
#include "policy/window/window_job.hpp"
#include "sim/scheduler.hpp"

namespace hs::window {

struct Reservation {
  int slot = 0;          // window position of the protected job
  Time start = 0;        // earliest start from running jobs' time limits
  FreeArrays spare;      // free at `start` minus what the reservation holds
};

// nullopt when the job never fits even after every running job ended.
std::optional<Reservation> plan_reservation(const SystemView& view, const WindowJob& job,
                                            int slot, std::span<const char> mask);
// The same search from `free`, the view's free state as arrays.
std::optional<Reservation> plan_reservation(const SystemView& view, const FreeArrays& free,
                                            const WindowJob& job, int slot,
                                            std::span<const char> mask);

// plan_reservation with the last answer kept: while the free state (`free`, read from the
// view), the running jobs (order, time limits) and the job are those of the last call, and
// every running job's limit lies ahead, the search would repeat itself: the answer is reused,
// a reservation that started at the last call's now moving to this now (the job still fits).
class ReservationMemo {
 public:
  // `free_serial`: the FreeStateSerials number of `free` (equal numbers, equal states).
  // The answer (null: the job never fits) is the memo's, valid until the next call: handing
  // out a copy would copy its spare capacity, every node, on every pass.
  const Reservation* plan(const SystemView& view, const FreeArrays& free,
                                  std::uint64_t free_serial, const WindowJob& job, int slot,
                                  std::span<const char> mask);

 private:
  bool reusable(const SystemView& view, std::uint64_t free_serial, JobRef job, int slot) const;
  void remember(const SystemView& view, std::uint64_t free_serial, JobRef job, int slot);

  bool valid_ = false;
  std::uint64_t free_serial_ = 0;
  std::vector<std::pair<JobRef, Time>> running_;  // job and limit end, in the view's order
  JobRef job_ = -1;
  int slot_ = 0;
  Time now_ = 0;
  std::optional<Reservation> answer_;
};

// True when a bid of `job` starting now still holds its resources at the reservation start.
bool overlaps_reservation(const Reservation& r, const WindowJob& job, int slot, Time now,
                          Time time_limit);

}  // namespace hs::window
