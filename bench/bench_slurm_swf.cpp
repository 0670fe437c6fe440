// Replays Parallel Workloads Archive traces under the Slurm baseline (conservative and
// EASY backfill) and prints jobs, wall and CPU seconds, jobs/s and the invariant
// checker's verdict. Usage: bench_slurm_swf [trace.swf[.gz] cluster-name [options]]
// (default: SDSC-SP2 and KTH-SP2 from the shared data directory; options such as
// "priority=multifactor" are added to every run).
#include <chrono>
#include <ctime>
#include <cstdio>
#include <string>
#include <vector>

#include "io/builtin_clusters.hpp"
#include "io/swf_reader.hpp"
#include "policy/slurm/slurm_scheduler.hpp"
#include "sim/bind.hpp"
#include "sim/invariant_checker.hpp"
#include "sim/simulator.hpp"
#include "util/memory_usage.hpp"

namespace {

struct Trace {
  std::string path;
  std::string cluster;
};

void replay(const Trace& t, const hs::Cluster& cluster, hs::Workload& w, const char* mode,
            const std::string& extra) {
  hs::Params params =
      hs::Params::parse(std::string("mode=") + mode + (extra.empty() ? "" : "," + extra), "<bench>");
  hs::slurm::SlurmScheduler sched_impl(hs::slurm::slurm_config_from(params));
  hs::Scheduler* sched = &sched_impl;
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();
  const hs::SimResult r = hs::simulate(cluster, w, *sched, {});
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
  const hs::CheckReport check = hs::check_run(cluster, w, r);
  double wait = 0;
  std::size_t ran = 0;
  for (std::size_t j = 0; j < r.records.size(); ++j) {
    if (r.records[j].start < 0) continue;
    wait += static_cast<double>(r.records[j].start - w.jobs[j].submit);
    ++ran;
  }
  std::printf("%-34s %-12s jobs=%zu ran=%zu rejected=%lld stalled=%lld wall=%.3fs cpu=%.3fs jobs/s=%.0f "
              "mean_wait=%.0fs makespan=%lld passes=%lld violations=%zu%s\n",
              t.path.substr(t.path.find_last_of('/') + 1).c_str(), mode, w.jobs.size(), ran,
              static_cast<long long>(r.rejected), static_cast<long long>(r.stalled), secs, cpu,
              w.jobs.size() / secs, ran ? wait / ran : 0.0,
              static_cast<long long>(r.makespan_end), static_cast<long long>(r.passes),
              check.violations.size(), check.ok() ? " OK" : (" FIRST: " + check.violations.front()).c_str());
  std::printf("  main_passes=%lld backfill_passes=%lld backfill_jobs_tested=%lld stopped_early=%lld "
              "peak_rss=%.0fMiB\n",
              static_cast<long long>(sched_impl.main_passes()),
              static_cast<long long>(sched_impl.backfill_passes()),
              static_cast<long long>(sched_impl.backfill_jobs_tested()),
              static_cast<long long>(sched_impl.backfill_stopped_early()), hs::peak_resident_mib());
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<Trace> traces;
  const std::string extra = argc == 4 ? argv[3] : "";
  if (argc == 3 || argc == 4) {
    traces.push_back({argv[1], argv[2]});
  } else {
    const std::string dir = std::string(HETSCHED_SHARED_DIR) + "/data/traces/";
    traces.push_back({dir + "SDSC-SP2-1998-4.2-cln.swf.gz", "sdsc-sp2"});
    traces.push_back({dir + "KTH-SP2-1996-2.1-cln.swf.gz", "kth-sp2"});
  }
  try {
    for (const Trace& t : traces) {
      const hs::Cluster cluster = hs::load_cluster_spec(t.cluster);
      hs::SwfLoad load = hs::read_swf(t.path);
      hs::bind_workload(cluster, load.workload);
      for (const char* mode : {"conservative", "easy"}) replay(t, cluster, load.workload, mode, extra);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_slurm_swf: %s\n", e.what());
    return 1;
  }
  return 0;
}
