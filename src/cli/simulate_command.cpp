#include "cli/simulate_command.hpp"

#include <filesystem>
#include <iostream>

#include "cli/args.hpp"
#include "cli/exit_codes.hpp"
#include "cli/run_setup.hpp"
#include "cli/single_run.hpp"
#include "cli/version.hpp"
#include "cli/window_passes_csv.hpp"
#include "metrics/outputs.hpp"
#include "metrics/run_manifest.hpp"
#include "util/memory_usage.hpp"

namespace hs::cli {

namespace {

Args simulate_args() {
  Args args("simulate",
            "Replays a workload on a modelled cluster under one scheduler, checks the run with an\n"
            "independent invariant checker, prints the summary and writes per-job outputs.\n"
            "With no options: heterogeneous ESP on the 1024-node 8-core 2-GPU machine under\n"
            "Slurm backfill.");
  args.declare({"cluster", "NAME|FILE", "built-in cluster name, path to slurm.conf, or `trace` (the SWF trace's header; the default for a trace)", kDefaultCluster});
  args.declare({"workload", "SPEC|FILE", "generator spec name[:k=v,...] or job file / SWF trace", kDefaultWorkload});
  args.declare({"scheduler", "SPEC", "scheduler name[:k=v,...] (hetsched list schedulers)", kDefaultScheduler});
  args.declare({"opt", "KEY=VALUE", "scheduler option", "", true});
  args.declare({"seed", "N", "seed of generators and randomised rules", "1"});
  args.declare({"out", "DIR", "directory for jobs.csv, summary.csv/json, queue.csv, usage.csv", "out/simulate"});
  args.declare({"interval", "SECONDS", "extra scheduling pass every N s while jobs wait (0 = none)", "0"});
  args.declare({"add-gpus", "RULE", "add GPU requests to a trace, e.g. fraction=0.3,gpus=2", ""});
  args.declare({"swf-partitions", "MAP", "SWF partition numbers to slurm.conf partitions, e.g. 1=cpu,2=gpu", ""});
  args.declare({"progress", "", "show progress even when stderr is not a terminal", ""});
  args.declare({"dump-windows", "DIR", "save every window solve as a window file (hetsched solve)", ""});
  args.declare({"dump-plans", "FILE",
                "the Slurm model's backfill reservations, every pass (CSV: time,job,"
                "planned_start,nodes)",
                ""});
  return args;
}

void print_header(const Cluster& cluster, const Workload& workload, const std::string& workload_spec,
                  const std::vector<std::string>& transformations, const RunOutcome& run,
                  std::uint64_t seed) {
  std::cout << "hetsched " << version_string() << " simulate\n"
            << "cluster    " << describe_cluster(cluster) << "\n"
            << "workload   " << workload_spec << " (" << workload.jobs.size() << " jobs, seed "
            << seed << ")\n"
            << "scheduler  " << run.scheduler_name << " [" << run.effective_options << "]\n";
  if (!run.site_options_used.empty()) {
    std::cout << "slurm.conf";
    for (std::size_t i = 0; i < run.site_options_used.size(); ++i)
      std::cout << (i ? "," : " ") << run.site_options_used[i];
    std::cout << "\n";
  }
  for (const std::string& t : transformations) std::cout << "transform  " << t << "\n";
  for (const std::string& note : workload.notes) std::cout << "input      " << note << "\n";
  std::cout << "\n";
}

// The first few jobs that never ran, with the reason, so a rejection is never silent.
void print_unrun_jobs(const RunOutcome& run) {
  constexpr int kShown = 5;
  int shown = 0, total = 0;
  for (std::size_t j = 0; j < run.result.records.size(); ++j) {
    const JobRecord& rec = run.result.records[j];
    if (rec.status != JobStatus::Rejected && rec.status != JobStatus::Stalled) continue;
    if (++total > kShown) continue;
    if (shown++ == 0) std::cout << "\n";
    std::cout << (rec.status == JobStatus::Rejected ? "rejected" : "stalled ") << "   job "
              << run.bound.jobs[j].id << ": " << rec.reason << "\n";
  }
  if (total > kShown)
    std::cout << "           ... and " << total - kShown
              << " more (jobs.csv, columns status and reason)\n";
}

// Window schedulers: how the passes went, and every failure signal of the solve.
void print_window_passes(const RunOutcome& run) {
  if (!run.window_passes) return;
  const window::PassSummary& w = *run.window_passes;
  std::printf("\nwindow     %lld passes: %lld solved, %lld with no bid that fits, %lld skipped "
              "(same inputs as the last idle pass); %.1f jobs and %.0f bids per solved window\n",
              static_cast<long long>(w.passes), static_cast<long long>(w.solved),
              static_cast<long long>(w.passes - w.solved - w.repeated),
              static_cast<long long>(w.repeated), w.mean_window, w.mean_bids);
  std::printf("solver     wall time per pass p50 %.1f ms, p99 %.1f ms, max %.1f ms; %lld "
              "time-outs, %lld greedy fallbacks, %lld proposals refused by the checker\n",
              1e3 * w.solve_p50_s, 1e3 * w.solve_p99_s, 1e3 * w.solve_max_s,
              static_cast<long long>(w.timeouts), static_cast<long long>(w.fallbacks),
              static_cast<long long>(w.rejected_proposals));
  if (!w.first_problem.empty()) std::printf("           first refusal: %s\n", w.first_problem.c_str());
  std::printf("bound      gap to the solver's proven bound per solved window p50 %.2f %%, p95 "
              "%.2f %%, max %.2f %%; %lld of %lld proven optimal (passes.csv)\n",
              100 * w.gap_p50, 100 * w.gap_p95, 100 * w.gap_max,
              static_cast<long long>(w.proven), static_cast<long long>(w.solved));
}

RunManifest manifest_of(const Cluster& cluster, const Workload& workload,
                        const std::string& workload_spec,
                        const std::vector<std::string>& transformations, const RunOutcome& run,
                        std::uint64_t seed, int argc, char** argv) {
  RunManifest m;
  m.version = version_string();
  m.command = "hetsched";
  for (int i = 1; i < argc; ++i) m.command += std::string(" ") + argv[i];
  m.cluster = describe_cluster(cluster);
  m.workload = workload_spec;
  m.jobs = static_cast<std::int64_t>(workload.jobs.size());
  m.seed = seed;
  m.input_notes = workload.notes;
  m.transformations = transformations;
  m.site_options = run.site_options_used;
  m.scheduler = run.scheduler_name;
  m.options = run.effective_options;
  return m;
}

int report_check(const CheckReport& check) {
  if (check.ok()) {
    std::cout << "checker    OK: no over-allocation, no early start, every job accounted for\n";
    return kExitOk;
  }
  std::cout << "checker    " << check.violations.size() << " VIOLATIONS\n";
  for (std::size_t i = 0; i < check.violations.size() && i < 20; ++i)
    std::cout << "  " << check.violations[i] << "\n";
  return kExitViolations;
}

}  // namespace

int run_simulate_command(int argc, char** argv) {
  Args args = simulate_args();
  args.parse(argc, argv, 2);
  if (args.help_requested()) {
    std::cout << args.usage();
    return kExitOk;
  }
  const auto seed = static_cast<std::uint64_t>(args.get_int("seed", 1, 0, INT64_MAX));
  std::vector<OptionDefault> site_options;
  const std::string workload_spec = args.get("workload", kDefaultWorkload);
  const Cluster cluster = load_cluster(args.get("cluster", default_cluster_for(workload_spec)),
                                       &site_options, workload_spec);
  const WorkloadInputs inputs{args.get("add-gpus", ""), args.get("swf-partitions", "")};
  const Workload workload = load_workload(workload_spec, cluster, seed, inputs);
  const std::vector<std::string> transformations = describe_inputs(inputs, seed);
  const std::string out_dir = args.get("out", "out/simulate");
  prepare_output_dir(out_dir);

  RunRequest request;
  request.scheduler_spec = args.get("scheduler", kDefaultScheduler);
  request.options = args.get_all("opt");
  request.slurm_site_options = site_options;
  request.periodic_interval = args.get_int("interval", 0, 0, 365LL * 86400);
  request.show_progress = args.has("progress");
  request.dump_windows_dir = args.get("dump-windows", "");
  request.dump_plans_path = args.get("dump-plans", "");
  const RunOutcome run = run_checked(cluster, workload, request);

  print_header(cluster, workload, workload_spec, transformations, run, seed);
  print_summary(run.summary, std::cout);
  print_unrun_jobs(run);
  print_window_passes(run);
  write_run_outputs(out_dir, cluster, run.bound, run.result, run.summary);
  if (run.window_passes) write_window_passes_csv(out_dir + "/passes.csv", run.window_pass_stats);
  write_run_manifest(out_dir, manifest_of(cluster, workload, workload_spec, transformations, run,
                                          seed, argc, argv));
  std::cout << "\noutputs    " << out_dir
            << "/ (jobs.csv summary.csv summary.json queue.csv usage.csv run.json"
            << (run.window_passes ? " passes.csv" : "") << ")\n";
  std::printf("wall time  %.3f s (%.0f jobs/s)\nmemory     peak resident %.0f MiB\n",
              run.wall_seconds, run.wall_seconds > 0 ? workload.jobs.size() / run.wall_seconds : 0.0,
              peak_resident_mib());
  return report_check(run.check);
}

}  // namespace hs::cli
