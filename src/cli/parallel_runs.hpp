#pragma once
// Runs independent tasks in child processes, at most `parallel` at a time. Processes (not
// threads) isolate runs completely, so a policy's internal state can never leak between
// runs and a crash in one run is reported instead of taking the whole comparison down.
#include <functional>
#include <string>
#include <vector>

namespace hs::cli {

struct TaskResult {
  int exit_code = 0;   // the task's return value, or 128 + signal when it died
  std::string detail;  // why it failed, when the executor knows more (e.g. a Slurm task's log)
};

// Each task returns an exit code; stdout of children is discarded, stderr is kept.
std::vector<TaskResult> run_in_processes(const std::vector<std::function<int()>>& tasks,
                                         int parallel);

}  // namespace hs::cli
