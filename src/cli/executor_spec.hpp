#pragma once
// Where the runs of a sweep (`compare`, `reproduce`) execute: child processes on this
// machine, or the tasks of one Slurm job array (docs/sweeps.md).
#include <string>

namespace hs::cli {

struct ExecutorSpec {
  bool slurm = false;
  std::string text = "local";  // as given on the command line, for rerun commands
  // Slurm only: sbatch options (empty = the cluster's default) and follow-up knobs.
  std::string partition, time, account, mem;
  int cpus = 1;
  int array_max = 0;   // tasks running at once (the %N of --array); 0 = no limit
  int retries = 2;     // resubmissions of failed tasks
  int poll_seconds = 5;
};

// "local" or "slurm[:partition=P,time=T,account=A,mem=M,cpus=N,array_max=N,retries=N,poll=S]";
// InputError naming --executor and the bad item otherwise.
ExecutorSpec parse_executor(const std::string& text);

}  // namespace hs::cli
