#pragma once
// Drives a live Slurm with a hetsched scheduler. Jobs of the managed partition are held
// (sbatch -H, or held at submission by the shipped job_submit.lua); once per cycle the
// bridge reads Slurm (jobs, nodes, reservations), reconciles what it sees with the life of
// each managed job (job_lifecycle.hpp), lets the scheduler decide on the queued ones as it
// would in the simulator, checks every proposed allocation independently (a bad one is
// turned down alone; a pass the scheduler fails applies nothing), and starts each
// accepted job on exactly the chosen nodes:
//   scontrol update JobId=J AdminComment=<record of the original request>
//   scontrol update JobId=J NumNodes=K-K ReqNodeList=<nodes> MinCPUsNode=C NumCPUs=N [TresPerNode=...]
//   scontrol release J ; scontrol update JobId=J Priority=<top>
// Slurm's own scheduler never starts a held job, so the bridge decides every start of its
// jobs; Slurm still enforces capacities, runs and ends the jobs.
#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "bridge/live_queue.hpp"
#include "model/cluster.hpp"
#include "sim/scheduler.hpp"

namespace hs::bridge {

// Slurm could not be asked (controller down or restarting): wait and try again.
class SlurmUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What the bridge needs from Slurm; tests replace it.
class SlurmCommands {
 public:
  virtual ~SlurmCommands() = default;
  // `scontrol show job --details --oneliner` output. Throws SlurmUnavailable.
  virtual std::string list_jobs() = 0;
  // `scontrol show node --oneliner`; "" when node states are not known.
  virtual std::string list_nodes() { return ""; }
  // `scontrol show reservation --oneliner`; "" when there are none.
  virtual std::string list_reservations() { return ""; }
  // `scontrol show partition --oneliner`; "" when partition states are not known.
  virtual std::string list_partitions() { return ""; }
  // Names the listings in error messages.
  virtual std::string listing_name() const { return "scontrol show"; }
  // Runs one scontrol command; false (with `error` set) when it failed.
  virtual bool run(const std::vector<std::string>& argv, std::string& error) = 0;
};

struct BridgeOptions {
  std::string partition;            // "" = every partition
  bool memory_consumable = false;   // the live Slurm's SelectTypeParameters count memory
  Time start_grace = LiveQueue::kDefaultStartGrace;
  bool shadow = false;              // decide and record only; no job is held or started
  // Slurm allocates whole cores (select/cons_tres under every SelectTypeParameters, CR_CPU
  // included): on a node whose CPUs are its threads (2 per core) a share of 3 CPUs holds 4.
  bool whole_cores = true;
};

struct CycleReport {
  Time now = 0;
  std::size_t listed = 0;           // jobs in Slurm's table
  std::size_t pending = 0;          // queued for the scheduler
  std::size_t running = 0;          // running or released (in flight)
  std::size_t in_flight = 0;
  std::size_t started = 0;
  std::size_t predicted = 0;        // shadow mode: first predictions made this cycle
  std::size_t reheld = 0;           // released jobs held again, request restored
  std::size_t repaired = 0;         // other lifecycle repairs carried out
  std::size_t refused = 0;          // held jobs that can never run
  std::size_t waiting = 0;          // held jobs Slurm would not start yet (dependency, begin time)
  std::size_t proposals_refused = 0;  // proposals the independent check turned down
  std::size_t unmanaged_pending = 0;
  std::size_t blocked_nodes = 0;
  std::size_t conflicts = 0;
  std::size_t command_failures = 0;
  bool policy_failed = false;       // the scheduler failed its pass: nothing it proposed applied
  std::int64_t duration_ms = 0;     // wall time of the cycle (reading Slurm included)
  std::vector<std::string> log;     // one line per start, refusal, repair, conflict or failure
  std::string json() const;         // one JSON object, no line break
};

// One prediction of shadow mode: the first pass that would have started the job.
struct ShadowPrediction {
  Time at = 0;                             // when the policy would have started it
  std::vector<std::string> nodes;          // and where
  Time actual_start = -1;                  // when Slurm started it (-1: not yet seen running)
  std::vector<std::string> actual_nodes;
};

class SlurmBridge {
 public:
  SlurmBridge(const Cluster& cluster, Scheduler& scheduler, SlurmCommands& slurm,
              BridgeOptions options = {});
  CycleReport cycle(Time now);
  // On stop: every released job not yet running is held again with its request restored.
  CycleReport hand_back(Time now);
  const LiveQueue& queue() const { return queue_; }
  const std::map<std::int64_t, ShadowPrediction>& predictions() const { return predictions_; }

 private:
  SlurmView read_slurm() const;
  Decisions decide(const SystemView& system, std::vector<Event> events, CycleReport& report);
  void start(const StartDecision& start, ClusterState& free, Time now, CycleReport& report);
  std::string job_name(JobRef job) const;  // "job <Slurm id>" for log lines
  void refuse(const std::string& what, CycleReport& report);  // a proposal turned down
  bool predict(const StartDecision& start, Time now);  // false: already predicted
  void record_actual_starts(const SlurmView& view);
  void read_cpus_per_core(const std::vector<LiveNode>& nodes);
  Allocation as_slurm_allocates(const Allocation& alloc) const;
  int run_steps(const std::vector<Step>& steps, CycleReport& report);
  void repair(const Repair& repair, CycleReport& report);
  bool run(const std::vector<std::string>& argv, CycleReport& report);

  const Cluster& cluster_;
  Scheduler& scheduler_;
  SlurmCommands& slurm_;
  BridgeOptions options_;
  LiveQueue queue_;
  std::vector<std::int32_t> cpus_per_core_;  // per node, as Slurm last listed it
  std::map<std::int64_t, ShadowPrediction> predictions_;
  bool slurm_was_down_ = false;
  std::set<std::string> refusals_said_;  // the previous cycle's refusals, as logged
  std::set<std::string> refusals_now_;
  PartitionCpuCaps cpu_caps_;          // this cycle's, with its starts added
  std::vector<Event> unheard_events_;  // of cycles whose pass the scheduler failed
  std::string last_policy_error_;      // logged in full only when it changes
  int failed_passes_in_row_ = 0;
};

// The scontrol update arguments that pin `live` (named by LiveJob::target()) to `alloc`
// (without the leading "scontrol update"); `job` is its request as the scheduler saw it.
// Even allocations also fix the tasks per node (cores / CPUs per task), so that Slurm lays
// the tasks out exactly as chosen. An exclusive job gets its nodes only: Slurm gives it
// every core of them, and its own task count stays as the user asked. Gres are pinned per
// node (the count chosen in a range, the type kept) unless the user gave them per task or
// per job, which stay as given.
std::vector<std::string> pinning_arguments(const Cluster& cluster, const Job& job,
                                           const Allocation& alloc, const LiveJob& live);

}  // namespace hs::bridge
