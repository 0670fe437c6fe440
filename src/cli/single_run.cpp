#include "cli/single_run.hpp"

#include <chrono>
#include <utility>

#include "cli/plan_dump.hpp"
#include "cli/progress.hpp"
#include "cli/window_dump.hpp"
#include "util/error.hpp"
#include "policy/registry.hpp"
#include "sim/bind.hpp"

namespace hs::cli {

RunOutcome run_checked(const Cluster& cluster, Workload workload, const RunRequest& request) {
  RunOutcome outcome;
  outcome.bound = std::move(workload);
  // Readers grow the job list as they go; a year-long trace would keep up to half of it
  // again as spare capacity for the whole replay.
  outcome.bound.jobs.shrink_to_fit();
  bind_workload(cluster, outcome.bound);
  BuiltScheduler built = make_scheduler(request.scheduler_spec, request.options, request.slurm_site_options);
  outcome.scheduler_name = built.scheduler->name();
  outcome.effective_options = built.effective_options;
  outcome.site_options_used = built.site_options_used;
  if (!request.dump_windows_dir.empty()) {
    if (!window::observe_solves(*built.scheduler, {}))
      throw InputError({"<command line>", 0}, "--dump-windows", request.dump_windows_dir,
                       "only window schedulers solve windows (scheduler: " +
                           outcome.scheduler_name + ")");
    window::observe_solves(*built.scheduler,
                           make_window_dumper(request.dump_windows_dir, outcome.scheduler_name));
  }

  if (!request.dump_plans_path.empty()) {
    if (!slurm::observe_backfill_plans(*built.scheduler, {}))
      throw InputError({"<command line>", 0}, "--dump-plans", request.dump_plans_path,
                       "only the Slurm model (backfill, backfill-easy) makes backfill plans "
                       "(scheduler: " + outcome.scheduler_name + ")");
    slurm::observe_backfill_plans(
        *built.scheduler, make_plan_dumper(request.dump_plans_path, cluster, outcome.bound));
  }

  SimConfig config;
  config.periodic_interval = request.periodic_interval;
  config.progress = make_progress(outcome.scheduler_name, request.show_progress);
  const auto t0 = std::chrono::steady_clock::now();
  outcome.result = simulate(cluster, outcome.bound, *built.scheduler, config);
  outcome.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  finish_progress(static_cast<bool>(config.progress));

  outcome.window_pass_stats = window::take_pass_stats(*built.scheduler);
  if (!outcome.window_pass_stats.empty())
    outcome.window_passes = window::summarize_passes(outcome.window_pass_stats);
  outcome.check = check_run(cluster, outcome.bound, outcome.result);
  outcome.summary = summarize(cluster, outcome.bound, outcome.result);
  return outcome;
}

}  // namespace hs::cli
