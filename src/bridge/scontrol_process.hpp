#pragma once
// SlurmCommands on the real scontrol binary (found through PATH; SLURM_CONF is honoured by
// scontrol itself). With dry_run, commands are printed instead of run; listing still reads
// the live job table.
#include <ostream>

#include "bridge/slurm_bridge.hpp"

namespace hs::bridge {

class ScontrolProcess : public SlurmCommands {
 public:
  ScontrolProcess(bool dry_run, std::ostream& echo) : dry_run_(dry_run), echo_(echo) {}
  std::string list_jobs() override;
  std::string list_nodes() override;
  std::string list_reservations() override;
  std::string list_partitions() override;
  bool run(const std::vector<std::string>& argv, std::string& error) override;

 private:
  bool dry_run_;
  std::ostream& echo_;
};

// Runs argv (no shell), returns its exit status and fills `output` with stdout and stderr.
int run_process(const std::vector<std::string>& argv, std::string& output);

}  // namespace hs::bridge
