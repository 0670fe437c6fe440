#include "sim/moldable.hpp"

#include <algorithm>

namespace hs {

Time actual_run_time(const Job& job, const Allocation& alloc) {
  if (!job.moldable_runtime || alloc.shares.empty()) return job.run_time;
  for (const GresRequest& g : job.req.gres) {
    if (g.per_node_max <= g.per_node_min || g.type < 0 || g.type >= kMaxGresTypes) continue;
    const Time allocated = alloc.shares.front().gres[g.type];
    if (g.per_node_min <= 0 || allocated <= 0) return job.run_time;
    return (job.run_time * g.per_node_min + allocated - 1) / allocated;
  }
  return job.run_time;
}

RunEnd run_end(const Job& job, const Allocation& alloc, Time start, std::int32_t start_ms,
               std::int32_t latency_ms, std::int32_t kill_after_limit_ms) {
  const Time actual = actual_run_time(job, alloc);
  const auto plus = [](Time a, Time b) { return b > kNoTime - a ? kNoTime : a + b; };
  const std::int64_t extra_ms = std::int64_t{start_ms} + latency_ms;  // both >= 0
  if (kill_after_limit_ms >= 0 && job.req.time_limit < kMsKillLimitBound) {
    // Both ends in ms after `start`: the run's own and the controller's kill.
    const std::int64_t own = actual * 1000 + extra_ms;
    const std::int64_t kill = job.req.time_limit * 1000 + kill_after_limit_ms;
    const std::int64_t at = std::min(own, kill);
    return {plus(start, at / 1000), static_cast<std::int32_t>(at % 1000), kill < own};
  }
  const bool killed = actual > job.req.time_limit;
  const Time run = killed ? job.req.time_limit : actual;
  return {plus(start, plus(run, extra_ms / 1000)), static_cast<std::int32_t>(extra_ms % 1000),
          killed};
}

}  // namespace hs
