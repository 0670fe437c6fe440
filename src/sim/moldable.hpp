#pragma once
// How long a job actually runs on a given allocation (before its time limit cuts it).
#include "model/allocation.hpp"
#include "model/job.hpp"

namespace hs {

// run_time, or for moldable_runtime jobs ceil(run_time * g_min / g_allocated) for the first
// gres type requested as a range (thesis eq. 7.1; the random factor is the generator's).
// No scaling when g_min or g_allocated is 0.
Time actual_run_time(const Job& job, const Allocation& alloc);

}  // namespace hs
