#pragma once
// A Slurm job's listing in the model's terms: the request a scheduler plans (job_from_live),
// the memory one of its nodes must have, and what of it the model cannot express.
#include <cstdint>
#include <string>

#include "bridge/scontrol_jobs.hpp"
#include "model/cluster.hpp"
#include "model/job.hpp"

namespace hs::bridge {

// Memory as the live Slurm counts it: consumed only under a SelectTypeParameters with
// _Memory (e.g. CR_Core_Memory); otherwise jobs' memory requests are left out.
struct LiveMemory {
  bool consumable = false;
  std::int64_t whole_node_mb = 0;     // what MinMemoryNode=0 (--mem=0) takes: smallest RealMemory
  std::int64_t largest_node_mb = 0;
  std::int32_t largest_node_cores = 0;
  static LiveMemory of(const Cluster& cluster, bool consumable);
};

// The hetsched job request a Slurm job's fields describe. A comment `hetsched:gpu=1-3`
// widens the per-node count of that gres to a range (Slurm itself has no gres ranges).
// Memory per node: MinMemoryNode, or MinMemoryCPU times the CPUs one node can get (exact
// with --ntasks-per-node, else an upper bound), when `memory` says Slurm consumes it.
// A malformed comment range is an InputError.
// `managed`: the partition the bridge manages ("" = all), chosen among the job's partitions.
Job job_from_live(const LiveJob& live, const LiveMemory& memory = {}, const std::string& managed = "");

// The partition the bridge plans a job in: `managed` when the job may run there ("lab" of
// "lab,debug"), else the first it names.
std::string planned_partition(const LiveJob& live, const std::string& managed);

// Memory one node of the job must have free, in Slurm's terms (see job_from_live); 0 when
// Slurm does not consume memory.
std::int64_t memory_per_node_mb(const LiveJob& live, const LiveMemory& memory);

// A per-job, per-socket or per-gres request the model does not express, or "".
std::string unmodelled_tres(const LiveJob& live);

}  // namespace hs::bridge
