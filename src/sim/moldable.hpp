#pragma once
// How long a job actually runs on a given allocation (before its time limit cuts it), and
// when it therefore ends.
#include <cstdint>

#include "model/allocation.hpp"
#include "model/job.hpp"

namespace hs {

// run_time, or for moldable_runtime jobs ceil(run_time * g_min / g_allocated) for the first
// gres type requested as a range (thesis eq. 7.1; the random factor is the generator's).
// No scaling when g_min or g_allocated is 0.
Time actual_run_time(const Job& job, const Allocation& alloc);

// Time limits (s) below this bound get a millisecond kill time: counted in ms they stay
// below kNoTime / 2, so adding a start time or an ms offset (kill_after_limit_ms, an int32)
// cannot overflow Time. For larger limits, UNLIMITED (kNoTime) among them, SlurmScheduler
// gives no kill_after_limit_ms and run_end ignores one: the two must agree, hence one bound.
inline constexpr Time kMsKillLimitBound = kNoTime / 2000;

struct RunEnd {
  Time end;             // the second the allocation is released in
  std::int32_t end_ms;  // milliseconds into that second
  bool killed;          // the time limit cut the run
};

// A job started start_ms into second `start` ends its run (or limit) later, plus
// latency_ms for which it still holds its allocation (StartDecision's sub-second timing).
// With kill_after_limit_ms >= 0 a job still running then is killed (and frees its
// allocation) that many ms after the start of second start + time limit instead.
// kill_after_limit_ms is taken as -1 for a time limit at kMsKillLimitBound or more,
// UNLIMITED (kNoTime) among them.
RunEnd run_end(const Job& job, const Allocation& alloc, Time start, std::int32_t start_ms,
               std::int32_t latency_ms, std::int32_t kill_after_limit_ms = -1);

}  // namespace hs
