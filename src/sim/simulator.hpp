#pragma once
// Discrete-event replay of a workload on a cluster under one Scheduler, in integer seconds.
#include <functional>
#include <string>
#include <vector>

#include "model/allocation.hpp"
#include "model/packed_allocation.hpp"
#include "model/cluster.hpp"
#include "model/job.hpp"
#include "sim/scheduler.hpp"

namespace hs {

enum class JobStatus {
  Completed,  // ran to its actual run time
  Killed,     // reached its time limit first
  Rejected,   // can never run (bad request or refused by the policy), with a reason
  Stalled     // still waiting when nothing else could happen: a policy bug, flagged
};

struct JobRecord {
  JobStatus status = JobStatus::Stalled;
  Time start = -1;
  Time end = -1;
  std::int32_t start_ms = 0;         // StartDecision's sub-second timing (0 = none)
  std::int32_t end_latency_ms = 0;
  std::int32_t kill_after_limit_ms = -1;  // StartDecision's
  PackedAllocation alloc;  // what the run held (unpack() for the node shares)
  std::string reason;  // rejection / stall reason
};

struct QueueSample {
  Time time;
  std::int32_t pending;  // jobs waiting after the pass
  std::int32_t running;
};

struct SimConfig {
  Time periodic_interval = 0;  // extra passes every N s while jobs wait; 0 = events only
  std::function<void(Time now, std::size_t done, std::size_t total)> progress;  // optional
};

struct SimResult {
  std::vector<JobRecord> records;     // indexed by JobRef
  std::vector<QueueSample> queue;     // one sample per scheduling pass
  std::int64_t passes = 0;
  std::int64_t rejected = 0;
  std::int64_t stalled = 0;
  Time makespan_end = 0;              // time the last job ended
};

// The workload's jobs must be bound to the cluster (bind_to_cluster); jobs that are not
// bindable or never runnable are rejected at submission with the reason.
SimResult simulate(const Cluster& cluster, const Workload& workload, Scheduler& scheduler,
                   const SimConfig& config);

}  // namespace hs
