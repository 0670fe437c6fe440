#include "cli/compare_command.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/args.hpp"
#include "cli/exit_codes.hpp"
#include "cli/parallel_runs.hpp"
#include "cli/run_setup.hpp"
#include "cli/single_run.hpp"
#include "cli/version.hpp"
#include "metrics/outputs.hpp"
#include "report/comparison_report.hpp"

namespace hs::cli {

namespace {

const std::vector<std::string> kHeadlineSchedulers = {"backfill", "ipsched", "aucsched1", "aucsched2"};
const std::vector<std::string> kHeadlineMetrics = {
    "utilization", "gpu_utilization", "wait_mean", "slowdown_mean", "bounded_slowdown_mean",
    "packing_factor_mean", "fragmentation_mean", "spread_mean", "switch_level_mean",
    "queue_time_mean", "last_end"};

struct CompareSetup {
  Cluster cluster;
  std::string workload_spec;
  std::vector<Workload> workloads;  // one per repetition
  std::vector<std::uint64_t> seeds;
  std::vector<std::string> schedulers;
  std::vector<std::string> options;
  std::string out_dir;
  int parallel = 1;
};

Args compare_args() {
  Args args("compare",
            "Runs several schedulers on identical inputs (same jobs, same order), R times over\n"
            "seeds, in parallel processes; prints mean ± std of every metric side by side and\n"
            "writes a report with plots. With no options it runs the headline experiment:\n"
            "heterogeneous ESP on 1024 x (8 cores, 2 GPUs), backfill vs ipsched vs aucsched1\n"
            "vs aucsched2.");
  args.declare({"cluster", "NAME|FILE", "built-in cluster name or path to slurm.conf", kDefaultCluster});
  args.declare({"workload", "SPEC|FILE", "generator spec or job file / SWF trace", kDefaultWorkload});
  args.declare({"scheduler", "SPEC", "a scheduler to compare", "backfill, ipsched, aucsched1, aucsched2", true});
  args.declare({"opt", "KEY=VALUE", "option given to every scheduler that reads it", "", true});
  args.declare({"repeat", "R", "repetitions; repetition r uses seed + r", "3"});
  args.declare({"seed", "N", "first seed", "1"});
  args.declare({"parallel", "P", "runs at once (processes)", "number of cores"});
  args.declare({"add-gpus", "RULE", "add GPU requests to a trace, e.g. fraction=0.3,gpus=2", ""});
  args.declare({"out", "DIR", "where runs/, report.md, report.html and plots/ go", "out/compare"});
  return args;
}

std::string run_label(const std::string& spec) {
  std::string label;
  for (char c : spec) label += std::isalnum(static_cast<unsigned char>(c)) || c == '-' ? c : '_';
  return label;
}

std::string run_dir(const CompareSetup& s, std::size_t sched, std::size_t rep) {
  return s.out_dir + "/runs/" + run_label(s.schedulers[sched]) + "/r" + std::to_string(rep);
}

// One run inside a child process: simulate, audit, write outputs and the checker verdict.
int run_one(const CompareSetup& s, std::size_t sched, std::size_t rep) {
  RunRequest request;
  request.scheduler_spec = s.schedulers[sched];
  request.options = s.options;
  const RunOutcome run = run_checked(s.cluster, s.workloads[rep], request);
  const std::string dir = run_dir(s, sched, rep);
  write_run_outputs(dir, s.cluster, run.bound, run.result, run.summary);
  std::ofstream check(dir + "/check.txt");
  check << "scheduler " << run.scheduler_name << " [" << run.effective_options << "]\n"
        << "seed " << s.seeds[rep] << "\nwall_seconds " << run.wall_seconds << "\n"
        << "violations " << run.check.violations.size() << "\n";
  for (const auto& v : run.check.violations) check << v << "\n";
  return run.check.ok() ? kExitOk : kExitViolations;
}

CompareSetup make_setup(const Args& args) {
  CompareSetup s;
  s.cluster = load_cluster(args.get("cluster", kDefaultCluster));
  s.workload_spec = args.get("workload", kDefaultWorkload);
  const auto repeat = args.get_int("repeat", 3, 1, 1000);
  const auto seed = static_cast<std::uint64_t>(args.get_int("seed", 1, 0, INT64_MAX / 2));
  for (std::int64_t r = 0; r < repeat; ++r) {
    s.seeds.push_back(seed + static_cast<std::uint64_t>(r));
    s.workloads.push_back(load_workload(s.workload_spec, s.cluster, s.seeds.back(), args.get("add-gpus", "")));
  }
  s.schedulers = args.has("scheduler") ? args.get_all("scheduler") : kHeadlineSchedulers;
  s.options = args.get_all("opt");
  s.out_dir = args.get("out", "out/compare");
  s.parallel = static_cast<int>(args.get_int("parallel", sysconf(_SC_NPROCESSORS_ONLN), 1, 256));
  return s;
}

std::string format_cell(double mean, double std, std::size_t reps) {
  char buf[64];
  const double mag = std::abs(mean);
  const char* fmt = mag >= 1000 ? "%.0f" : (mag >= 10 ? "%.2f" : "%.3f");
  std::snprintf(buf, sizeof buf, fmt, mean);
  std::string cell = buf;
  if (reps > 1) {
    std::snprintf(buf, sizeof buf, fmt, std);
    cell += std::string(" ± ") + buf;
  }
  return cell;
}

// Terminal columns of UTF-8 text (continuation bytes take no column).
std::size_t display_width(const std::string& text) {
  std::size_t w = 0;
  for (unsigned char c : text) w += (c & 0xC0) != 0x80;
  return w;
}

void print_table(const CompareSetup& s, const std::vector<MetricRow>& rows) {
  std::vector<std::vector<std::string>> cells = {{"metric"}};
  for (const auto& name : s.schedulers) cells[0].push_back(name);
  for (const auto& row : rows) {
    std::vector<std::string> line = {row.metric};
    for (std::size_t i = 0; i < row.mean.size(); ++i)
      line.push_back(format_cell(row.mean[i], row.std[i], s.seeds.size()));
    cells.push_back(line);
  }
  std::vector<std::size_t> width(cells[0].size(), 0);
  for (const auto& line : cells)
    for (std::size_t c = 0; c < line.size(); ++c) width[c] = std::max(width[c], display_width(line[c]));
  for (const auto& line : cells) {
    for (std::size_t c = 0; c < line.size(); ++c) {
      const std::string pad(width[c] - display_width(line[c]), ' ');
      std::cout << (c == 0 ? line[c] + pad : "  " + pad + line[c]);
    }
    std::cout << "\n";
  }
}

ComparisonInput report_input(const CompareSetup& s, const std::string& command) {
  ComparisonInput in;
  in.title = s.workload_spec + " on " + s.cluster.name;
  in.cluster_text = describe_cluster(s.cluster);
  in.workload_text = s.workload_spec + ", " + std::to_string(s.workloads.front().jobs.size()) +
                     " jobs, seeds " + std::to_string(s.seeds.front()) + ".." +
                     std::to_string(s.seeds.back());
  in.command = command;
  for (std::size_t i = 0; i < s.schedulers.size(); ++i) {
    SchedulerRuns runs{s.schedulers[i], {}};
    for (std::size_t r = 0; r < s.seeds.size(); ++r) runs.run_dirs.push_back(run_dir(s, i, r));
    in.schedulers.push_back(runs);
  }
  in.headline_metrics = kHeadlineMetrics;
  return in;
}

std::string joined_command(int argc, char** argv) {
  std::string text = "hetsched";
  for (int i = 1; i < argc; ++i) text += std::string(" ") + argv[i];
  return text;
}

int verdict(const CompareSetup& s, const std::vector<TaskResult>& results) {
  int code = kExitOk;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const std::size_t sched = i / s.seeds.size(), rep = i % s.seeds.size();
    if (results[i].exit_code == kExitOk) continue;
    std::cout << "run " << s.schedulers[sched] << " seed " << s.seeds[rep]
              << (results[i].exit_code == kExitViolations ? ": CHECKER VIOLATIONS (see check.txt)"
                                                          : ": FAILED")
              << "\n";
    code = std::max(code, results[i].exit_code == kExitViolations ? int(kExitViolations) : int(kExitInternal));
  }
  if (code == kExitOk)
    std::cout << "checker    OK in all " << results.size() << " runs\n";
  return code;
}

}  // namespace

int run_compare_command(int argc, char** argv) {
  Args args = compare_args();
  args.parse(argc, argv, 2);
  if (args.help_requested()) {
    std::cout << args.usage();
    return kExitOk;
  }
  const CompareSetup setup = make_setup(args);
  std::cout << "hetsched " << version_string() << " compare\n"
            << "cluster    " << describe_cluster(setup.cluster) << "\n"
            << "workload   " << setup.workload_spec << " (" << setup.workloads.front().jobs.size()
            << " jobs), " << setup.seeds.size() << " repetition(s) from seed " << setup.seeds.front()
            << "\n\n" << std::flush;
  std::vector<std::function<int()>> tasks;
  for (std::size_t i = 0; i < setup.schedulers.size(); ++i)
    for (std::size_t r = 0; r < setup.seeds.size(); ++r)
      tasks.push_back([&setup, i, r] { return run_one(setup, i, r); });
  const auto t0 = std::chrono::steady_clock::now();
  const auto results = run_in_processes(tasks, setup.parallel);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const int code = verdict(setup, results);
  if (code == kExitInternal) return code;

  const ComparisonInput input = report_input(setup, joined_command(argc, argv));
  print_table(setup, aggregate_summaries(input));
  const ReportFiles files = write_comparison_report(input, setup.out_dir);
  std::printf("\nreport     %s (and %s, %zu plots)\nwall time  %.1f s for %zu runs\n",
              files.markdown.c_str(), files.html.c_str(), files.images.size(), wall, results.size());
  return code;
}

}  // namespace hs::cli
