#pragma once
// A comparison's runs as one Slurm job array (--executor slurm): the sweep file the tasks read,
// the task command, and which runs are finished, on top of cli/slurm_sweep.hpp.
#include <vector>

#include "cli/comparison.hpp"
#include "cli/parallel_runs.hpp"

namespace hs::cli {

// One result per run in run_comparison's order. <out>/sweep/sweep.txt ties the runs under
// --out to this sweep: a restart with the same spec submits only runs without a check.txt;
// a fresh sweep first removes every run's check.txt so nothing stale counts as done;
// InputError when --out holds another sweep.
std::vector<TaskResult> run_comparison_on_slurm(const ComparisonSpec& spec);

}  // namespace hs::cli
