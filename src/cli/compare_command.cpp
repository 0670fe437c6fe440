#include "cli/compare_command.hpp"

#include <unistd.h>

#include <cstdio>
#include <iostream>

#include "cli/args.hpp"
#include "cli/comparison.hpp"
#include "cli/executor_spec.hpp"
#include "cli/exit_codes.hpp"
#include "cli/run_setup.hpp"
#include "cli/version.hpp"

namespace hs::cli {

namespace {

const std::vector<std::string> kHeadlineSchedulers = {"backfill", "ipsched", "aucsched1", "aucsched2"};

Args compare_args() {
  Args args("compare",
            "Runs several schedulers on identical inputs (same jobs, same order), R times over\n"
            "seeds, in parallel processes; prints mean ± std of every metric side by side and\n"
            "writes a report with plots. With no options it runs the headline experiment:\n"
            "heterogeneous ESP on 1024 x (8 cores, 2 GPUs), backfill vs ipsched vs aucsched1\n"
            "vs aucsched2.");
  args.declare({"cluster", "NAME|FILE", "built-in cluster name, path to slurm.conf, or `trace` (the SWF trace's header; the default for a trace)", kDefaultCluster});
  args.declare({"workload", "SPEC|FILE", "generator spec or job file / SWF trace", kDefaultWorkload});
  args.declare({"scheduler", "SPEC", "a scheduler to compare", "backfill, ipsched, aucsched1, aucsched2", true});
  args.declare({"opt", "KEY=VALUE", "option given to every scheduler that reads it", "", true});
  args.declare({"repeat", "R", "repetitions; repetition r uses seed + r", "3"});
  args.declare({"seed", "N", "first seed", "1"});
  args.declare({"parallel", "P", "runs at once (processes, local executor)", "number of cores"});
  args.declare({"executor", "local|slurm[:K=V,..]",
                "where runs execute: local processes, or one Slurm job array (docs/sweeps.md)", "local"});
  args.declare({"add-gpus", "RULE", "add GPU requests to a trace, e.g. fraction=0.3,gpus=2", ""});
  args.declare({"swf-partitions", "MAP", "SWF partition numbers to slurm.conf partitions, e.g. 1=cpu,2=gpu", ""});
  args.declare({"out", "DIR", "where runs/, report.md, report.html and plots/ go", "out/compare"});
  return args;
}

ComparisonSpec spec_from(const Args& args) {
  ComparisonSpec s;
  s.workload = args.get("workload", kDefaultWorkload);
  s.cluster = args.get("cluster", default_cluster_for(s.workload));
  s.add_gpus = args.get("add-gpus", "");
  s.swf_partitions = args.get("swf-partitions", "");
  s.schedulers = args.has("scheduler") ? args.get_all("scheduler") : kHeadlineSchedulers;
  s.options = args.get_all("opt");
  s.repeat = static_cast<int>(args.get_int("repeat", 3, 1, 1000));
  s.seed = static_cast<std::uint64_t>(args.get_int("seed", 1, 0, INT64_MAX / 2));
  s.parallel = static_cast<int>(args.get_int("parallel", sysconf(_SC_NPROCESSORS_ONLN), 1, 256));
  s.out_dir = args.get("out", "out/compare");
  s.executor = parse_executor(args.get("executor", "local"));
  return s;
}

std::string joined_command(int argc, char** argv) {
  std::string text = "hetsched";
  for (int i = 1; i < argc; ++i) text += std::string(" ") + argv[i];
  return text;
}

}  // namespace

int run_compare_command(int argc, char** argv) {
  Args args = compare_args();
  args.parse(argc, argv, 2);
  if (args.help_requested()) {
    std::cout << args.usage();
    return kExitOk;
  }
  const ComparisonSpec spec = spec_from(args);
  std::cout << "hetsched " << version_string() << " compare: " << spec.workload << " on "
            << spec.cluster << ", " << spec.schedulers.size() << " schedulers x " << spec.repeat
            << " repetition(s) from seed " << spec.seed << "\n" << std::flush;
  const ComparisonResult result = run_comparison(spec, joined_command(argc, argv));
  std::cout << "cluster    " << result.cluster_text << "\nworkload   " << result.jobs
            << " jobs per repetition\n\n";
  for (const auto& f : result.failures) std::cout << "run " << f << "\n";
  if (result.exit_code == kExitInternal) return result.exit_code;
  print_comparison_table(result, static_cast<std::size_t>(spec.repeat));
  if (result.failures.empty())
    std::cout << "\nchecker    OK in all " << result.runs << " runs\n";
  std::printf("report     %s (and %s, %zu plots)\nwall time  %.1f s for %zu runs\n",
              result.files.markdown.c_str(), result.files.html.c_str(), result.files.images.size(),
              result.wall_seconds, result.runs);
  return result.exit_code;
}

}  // namespace hs::cli
