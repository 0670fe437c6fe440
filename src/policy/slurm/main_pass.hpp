#pragma once
// Slurm's main scheduling loop (job_scheduler.c, schedule()): jobs in queue order, each
// started now if the node selection finds room; the first job of a partition that cannot
// start blocks that partition (and its nodes) for the rest of the pass. It never
// backfills.
#include <cstddef>
#include <vector>

#include "policy/slurm/pass_state.hpp"

namespace hs::slurm {

struct MainPassStats {
  std::size_t tested = 0;
  std::size_t started = 0;
  bool truncated = false;  // stopped by the depth limit with jobs left to test
};

// `depth_limit` = default_queue_depth for event-triggered passes, SIZE_MAX for full passes.
MainPassStats run_main_pass(PassState& state, const std::vector<JobRef>& order,
                            const PartitionIndex& partitions, std::size_t depth_limit);

}  // namespace hs::slurm
