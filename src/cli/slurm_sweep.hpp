#pragma once
// Runs the independent runs of a sweep as one Slurm job array: submits the runs not done yet,
// follows them with squeue (printing pending/running/done/failed counts), resubmits failed
// ones up to the executor's retry limit. A run counts as done only by its own outputs on the
// shared file system, so a restarted sweep submits just what is missing.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cli/executor_spec.hpp"
#include "cli/parallel_runs.hpp"

namespace hs::cli {

struct SlurmSweep {
  std::size_t runs = 0;  // array task i runs run i
  // The run's exit code once its outputs are complete, nullopt while they are not.
  std::function<std::optional<int>(std::size_t)> finished;
  std::function<std::string(std::size_t)> describe;  // e.g. "backfill seed 3", for messages
  std::string state_dir;     // task.sh and logs/ go here; must be on the shared file system
  std::string task_command;  // what a task runs; the array task id is appended
  std::string workdir;       // the tasks' working directory
};

// One result per run (call check_slurm_ready before writing anything); a run still missing after the last retry has exit code 3 and a detail
// naming its last state and log file.
std::vector<TaskResult> run_on_slurm(const SlurmSweep& sweep, const ExecutorSpec& executor);

}  // namespace hs::cli
