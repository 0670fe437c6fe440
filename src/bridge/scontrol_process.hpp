#pragma once
// SlurmCommands on the real scontrol binary (found through PATH; SLURM_CONF is honoured by
// scontrol itself). With dry_run, commands are printed instead of run; listing still reads
// the live job table.
#include <chrono>
#include <ostream>

#include "bridge/slurm_bridge.hpp"

namespace hs::bridge {

class ScontrolProcess : public SlurmCommands {
 public:
  // Every scontrol call is killed after `limit` (run_process); a listing cut off so is Slurm
  // being unavailable, a command cut off so has failed (the bridge's failure paths follow).
  ScontrolProcess(bool dry_run, std::ostream& echo, std::chrono::seconds limit = std::chrono::seconds(60))
      : dry_run_(dry_run), echo_(echo), limit_(limit) {}
  std::string list_jobs() override;
  std::string list_nodes() override;
  std::string list_reservations() override;
  std::string list_partitions() override;
  bool run(const std::vector<std::string>& argv, std::string& error) override;

 private:
  std::string listing(const std::vector<std::string>& argv) const;

  bool dry_run_;
  std::ostream& echo_;
  std::chrono::seconds limit_;
};

// What run_process returns for a command killed at its time limit (as timeout(1) does).
inline constexpr int kKilledAtLimit = 124;

// Runs argv (no shell), returns its exit status and fills `output` with stdout and stderr.
// A command still running after `limit` (a controller that accepts connections but never
// answers, a hung munge) is killed, so that no cycle waits on it for ever; its output then
// ends with a line saying so.
int run_process(const std::vector<std::string>& argv, std::string& output,
                std::chrono::seconds limit = std::chrono::seconds(60));

}  // namespace hs::bridge
