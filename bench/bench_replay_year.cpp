// Replay speed of the window schedulers (issue 19) on generated year-long traces: 200k jobs
// on 240 nodes and 300k jobs on 5,000 nodes (bench/large_trace.hpp; jobs of at most a quarter
// of the machine, 256 nodes at most; run times scaled to an offered load of 0.85 over 365
// days). Prints per scheduler: passes, wall, jobs/s, peak RSS (of the whole process so far:
// run one scheduler per process for per-scheduler figures) and a digest of the schedule
// (every job's status, start, end and allocation) to compare replays before and after a change.
//
//   bench_replay_year [jobs=200000] [nodes=240] [schedulers=window] [prefix=0] [k=v,...] [blocks]
// schedulers: "window" (ipsched, aucsched1-3), "heuristic" (fifo/easy/prb pairs) or a comma
// list of specs, e.g. "aucsched2,easy+ff+walltime". prefix > 0 replays only the trace's first
// `prefix` jobs (the same jobs, for quick iterations); k=v options go to every scheduler ("-"
// for none). `blocks`: the Blue Gene-like machine of large_trace.hpp instead (4 cores a node,
// jobs of 512-node blocks up to the whole machine; e.g. 3000 40960 ipsched 0 - blocks).
// cpu= is the process's CPU time over the replay (steadier than wall on a shared machine).
#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cli/single_run.hpp"
#include "large_trace.hpp"
#include "policy/window/window_schedulers.hpp"
#include "sim/schedule_digest.hpp"
#include "util/memory_usage.hpp"

namespace {

using Clock = std::chrono::steady_clock;

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

std::vector<std::string> scheduler_specs(const std::string& arg) {
  if (arg == "window") return hs::window_scheduler_names();
  if (arg == "heuristic")
    return {"fifo+ff+walltime", "easy+ff+walltime", "easy+balanced+walltime", "prb+ff+walltime"};
  return split(arg);
}

void run_one(const hs::Cluster& cluster, hs::Workload workload, const std::string& spec,
             const std::string& extra) {
  hs::cli::RunRequest request;
  request.scheduler_spec = spec;
  if (!extra.empty()) request.options.push_back(extra);
  const auto t0 = Clock::now();
  const std::clock_t c0 = std::clock();
  const std::size_t job_count = workload.jobs.size();
  const hs::cli::RunOutcome run = hs::cli::run_checked(cluster, std::move(workload), request);
  const double total = std::chrono::duration<double>(Clock::now() - t0).count();
  const double cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
  const double wall = run.wall_seconds;
  std::printf(
      "%-24s jobs=%zu nodes=%d passes=%lld wall=%.2fs jobs/s=%.0f run_checked=%.2fs cpu=%.2fs "
      "peak_rss=%.0fMiB wait=%.0fs slowdown=%.2f util=%.3f digest=%016llx checker=%s\n",
      spec.c_str(), job_count, cluster.node_count(),
      static_cast<long long>(run.result.passes), wall,
      wall > 0 ? static_cast<double>(job_count) / wall : 0.0, total, cpu,
      hs::peak_resident_mib(), run.summary.wait.mean, run.summary.slowdown.mean,
      run.summary.utilization, static_cast<unsigned long long>(hs::schedule_digest(run.result)),
      run.check.ok() ? "ok" : run.check.violations.front().c_str());
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  const std::int64_t jobs = argc > 1 ? std::stoll(argv[1]) : 200'000;
  const int nodes = argc > 2 ? std::stoi(argv[2]) : 240;
  const std::string which = argc > 3 ? argv[3] : "window";
  const std::int64_t prefix = argc > 4 ? std::stoll(argv[4]) : 0;
  const std::string extra = argc > 5 && std::string(argv[5]) != "-" ? argv[5] : "";
  const bool blocks = argc > 6 && std::string(argv[6]) == "blocks";
  if (argc > 6 && !blocks) {
    std::fprintf(stderr, "bench_replay_year: the sixth argument is `blocks` or nothing, got %s\n", argv[6]);
    return 2;
  }
  try {
    const hs::Cluster cluster =
        blocks ? hs::bench::make_block_cluster(nodes) : hs::bench::make_large_cluster(nodes);
    hs::bench::TraceShape shape;
    shape.blocks = blocks;
    shape.max_job_nodes = std::min(256.0, nodes / 4.0);
    shape.load = 0.85;
    shape.span_s = 365.0 * 86400.0;
    hs::Workload workload = hs::bench::make_large_workload(jobs, cluster, shape);
    if (prefix > 0 && prefix < jobs) workload.jobs.resize(static_cast<std::size_t>(prefix));
    // Each run gets its own copy of the trace but the last, which takes it: a single replay
    // holds the trace once, as `hetsched simulate` does.
    const auto specs = scheduler_specs(which);
    for (std::size_t k = 0; k + 1 < specs.size(); ++k) run_one(cluster, workload, specs[k], extra);
    if (!specs.empty()) run_one(cluster, std::move(workload), specs.back(), extra);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_replay_year: %s\n", e.what());
    return 1;
  }
}
