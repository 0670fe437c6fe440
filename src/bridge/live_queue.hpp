#pragma once
// The live system as a scheduler sees it, reconciled with Slurm every cycle. Every job the
// bridge has met gets a stable JobRef in one growing Workload (schedulers may keep per-job
// state between passes). Each reading of Slurm (jobs of every state, node states,
// advance reservations) becomes the pass's queue (held jobs in the Queued phase), running
// jobs with their allocations, free resources, the events since the previous reading, and
// the repairs the lifecycle needs (job_lifecycle.hpp). Reality never makes it fail: what
// contradicts the plan is reported as a conflict and planned around.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "bridge/job_eligibility.hpp"
#include "bridge/job_lifecycle.hpp"
#include "bridge/live_job_request.hpp"
#include "bridge/partition_cpu_caps.hpp"
#include "bridge/scontrol_jobs.hpp"
#include "bridge/slurm_nodes.hpp"
#include "model/cluster.hpp"
#include "model/job.hpp"
#include "model/request_fit.hpp"
#include "sim/cluster_state.hpp"
#include "sim/scheduler.hpp"

namespace hs::bridge {

// One reading of Slurm.
struct SlurmView {
  std::vector<LiveJob> jobs;
  std::vector<LiveNode> nodes;               // empty: node states unknown (all usable)
  std::vector<LiveReservation> reservations;
  std::vector<LivePartition> partitions;     // empty: partition states unknown (all schedulable)
};

// Commands a job's lifecycle needs before this cycle schedules, and why.
struct Repair {
  std::int64_t job = 0;
  std::vector<Step> steps;
  std::string why;
  bool counted = true;  // in the cycle's repaired / held-again counts (splitting an array is not)
};

// Releases a held job unpinned to Slurm's own scheduler, saying why.
Repair hand_over_repair(const LiveJob& live, const std::string& why);

struct LiveSnapshot {
  explicit LiveSnapshot(const Cluster& cluster) : free(cluster) {}
  std::vector<JobRef> pending;             // Queued jobs the scheduler may start, submit order
  std::vector<Allocation> allocations;     // one per entry of running
  std::vector<RunningJob> running;         // alloc pointers into allocations
  ClusterState free;
  std::vector<Event> events;
  std::vector<Repair> repairs;
  std::vector<std::string> conflicts;      // what contradicted the plan, once per cause
  std::vector<std::int64_t> in_flight;     // released, not yet running, within the grace
  std::vector<std::string> refused;        // "job 12: reason" for every held job that can never run
  std::vector<std::string> waiting;        // "job 12: waits for ..." (job_eligibility.hpp), kept held
  std::vector<std::string> notices;        // waiting reasons new since the previous listing
  std::vector<std::string> blocked_nodes;  // "n2 (drain)"
  std::size_t unmanaged_pending = 0;       // pending jobs Slurm's own scheduler places
  PartitionCpuCaps cpu_caps;               // every listed partition's MaxCPUsPerNode, and its use
};

class LiveQueue {
 public:
  static constexpr Time kDefaultStartGrace = 30;  // seconds Slurm gets to start a released job

  // `partition`: only jobs of this partition are the bridge's (empty = all).
  LiveQueue(const Cluster& cluster, std::string partition, bool memory_consumable = false,
            Time start_grace = kDefaultStartGrace);
  LiveQueue(const LiveQueue&) = delete;  // runnable_ refers to bound_cluster_
  LiveQueue& operator=(const LiveQueue&) = delete;
  LiveSnapshot update(const SlurmView& view, Time now);
  // The exact allocation of a job just released (the listing gives only its node list
  // and per-node minimum).
  void mark_started(JobRef job, const Allocation& alloc) {
    planned_[slurm_id(job)] = alloc;
    claimed_.insert(job);
  }
  // Shadow mode: a start predicted for `job` (nothing applied; announced again next update).
  void mark_predicted(JobRef job) {
    claimed_.insert(job);
    announce_again_.insert(job);
  }
  // Whether `job` waits in the latest update's queue and no start was applied to or
  // predicted for it since: a start proposed for any other job is refused.
  bool startable(JobRef job) const { return pending_.count(job) && !claimed_.count(job); }
  // A start proposed for `job` was refused or its commands failed: the next update
  // announces it to the scheduler as submitted again.
  void announce_again(JobRef job) { announce_again_.insert(job); }
  // The scheduler says it can never run `job`: refused until its request changes.
  void reject(JobRef job, const std::string& reason);
  const Workload& workload() const { return workload_; }
  bool knows(JobRef job) const { return job >= 0 && static_cast<std::size_t>(job) < workload_.jobs.size(); }
  // The cluster as Slurm lists it now: its partitions' nodes and limits may differ from the
  // slurm.conf the bridge started with (an operator's scontrol update). Schedulers plan on it.
  const Cluster& live_cluster() const { return live_cluster_; }
  std::int64_t slurm_id(JobRef job) const { return workload_.jobs[job].id; }
  // The latest listing of a job met in update().
  const LiveJob& live(JobRef job) const { return latest_.at(slurm_id(job)); }
  // What the scheduler models: a job asking more (e.g. -w under a window scheduler) is
  // released to Slurm's own scheduler rather than left held.
  void set_support(RequestSupport support, std::string scheduler) {
    support_ = support;
    scheduler_name_ = std::move(scheduler);
  }
  // Shadow mode: pending jobs are queued whether held or not (observe_shadow).
  void set_shadow(bool shadow) { shadow_ = shadow; }
  // Slurm answered again after an outage at `now`: released jobs get their full grace from
  // here (the controller could not start them while it was down).
  void outage_ended(Time now) { grace_floor_ = now; }

 private:
  struct RunningEntry {
    Time start;
    JobRef job;
    Time end;
    Allocation alloc;
  };
  struct Pass;  // one update's working state
  JobRef register_job(const LiveJob& live);
  std::optional<std::string> refusal(const LiveJob& live, JobRef ref);
  void take_running(Pass& pass, const LiveJob& live);
  void follow_partitions(Pass& pass, const SlurmView& view);
  void block_nodes(Pass& pass, const SlurmView& view);
  void cap_partition_cpus(Pass& pass);
  // The partition a job is planned in (the managed one when it names it among others).
  std::string planned_partition_of(JobRef job) const;
  void follow_released(Pass& pass, const LiveJob& live, const JobMarker& marker);
  void consider_queued(Pass& pass, const LiveJob& live, const std::optional<JobMarker>& marker);
  std::optional<std::string> slurms_own(const LiveJob& live, const EligibilityVerdict& verdict) const;
  const LivePartition* partition_of(const LiveJob& live) const;
  static std::string beyond_limits(const LiveJob& live, const LivePartition& limits);
  void refuse(Pass& pass, const LiveJob& live, const std::optional<JobMarker>& marker,
              const std::string& reason);
  void finish(LiveSnapshot& snap, std::vector<RunningEntry> running, const std::set<NodeIndex>& blocked);
  std::string holders_of(const Pass& pass, const Allocation& planned) const;
  Allocation allocation_of(const LiveJob& live) const;
  Allocation planned_allocation(const LiveJob& live) const;
  void conflict(LiveSnapshot& snap, const std::string& key, const std::string& text);
  void note_unstarted_release(const LiveJob& live, Time now);
  std::optional<std::string> release_pause(const LiveJob& live, Time now) const;
  std::optional<std::string> throttle_wait(Pass& pass, const LiveJob& live) const;
  void split_ahead(Pass& pass, const LiveJob& live);

  const Cluster& cluster_;
  // The same cluster with its partitions' limits as Slurm lists them now (an operator may
  // have changed them since slurm.conf was read) and each partition's nodes in slurm.conf
  // or listed now: what a job's request is bound against and judged ever runnable on.
  Cluster bound_cluster_;
  RunnableMemo runnable_;  // whether a request could ever run on it, kept per request shape
  // The partitions' nodes exactly as listed now (bound_cluster_ keeps slurm.conf's too: a
  // job is never refused for a node an operator took out for a while).
  Cluster live_cluster_;
  std::string partition_;
  LiveMemory memory_;
  Time start_grace_;
  bool shadow_ = false;
  RequestSupport support_{true, true, true, true};
  std::string scheduler_name_;
  std::map<std::string, NodeIndex> node_index_;
  Workload workload_;
  JobDirectory directory_;  // every job's state, for dependencies and array throttles
  std::map<std::string, LivePartition> partitions_;  // by name, as last listed: their limits
  std::map<std::int64_t, JobRef> ref_of_id_;
  std::map<std::int64_t, LiveJob> latest_;
  std::map<std::int64_t, Allocation> planned_;                 // released jobs' exact allocations
  std::map<std::int64_t, std::pair<std::string, std::string>> scheduler_refusals_;  // id -> request, reason
  std::set<std::string> reported_conflicts_;
  std::map<std::int64_t, std::string> waiting_said_;  // the reason last reported per waiting job
  struct ReleaseRetry {
    int failures = 0;     // releases in a row Slurm did not start within the grace
    Time not_before = 0;  // no new release before
    std::string reason;   // Slurm's reason at the last one
  };
  std::map<std::int64_t, ReleaseRetry> release_retries_;
  static constexpr Time kMaxReleasePause = 600;
  // Array tasks split off ahead (split_ahead): at most this many held per array, and this
  // many split per cycle (one scontrol command each).
  static constexpr int kSplitAhead = 32;
  static constexpr int kSplitsPerCycle = 64;
  std::set<NodeIndex> previous_blocked_;
  bool membership_changed_ = false;  // a partition's nodes changed since the latest update
  Time grace_floor_ = 0;  // start graces count from here at the earliest (end of an outage)
  std::set<JobRef> pending_;                   // the latest update's queue
  std::set<JobRef> claimed_;                   // started (or predicted) since the latest update
  std::set<JobRef> announce_again_;
  std::map<JobRef, std::string> queued_as_;    // each waiting job's request when it joined the queue
  std::vector<JobRef> previous_running_;
};

}  // namespace hs::bridge
