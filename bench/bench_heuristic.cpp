// Simulation throughput of the Netti et al. dispatchers: simulated jobs per second of wall
// time for EASY backfill + WEIGHTED (the combination the issue names) on a 100k-job
// Eurora-like workload, plus the other predictors and CPH on a smaller slice for scale.
// Prints one JSON object per configuration. Reference point: a Python simulator of the
// field (AccaSim) manages about 10-20 jobs/s with WEIGHTED.
#include <chrono>
#include <cstdio>
#include <string>

#include "cli/matrix_command.hpp"
#include "cli/version.hpp"
#include "io/builtin_clusters.hpp"
#include "policy/registry.hpp"
#include "sim/bind.hpp"
#include "sim/invariant_checker.hpp"
#include "sim/simulator.hpp"
#include "util/memory_usage.hpp"
#include "workload/registry.hpp"

namespace {

using Clock = std::chrono::steady_clock;

void bench_one(const hs::Cluster& cluster, const hs::Workload& workload,
               const std::string& workload_spec, const std::string& spec) {
  hs::BuiltScheduler built = hs::make_scheduler(spec, {});
  const auto t0 = Clock::now();
  const hs::SimResult result = hs::simulate(cluster, workload, *built.scheduler, {});
  const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  const bool sound = hs::check_run(cluster, workload, result).ok();
  std::printf(
      "{\"bench\":\"heuristic\",\"version\":\"%s\",\"scheduler\":\"%s\",\"workload\":\"%s\","
      "\"jobs\":%zu,\"passes\":%lld,\"seconds\":%.3f,\"jobs_per_second\":%.0f,"
      "\"checker_ok\":%s,\"peak_rss_mib\":%.0f}\n",
      hs::cli::version_string().c_str(), spec.c_str(), workload_spec.c_str(),
      workload.jobs.size(), static_cast<long long>(result.passes), seconds,
      seconds > 0 ? static_cast<double>(workload.jobs.size()) / seconds : 0.0,
      sound ? "true" : "false", hs::peak_resident_mib());
  std::fflush(stdout);
}

hs::Workload eurora_workload(const hs::Cluster& cluster, const std::string& spec) {
  hs::Workload w = hs::generate_workload(spec, cluster, 1);
  hs::bind_workload(cluster, w);
  return w;
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::string(argv[1]) == "--quick";
  hs::Cluster cluster = *hs::builtin_cluster("eurora");
  hs::cli::add_eurora_queues(cluster);
  // 40 days x 2500 jobs/day = 100,000 jobs.
  const std::string big_spec = quick ? "eurora:days=4,jobs_per_day=2500" : "eurora:days=40,jobs_per_day=2500";
  const hs::Workload big = eurora_workload(cluster, big_spec);
  for (const char* spec : {"easy+weighted+datadriven", "easy+weighted+walltime",
                           "easy+weighted+oracle", "easy+ff+datadriven"})
    bench_one(cluster, big, big_spec, spec);
  const std::string small_spec = "eurora:days=3";
  const hs::Workload small = eurora_workload(cluster, small_spec);
  for (const char* spec : {"cph+weighted+datadriven", "sjf+weighted+datadriven",
                           "prb+pweighted+datadriven", "easy+balanced+datadriven"})
    bench_one(cluster, small, small_spec, spec);
  return 0;
}
