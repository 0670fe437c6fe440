#pragma once
// sbatch's per-task and per-GPU options, mapped onto the model's per-node request where
// Slurm 22.05's meaning has an exact per-node equivalent, onto units (JobRequest::task_cores)
// where tasks may spread over nodes, refused (InputError naming the option and value) where
// neither form is exact:
//   -c/--cpus-per-task=c     cores = tasks x c; per node = tasks per node x c; else units of c
//   --gpus-per-node=[t:]g    = --gres=gpu[:t]:g
//   --gpus-per-task=[t:]g    gpus per node = tasks per node x g; else g per unit
//   -G/--gpus=[t:]N          on one node: N gpus there
//   --cpus-per-gpu=c         with -N a and no -n: c x gpus per node cores on each node
//   --mem-per-cpu=M          memory per node = M x cores per node
//   --mem-per-gpu=M          memory per node = M x gpus per node
// "Tasks per node" is known with --ntasks-per-node, or when the job has exactly one node.
// Units take no --gres (per node), -G, --cpus-per-gpu, --mem-per-cpu or --mem-per-gpu.
#include <cstdint>
#include <string>
#include <string_view>

#include "model/job.hpp"
#include "util/error.hpp"

namespace hs {

struct WrittenOption {
  std::string name;   // as written, for messages ("-c", "--gpus-per-task")
  std::string value;  // as written
  bool given() const { return !name.empty(); }
};

struct TaskOptions {
  WrittenOption cpus_per_task, gpus, gpus_per_node, gpus_per_task, cpus_per_gpu, mem_per_cpu,
      mem_per_gpu;
  bool any() const;
};

// Applies `t` to `req` (already holding -n, -N, --ntasks-per-node, --gres and --mem, with
// ntasks inferred; `ntasks_given` says whether -n was written). InputError when an option
// has no exact per-node meaning here, conflicts with another, or has a bad value.
void apply_task_options(const TaskOptions& t, bool ntasks_given, JobRequest& req,
                        const InputLocation& where);

}  // namespace hs
