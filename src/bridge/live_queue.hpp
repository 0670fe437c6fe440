#pragma once
// The live system as a scheduler sees it. Every job the bridge has met gets a stable JobRef
// in one growing Workload (schedulers may keep per-job state between passes); each listing
// of Slurm's job table becomes the pass's pending queue (jobs held for the bridge), running
// jobs with their allocations, free resources and the events since the previous listing.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bridge/scontrol_jobs.hpp"
#include "model/cluster.hpp"
#include "model/job.hpp"
#include "sim/cluster_state.hpp"
#include "sim/scheduler.hpp"

namespace hs::bridge {

// A start the bridge asked for and Slurm has not yet carried out.
struct InFlightStart {
  Allocation alloc;
  Time requested_at = 0;
};

struct LiveSnapshot {
  explicit LiveSnapshot(const Cluster& cluster) : free(cluster) {}
  std::vector<JobRef> pending;             // held jobs the bridge may start, submit order
  std::vector<Allocation> allocations;     // one per entry of running
  std::vector<RunningJob> running;         // alloc pointers into allocations
  ClusterState free;
  std::vector<Event> events;
  std::vector<std::int64_t> start_overdue;  // released, still pending after the grace time
  std::vector<std::string> rejected;        // "job 12: reason", newly found never runnable
};

// Memory as the live Slurm counts it: consumed only under a SelectTypeParameters with
// _Memory (e.g. CR_Core_Memory); otherwise jobs' memory requests are left out.
struct LiveMemory {
  bool consumable = false;
  std::int64_t whole_node_mb = 0;     // what MinMemoryNode=0 (--mem=0) takes: smallest RealMemory
  std::int64_t largest_node_mb = 0;
  std::int32_t largest_node_cores = 0;
  static LiveMemory of(const Cluster& cluster, bool consumable);
};

class LiveQueue {
 public:
  // `partition`: only held jobs of this partition are the bridge's (empty = all).
  LiveQueue(const Cluster& cluster, std::string partition, bool memory_consumable = false);
  // Builds the pass input from one job listing taken at `now`. Throws InputError when the
  // listing contradicts the cluster (an unknown node, more in use than a node has).
  LiveSnapshot update(const std::vector<LiveJob>& jobs, Time now);
  void mark_started(JobRef job, const Allocation& alloc, Time now);
  // The scheduler says it can never run `job`: it stays held and out of later queues.
  void reject(JobRef job, const std::string& reason) { rejected_[job] = reason; }
  const Workload& workload() const { return workload_; }
  std::int64_t slurm_id(JobRef job) const { return workload_.jobs[job].id; }
  std::size_t rejected_count() const { return rejected_.size(); }

  static constexpr Time kStartGrace = 30;  // seconds Slurm gets to start a released job

 private:
  struct RunningEntry {
    Time start;
    JobRef job;
    Time end;
    Allocation alloc;
  };
  JobRef register_job(const LiveJob& live);
  void hold(LiveSnapshot& snap, std::vector<RunningEntry>& running, JobRef ref, Time start,
            Allocation alloc) const;
  bool handle_in_flight(const LiveJob& live, JobRef ref, Time now, LiveSnapshot& snap,
                        std::vector<RunningEntry>& running);
  void add_pending(const LiveJob& live, LiveSnapshot& snap);
  void finish(LiveSnapshot& snap, std::vector<RunningEntry> running);
  Allocation allocation_of(const LiveJob& live) const;
  bool is_ours(const LiveJob& live) const;

  const Cluster& cluster_;
  std::string partition_;
  LiveMemory memory_;
  std::map<std::string, NodeIndex> node_index_;
  Workload workload_;
  std::map<std::int64_t, JobRef> ref_of_id_;
  std::map<JobRef, InFlightStart> in_flight_;
  std::map<JobRef, std::string> rejected_;
  std::vector<JobRef> previous_pending_;
  std::vector<JobRef> previous_running_;
};

// The hetsched job request a Slurm job's fields describe. A comment `hetsched:gpu=1-3`
// widens the per-node count of that gres to a range (Slurm itself has no gres ranges).
// Memory per node: MinMemoryNode, or MinMemoryCPU times the CPUs one node can get (exact
// with --ntasks-per-node, else an upper bound), when `memory` says Slurm consumes it.
Job job_from_live(const LiveJob& live, const LiveMemory& memory = {});

}  // namespace hs::bridge
