// A large machine's replay as `hetsched simulate` does it: a generated trace of 300,000 jobs
// on 5,000 nodes (32 cores; the last fifth with 4 GPUs) under EASY backfill (backfill-easy),
// checked by the invariant checker, with the per-job outputs written. Prints wall time per
// phase, peak RSS and the size of jobs.csv. Target (issue 18): < 30 s and < 500 MiB.
// Usage: bench_large_machine [jobs [nodes [out-dir [scheduler]]]]   (default backfill-easy;
// e.g. easy+ff+walltime for the heuristic EASY)
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <utility>

#include "cli/single_run.hpp"
#include "metrics/outputs.hpp"
#include "model/cluster.hpp"
#include "util/memory_usage.hpp"
#include "large_trace.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  const std::int64_t jobs = argc > 1 ? std::stoll(argv[1]) : 300'000;
  const int nodes = argc > 2 ? std::stoi(argv[2]) : 5'000;
  const std::string out = argc > 3 ? argv[3] : (std::filesystem::temp_directory_path() / "hetsched-bench-large").string();
  const std::string scheduler = argc > 4 ? argv[4] : "backfill-easy";
  try {
    const auto t0 = Clock::now();
    const hs::Cluster cluster = hs::bench::make_large_cluster(nodes);
    hs::Workload workload = hs::bench::make_large_workload(jobs, cluster, {});
    const double generate_s = seconds_since(t0);

    hs::cli::RunRequest request;
    request.scheduler_spec = scheduler;
    const auto t1 = Clock::now();
    const hs::cli::RunOutcome run = hs::cli::run_checked(cluster, std::move(workload), request);
    const double run_s = seconds_since(t1);

    const auto t2 = Clock::now();
    std::filesystem::create_directories(out);
    hs::write_run_outputs(out, cluster, run.bound, run.result, run.summary);
    const double outputs_s = seconds_since(t2);

    const auto csv_bytes = std::filesystem::file_size(std::filesystem::path(out) / "jobs.csv");
    std::printf("bench_large_machine: %lld jobs on %d nodes (%lld cores), %s\n",
                static_cast<long long>(jobs), nodes, static_cast<long long>(cluster.total_cores()),
                run.scheduler_name.c_str());
    std::printf("  generate %.2f s | run_checked %.2f s (simulate %.2f s) | outputs %.2f s | "
                "total %.2f s\n",
                generate_s, run_s, run.wall_seconds, outputs_s, seconds_since(t0));
    std::printf("  completed %lld, killed %lld, rejected %lld, stalled %lld; checker %s\n",
                static_cast<long long>(run.summary.completed), static_cast<long long>(run.summary.killed),
                static_cast<long long>(run.result.rejected), static_cast<long long>(run.result.stalled),
                run.check.ok() ? "OK" : run.check.violations.front().c_str());
    std::printf("  jobs.csv %.1f MiB; peak resident %.0f MiB\n", csv_bytes / 1048576.0,
                hs::peak_resident_mib());
    return run.check.ok() ? 0 : 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_large_machine: %s\n", e.what());
    return 1;
  }
}
