#pragma once
// starvation=reserve: a reservation for the top waiting job, computed as backfill does
// (release running jobs at their time limits until the job fits), that the window solve
// honours through extra "capacity at the reservation time" dimensions.
#include <optional>
#include <span>

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

// True when a bid of `job` starting now still holds its resources at the reservation start.
bool overlaps_reservation(const Reservation& r, const WindowJob& job, int slot, Time now,
                          Time time_limit);

}  // namespace hs::window
