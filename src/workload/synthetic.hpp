#pragma once
// The AUCSCHED white paper's synthetic CPU-GPU workloads (000 §6.1; thesis 7.3.2, Table 7.2):
// mixes I-V of four job kinds, three contiguity versions, about 4 h of theoretical runtime.
#include <cstdint>
#include <string>

#include "model/cluster.hpp"
#include "model/job.hpp"
#include "util/params.hpp"
#include "workload/common.hpp"

namespace hs {

struct SyntheticOptions {
  std::string mix = "I";    // I..V (Table 7.2)
  std::int32_t contig = 0;  // 0, 50 or 100: percent of jobs asking --contiguous
  double hours = 4.0;       // jobs are drawn until their theoretical runtime reaches this
  Time runtime_min = 60;
  Time runtime_max = 600;
  double max_fraction = 0.125;  // largest job as a fraction of all cores
  double arrival_mean = 0;      // mean exponential inter-arrival (s); 0 = all at t = 0
  workload_detail::CommonOptions common;
};

SyntheticOptions read_synthetic_options(Params& params);
Workload generate_synthetic(const SyntheticOptions& options, const Cluster& cluster,
                            std::uint64_t seed);

}  // namespace hs
