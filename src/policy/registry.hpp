#pragma once
// Every scheduler of the project by name. A spec is "name" or "name:key=value,key=value";
// options given separately (--opt) are merged in, spec options first.
#include <memory>
#include <string>
#include <vector>

#include "sim/scheduler.hpp"
#include "util/params.hpp"

namespace hs {

struct SchedulerInfo {
  std::string name;
  std::string description;
};

std::vector<SchedulerInfo> scheduler_list();

struct BuiltScheduler {
  std::unique_ptr<Scheduler> scheduler;
  std::string effective_options;  // "key=value,..." with defaults filled in, for run headers
  std::vector<ParamDoc> option_docs;
  std::vector<std::string> site_options_used;  // "key=value" taken from slurm.conf
};

// Throws InputError for unknown names, unknown options and invalid values.
// `slurm_site_options` (from a site's slurm.conf, io/slurm_site_options.hpp) are defaults
// for the Slurm model only: options in the spec or in `extra_options` win over them.
BuiltScheduler make_scheduler(const std::string& spec, const std::vector<std::string>& extra_options,
                              const std::vector<OptionDefault>& slurm_site_options = {});

// The "key=value" items of `options` that the scheduler of `spec` reads (each option entry
// may hold several comma-separated items); for `compare`, whose --opt goes to every scheduler
// that reads it. Throws InputError for an unknown scheduler or a bad spec.
std::vector<std::string> options_read_by(const std::string& spec,
                                         const std::vector<std::string>& options);

}  // namespace hs
