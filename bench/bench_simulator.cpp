// Simulation throughput: simulated jobs per second of wall time, with a trivial strict-FCFS
// first-fit scheduler, on 100k synthetic jobs and (when present) the SDSC-SP2 trace.
// The time spent inside the scheduler is measured separately, so the remaining
// "simulator overhead" is the event loop, validation and bookkeeping alone. peak_rss_mib is the
// process's largest resident set so far (the synthetic case runs first).
#include <chrono>
#include <ctime>
#include <cstdio>
#include <filesystem>
#include <string>

#include "../tests/sim/fcfs_first_fit.hpp"
#include "io/swf_reader.hpp"
#include "sim/bind.hpp"
#include "sim/invariant_checker.hpp"
#include "sim/simulator.hpp"
#include "util/memory_usage.hpp"
#include "util/rng.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Wraps a scheduler and accumulates the wall time of its decide() calls.
class Timed : public hs::Scheduler {
 public:
  explicit Timed(hs::Scheduler& inner) : inner_(inner) {}
  std::string name() const override { return inner_.name(); }
  hs::Decisions decide(const hs::SystemView& v, std::span<const hs::Event> e) override {
    const auto t0 = Clock::now();
    hs::Decisions d = inner_.decide(v, e);
    seconds += seconds_since(t0);
    return d;
  }
  double seconds = 0;

 private:
  hs::Scheduler& inner_;
};

hs::Cluster uniform_cluster(int nodes, int cores, int gpus) {
  hs::Cluster c;
  c.name = "bench";
  c.gres_types = {"gpu"};
  for (int i = 0; i < nodes; ++i) {
    hs::Node n;
    n.name = "n" + std::to_string(i + 1);
    n.cores = cores;
    n.gres[0] = gpus;
    c.nodes.push_back(n);
  }
  return c;
}

// Poisson arrivals at roughly 90% offered load; a quarter of the jobs ask 1 GPU per node.
hs::Workload synthetic_workload(int count, const hs::Cluster& cluster, std::uint64_t seed) {
  hs::Rng rng(seed);
  hs::Workload w;
  w.name = "synthetic";
  double t = 0;
  const double mean_work = 32.5 * 330;  // E[cores] * E[run]
  const double mean_gap = mean_work / (0.9 * static_cast<double>(cluster.total_cores()));
  for (int i = 0; i < count; ++i) {
    hs::Job j;
    j.id = i + 1;
    j.name = "s" + std::to_string(i + 1);
    j.user = "u" + std::to_string(rng.uniform_int(1, 50));
    t += rng.exponential(mean_gap);
    j.submit = static_cast<hs::Time>(t);
    j.run_time = rng.uniform_int(60, 600);
    j.req.ntasks = static_cast<std::int32_t>(rng.uniform_int(1, 64));
    j.req.time_limit = j.run_time + rng.uniform_int(0, 600);
    if (rng.bernoulli(0.25)) j.req.gres.push_back({"gpu", 0, 1, 1});
    w.jobs.push_back(j);
  }
  return w;
}

void report(const char* label, const hs::Cluster& c, const hs::Workload& w) {
  hs::testing::FcfsFirstFit fcfs;
  Timed timed(fcfs);
  const auto t0 = Clock::now();
  const std::clock_t c0 = std::clock();
  const hs::SimResult r = hs::simulate(c, w, timed, {});
  const double cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
  const double total = seconds_since(t0);
  const double overhead = total - timed.seconds;
  const bool ok = hs::check_run(c, w, r).ok();
  std::printf("%-10s jobs=%zu nodes=%d passes=%lld rejected=%lld wall=%.3fs scheduler=%.3fs "
              "simulator_overhead=%.3fs cpu=%.3fs -> %.0f jobs/s (%.0f jobs/s of overhead alone) "
              "check=%s\n",
              label, w.jobs.size(), c.node_count(), static_cast<long long>(r.passes),
              static_cast<long long>(r.rejected), total, timed.seconds, overhead, cpu,
              static_cast<double>(w.jobs.size()) / total,
              overhead > 0 ? static_cast<double>(w.jobs.size()) / overhead : 0.0,
              ok ? "ok" : "FAILED");
  std::printf("{\"bench\":\"simulator\",\"workload\":\"%s\",\"jobs\":%zu,\"nodes\":%d,"
              "\"scheduler\":\"%s\",\"wall_s\":%.4f,\"scheduler_s\":%.4f,\"cpu_s\":%.4f,"
              "\"jobs_per_s\":%.0f,\"peak_rss_mib\":%.0f}\n",
              label, w.jobs.size(), c.node_count(), fcfs.name().c_str(), total, timed.seconds, cpu,
              static_cast<double>(w.jobs.size()) / total, hs::peak_resident_mib());
}

}  // namespace

int main() {
  const hs::Cluster cluster = uniform_cluster(128, 8, 2);
  report("synthetic", cluster, synthetic_workload(100000, cluster, 42));

  const std::string trace =
      std::string(HETSCHED_SHARED_DIR) + "/data/traces/SDSC-SP2-1998-4.2-cln.swf.gz";
  if (!std::filesystem::exists(trace)) return 0;
  hs::SwfLoad load = hs::read_swf(trace);
  const hs::Cluster sp2 = uniform_cluster(128, 1, 0);  // 128 single-processor nodes
  hs::bind_workload(sp2, load.workload);
  report("sdsc-sp2", sp2, load.workload);
  return 0;
}
