#pragma once
// The one narrow boundary between the simulator (or a live-Slurm bridge) and every policy:
// events and a read-only view of the system go in, decisions come out.
#include <chrono>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/allocation.hpp"
#include "model/cluster.hpp"
#include "model/job.hpp"
#include "sim/cluster_state.hpp"

namespace hs {

// Submitted: the job joined the waiting queue. On a live system (the bridge) a job may be
// submitted again: it left the queue and came back, its request was changed while it
// waited, or a start the scheduler proposed was not applied. Whatever was derived from its
// request is to be derived again.
// Withdrawn: a waiting job left the queue without a start the scheduler proposed (cancelled,
// held by an operator, handed to Slurm's own scheduler).
// NodesChanged: usable capacity changed with no job event (a live node drained, went down
// or came back); `job` is meaningless.
// The simulator emits only Submitted (once per job) and Ended; the bridge emits all four.
enum class EventKind { Submitted, Ended, NodesChanged, Withdrawn };

struct Event {
  EventKind kind;
  JobRef job;
  std::int32_t at_ms = 0;  // milliseconds into `now` at which it happened
};

struct RunningJob {
  JobRef job;
  Time start;
  Time limit_end;             // start + time limit: all a real scheduler knows
  const Allocation* alloc;    // valid for the duration of the call
};

struct SystemView {
  Time now = 0;
  const Cluster* cluster = nullptr;
  const Workload* workload = nullptr;
  const ClusterState* free = nullptr;   // free resources now
  std::span<const JobRef> pending;      // waiting jobs, in submit order (ties by id)
  std::span<const RunningJob> running;  // in start order

  const Job& job(JobRef j) const { return workload->jobs[j]; }
};

struct StartDecision {
  JobRef job;
  Allocation alloc;
  // Sub-second timing (the Slurm model's controller clock; 0 = whole seconds): the pass
  // started the job start_ms into the second, and the job holds its allocation for
  // end_latency_ms after its run. It ends in the second that sum falls in.
  std::int32_t start_ms = 0;
  std::int32_t end_latency_ms = 0;
  // When a job still runs at its time limit: -1 = it ends then (plus start_ms and
  // end_latency_ms); otherwise it is killed this many ms after the start of the second
  // start + time_limit (slurmctld's time-limit check, which runs only every 30 s).
  std::int32_t kill_after_limit_ms = -1;
};

struct Rejection {
  JobRef job;
  std::string reason;  // why this policy can never run the job
  // The policy's model cannot express the request (another scheduler could run the job);
  // the bridge hands such a job to Slurm's own scheduler instead of leaving it held.
  bool model_limit = false;
};

struct Decisions {
  std::vector<StartDecision> starts;   // applied in order; each must fit what is free then
  std::vector<Rejection> rejections;
  std::optional<Time> wake_at;         // ask for another pass at this time (> now)
};

// Request options a policy honours beyond cores, gres, memory, node counts and partitions.
// The simulator rejects, with a reason, every job that uses one its policy does not
// declare, so no policy silently ignores a constraint (sim/bind.hpp: unsupported_request).
struct RequestSupport {
  bool node_mask = false;       // -C/--constraint and -x/--exclude (job_node_mask)
  bool required_nodes = false;  // -w/--nodelist
  bool exclusive = false;       // --exclusive
  bool units = false;           // tasks spread as units (JobRequest::task_cores)
};

// A pass running past `limit` (zero: no limit), or still running when `stop_requested`
// turns true, is cut off: it fails with a PolicyError and nothing of it is applied.
// `stop_requested` is called from another thread.
struct PassTimeLimit {
  std::chrono::milliseconds limit{0};
  std::function<bool()> stop_requested;
};

class Scheduler {
 public:
  virtual ~Scheduler() = default;
  virtual std::string name() const = 0;
  virtual RequestSupport supports() const { return {}; }
  // Called once per pass after all events of `view.now` were applied. `events` lists what
  // happened since the previous call (may be empty for periodic passes).
  virtual Decisions decide(const SystemView& view, std::span<const Event> events) = 0;
  // The caller checks every proposal on its own and turns down only the bad ones (the live
  // bridge, where one bad proposal must not stop the others). A scheduler that checks its
  // passes as a whole and fails the run on a bad one (a Python policy) then leaves that to
  // the caller; the simulator never calls this.
  virtual void caller_checks_each_proposal() {}
  // Bounds each pass's wall time, for schedulers that can be cut off mid-pass (a Python
  // policy; the others bound their work by effort, not time, and ignore this).
  virtual void limit_pass_time(const PassTimeLimit&) {}
};

}  // namespace hs
