#pragma once
// What a site's slurm.conf says about scheduling, as options of our Slurm model:
// SchedulerType, the SchedulerParameters the model implements (bf_window, bf_interval,
// bf_resolution, bf_max_job_test, bf_job_part_count_reserve, default_queue_depth,
// sched_interval, batch_sched_delay), PriorityType and the multifactor keys it implements
// (PriorityCalcPeriod, PriorityMaxAge, PriorityWeightAge, PriorityWeightJobSize,
// PriorityFavorSmall). Everything else that changes scheduling in real Slurm is named in a
// warning, so a replay never silently differs from the site's configuration.
#include <string>
#include <vector>

#include "io/slurm_conf.hpp"
#include "util/params.hpp"

namespace hs {

struct SiteOptions {
  std::vector<OptionDefault> options;  // our option names, each with its slurm.conf line
  std::vector<std::string> warnings;   // "file:line: ..." for settings the model lacks
};

// InputError (file, line, key, value) for values that are not what Slurm accepts.
SiteOptions slurm_model_options(const SlurmConfig& conf);

}  // namespace hs
