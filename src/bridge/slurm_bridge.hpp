#pragma once
// Drives a live Slurm with a hetsched scheduler. Users submit jobs held (`sbatch -H`); once
// per cycle the bridge lists Slurm's jobs, lets the scheduler decide on the held ones as it
// would in the simulator, checks every proposed allocation independently, and starts each
// accepted job on exactly the chosen nodes:
//   scontrol update JobId=J NumNodes=K ReqNodeList=<nodes> MinCPUsNode=C [TresPerNode=...]
//   scontrol release J
// Slurm's own scheduler never starts a held job, so the bridge decides every start of its
// jobs; Slurm still enforces capacities, runs and ends the jobs.
#include <cstdint>
#include <string>
#include <vector>

#include "bridge/live_queue.hpp"
#include "model/cluster.hpp"
#include "sim/scheduler.hpp"

namespace hs::bridge {

// The two things the bridge needs from Slurm; tests replace them.
class SlurmCommands {
 public:
  virtual ~SlurmCommands() = default;
  // `scontrol show job --details --oneliner` output.
  virtual std::string list_jobs() = 0;
  // Names the listing in error messages.
  virtual std::string listing_name() const { return "scontrol show job"; }
  // Runs one scontrol command; false (with `error` set) when it failed.
  virtual bool run(const std::vector<std::string>& argv, std::string& error) = 0;
};

struct CycleReport {
  Time now = 0;
  std::size_t pending = 0;
  std::size_t running = 0;
  std::size_t started = 0;
  std::size_t refused = 0;        // proposals the independent check turned down
  std::size_t command_failures = 0;
  std::vector<std::string> log;   // one line per start, refusal, rejection or failure
};

class SlurmBridge {
 public:
  // `memory_consumable`: the live Slurm's SelectTypeParameters count memory.
  SlurmBridge(const Cluster& cluster, Scheduler& scheduler, SlurmCommands& slurm,
              std::string partition, bool memory_consumable = false);
  CycleReport cycle(Time now);
  const LiveQueue& queue() const { return queue_; }

 private:
  void start(const StartDecision& start, ClusterState& free, Time now, CycleReport& report);
  void hold_again(std::int64_t slurm_id, CycleReport& report);
  bool run(const std::vector<std::string>& argv, CycleReport& report);

  const Cluster& cluster_;
  Scheduler& scheduler_;
  SlurmCommands& slurm_;
  LiveQueue queue_;
};

// The scontrol update arguments that pin a job to `alloc` (without the leading
// "scontrol update").
std::vector<std::string> pinning_arguments(const Cluster& cluster, const Job& job,
                                           const Allocation& alloc);

}  // namespace hs::bridge
