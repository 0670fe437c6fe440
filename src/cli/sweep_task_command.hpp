#pragma once

namespace hs::cli {
// `hetsched sweep-task SWEEP_FILE INDEX` (hidden): one run of a sweep that `--executor slurm`
// wrote to SWEEP_FILE, as a task of its job array; exit code as the run's (cli/exit_codes.hpp).
int run_sweep_task_command(int argc, char** argv);
}  // namespace hs::cli
