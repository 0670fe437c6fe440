#include "sim/moldable.hpp"

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

}  // namespace hs
