#pragma once
// Adding GPU requests to a trace that has none (e.g. an SWF file from the Parallel Workloads
// Archive) so it can be replayed on a GPU cluster: a seeded fraction of the jobs asks g GPUs
// on every node it uses. The rule's parameters belong in every result header (describe()).
#include <cstdint>
#include <string>

#include "model/job.hpp"

namespace hs {

struct GpuRule {
  double fraction = 0.5;      // share of jobs that get the request, in [0, 1]
  std::int32_t gpus = 1;      // GPUs per node
  std::int32_t gpus_max = 0;  // > gpus: a range gpus-gpus_max per node (moldable jobs)
  std::string gres = "gpu";   // gres name written into the request
};

// Parses "fraction=0.3,gpus=2[,gpus_max=3][,gres=gpu]" (InputError on bad keys/values).
GpuRule parse_gpu_rule(const std::string& text);
// "fraction=0.3,gpus=2,gpus_max=0,gres=gpu" — the effective rule.
std::string describe(const GpuRule& rule);

// Each job without a request for `rule.gres` independently gets one with probability
// `fraction` (draws from Rng(seed) in job order, one per job, so the choice of job i does not
// depend on later jobs). Jobs already asking for that gres are left alone. Type indices are
// left unbound (-1); bind the workload to the cluster afterwards.
void add_gpu_requests(Workload& workload, const GpuRule& rule, std::uint64_t seed);

}  // namespace hs
