// A large machine's replay as `hetsched simulate` does it: a generated trace of 300,000 jobs
// on 5,000 nodes (32 cores; the last fifth with 4 GPUs) under EASY backfill (backfill-easy),
// checked by the invariant checker, with the per-job outputs written. Prints wall time per
// phase, peak RSS and the size of jobs.csv. Target (issue 18): < 30 s and < 500 MiB.
// Usage: bench_large_machine [jobs [nodes [out-dir]]]
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>

#include "cli/single_run.hpp"
#include "metrics/outputs.hpp"
#include "model/cluster.hpp"
#include "util/memory_usage.hpp"
#include "util/rng.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

hs::Cluster make_cluster(int nodes) {
  hs::Cluster c;
  c.name = "large" + std::to_string(nodes);
  c.gres_types = {"gpu"};
  for (int i = 0; i < nodes; ++i) {
    hs::Node n;
    n.name = "n" + std::to_string(i + 1);
    n.cores = 32;
    n.gres = {i >= nodes - nodes / 5 ? 4 : 0, 0, 0, 0};
    c.nodes.push_back(n);
  }
  return c;
}

std::int32_t log_uniform(hs::Rng& rng, double lo, double hi) {
  return static_cast<std::int32_t>(std::exp(std::log(lo) + rng.uniform01() * (std::log(hi) - std::log(lo))));
}

// 60 % one-node jobs of 1-32 cores, 30 % whole-node jobs of 2-256 nodes, 10 % GPU jobs of
// 1-8 nodes with 1-4 GPUs each; run times log-uniform from a minute to a day, limits 1-3x.
hs::Job make_job(hs::Rng& rng, std::int64_t id) {
  hs::Job j;
  j.id = id;
  j.user = "u" + std::to_string(rng.uniform_int(1, 200));
  const double kind = rng.uniform01();
  if (kind < 0.6) {
    j.req.ntasks = static_cast<std::int32_t>(rng.uniform_int(1, 32));
  } else if (kind < 0.9) {
    j.req.nodes_min = log_uniform(rng, 2, 256);
    j.req.ntasks = 32 * j.req.nodes_min;
  } else {
    j.req.nodes_min = static_cast<std::int32_t>(rng.uniform_int(1, 8));
    j.req.ntasks = 8 * j.req.nodes_min;
    const auto gpus = static_cast<std::int32_t>(rng.uniform_int(1, 4));
    j.req.gres.push_back({"gpu", -1, gpus, gpus});
  }
  j.run_time = log_uniform(rng, 60, 86400);
  j.req.time_limit = ((static_cast<hs::Time>(j.run_time * (1 + 2 * rng.uniform01())) + 59) / 60) * 60;
  return j;
}

// Poisson arrivals at an offered load of 0.95 of the machine's cores.
hs::Workload make_workload(std::int64_t jobs, const hs::Cluster& cluster) {
  hs::Rng rng(2026);
  hs::Workload w;
  w.name = "large-trace";
  double work = 0;
  for (std::int64_t i = 1; i <= jobs; ++i) {
    w.jobs.push_back(make_job(rng, i));
    work += static_cast<double>(w.jobs.back().req.ntasks) * static_cast<double>(w.jobs.back().run_time);
  }
  const double gap = work / static_cast<double>(jobs) / (0.95 * static_cast<double>(cluster.total_cores()));
  double t = 0;
  for (hs::Job& j : w.jobs) {
    j.submit = static_cast<hs::Time>(t);
    t += rng.exponential(gap);
  }
  return w;
}

}  // namespace

int main(int argc, char** argv) {
  const std::int64_t jobs = argc > 1 ? std::stoll(argv[1]) : 300'000;
  const int nodes = argc > 2 ? std::stoi(argv[2]) : 5'000;
  const std::string out = argc > 3 ? argv[3] : (std::filesystem::temp_directory_path() / "hetsched-bench-large").string();
  try {
    const auto t0 = Clock::now();
    const hs::Cluster cluster = make_cluster(nodes);
    const hs::Workload workload = make_workload(jobs, cluster);
    const double generate_s = seconds_since(t0);

    hs::cli::RunRequest request;
    request.scheduler_spec = "backfill-easy";
    const auto t1 = Clock::now();
    const hs::cli::RunOutcome run = hs::cli::run_checked(cluster, workload, request);
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
