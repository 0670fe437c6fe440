// Nodes whose CPUs are hardware threads (slurm.conf ThreadsPerCore=2, no CPUs= counting
// cores): Slurm gives jobs whole cores there, so a 1-CPU job holds 2 CPUs (seen on the lab:
// -n 3 got CPU_IDs=0-1,8-9). Every scheduler must plan with what a job holds, and the
// invariant checker counts it so. Under CR_CPU too (seen on a lab of CR_CPU and
// ThreadsPerCore=2: -n 3 got CPU_IDs=0-3); where CPUs= counts cores, a CPU is a core.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "io/job_options.hpp"
#include "io/slurm_conf.hpp"
#include "metrics/summary.hpp"
#include "policy/registry.hpp"
#include "sim/bind.hpp"
#include "sim/cluster_state.hpp"
#include "sim/invariant_checker.hpp"
#include "sim/simulator.hpp"

namespace hs {
namespace {

constexpr const char* kThreaded = "Sockets=1 CoresPerSocket=2 ThreadsPerCore=2";

// Two nodes, by default of 2 cores x 2 threads: 4 CPUs each.
Cluster threaded_cluster(const std::string& select_params, const std::string& layout = kThreaded,
                         const std::string& select_type = "select/cons_tres") {
  const auto dir = std::filesystem::temp_directory_path() / "hs-whole-cores";
  std::filesystem::create_directories(dir);
  const auto path = dir / "slurm.conf";
  std::ofstream(path) << "SelectType=" << select_type << "\nSelectTypeParameters=" << select_params << "\n"
                      << "NodeName=h[1-2] " << layout << "\n"
                      << "PartitionName=all Nodes=ALL Default=YES MaxTime=UNLIMITED\n";
  return load_slurm_conf(path.string()).cluster;
}

// Eight 1-CPU jobs and two of 3 CPUs, all at once.
Workload small_jobs() {
  Workload w;
  w.name = "small";
  for (int i = 0; i < 10; ++i) {
    Job j;
    j.id = i + 1;
    j.submit = i;
    j.run_time = 100;
    const std::string n = i < 8 ? "1" : "3";
    const std::vector<std::string_view> tokens{"-n", n, "-t", "10:00"};
    parse_job_options(tokens, j.req, {"<test>", i + 1});
    w.jobs.push_back(std::move(j));
  }
  return w;
}

// The most CPUs the jobs hold on one node at once, counted as `count` says.
template <typename Count>
std::int32_t peak_on_a_node(const Cluster& cluster, const SimResult& result, Count count) {
  std::map<std::pair<NodeIndex, Time>, std::int32_t> change;
  for (const JobRecord& r : result.records)
    for (const NodeShare& s : r.alloc.unpack().shares) {
      change[{s.node, r.start}] += count(cluster.nodes[s.node], s.cores);
      change[{s.node, r.end}] -= count(cluster.nodes[s.node], s.cores);
    }
  std::int32_t peak = 0, now = 0;
  NodeIndex node = -1;
  for (const auto& [at, delta] : change) {  // per node in time order; an end and a start at one instant net out
    if (at.first != node) now = 0, node = at.first;
    now += delta;
    peak = std::max(peak, now);
  }
  return peak;
}

TEST(WholeCores, SlurmConfThreadsAreCpusOfWholeCores) {
  const Cluster core = threaded_cluster("CR_Core");
  ASSERT_EQ(core.nodes.at(0).cores, 4);
  EXPECT_EQ(core.nodes[0].cpus_per_core, 2);
  EXPECT_EQ(core.nodes[0].held_cores(1), 2);
  EXPECT_EQ(core.nodes[0].held_cores(3), 4);
  EXPECT_EQ(core.nodes[0].held_cores(4), 4);
  EXPECT_EQ(threaded_cluster("CR_Core_Memory").nodes[0].cpus_per_core, 2);
  EXPECT_EQ(threaded_cluster("CR_CPU").nodes[0].cpus_per_core, 2);
  EXPECT_EQ(threaded_cluster("CR_CPU_Memory").nodes[0].cpus_per_core, 2);
  const Cluster cores_counted = threaded_cluster("CR_CPU", "CPUs=2 Sockets=1 CoresPerSocket=2 ThreadsPerCore=2");
  EXPECT_EQ(cores_counted.nodes[0].cores, 2);
  EXPECT_EQ(cores_counted.nodes[0].cpus_per_core, 1);
  EXPECT_EQ(threaded_cluster("", kThreaded, "select/linear").nodes[0].cpus_per_core, 1);

  ClusterState free(core);
  Allocation one{{NodeShare{0, 1}}};
  free.take(one);
  EXPECT_EQ(free.node(0).cores, 2) << "one CPU asked holds a core of two";
  free.take(one);
  EXPECT_FALSE(free.can_hold(one));
  free.release(one);
  EXPECT_EQ(free.node(0).cores, 2);
}

TEST(WholeCores, EverySchedulerPlansWithWholeCores) {
  for (const std::string params : {"CR_Core", "CR_CPU", "no threads"}) {
    const Cluster cluster = params == "no threads" ? threaded_cluster("CR_CPU", "CPUs=4") : threaded_cluster(params);
    Workload workload = small_jobs();
    ASSERT_TRUE(bind_workload(cluster, workload).rejected.empty());
    for (const std::string spec : {"backfill", "backfill-easy", "ipsched", "aucsched1", "aucsched2", "aucsched3",
                                   "fifo+ff", "easy+bf", "sjf+balanced", "prb+weighted", "cph+pweighted",
                                   "easy+ff+oracle"}) {
      SCOPED_TRACE(spec + " " + params);
      auto built = make_scheduler(spec, {});
      const SimResult result = simulate(cluster, workload, *built.scheduler, {});
      const CheckReport check = check_run(cluster, workload, result);
      EXPECT_TRUE(check.ok()) << ::testing::PrintToString(check.violations);
      for (const JobRecord& r : result.records) ASSERT_EQ(r.status, JobStatus::Completed);
      const auto held = [](const Node& n, std::int32_t c) { return n.held_cores(c); };
      const auto asked = [](const Node&, std::int32_t c) { return c; };
      EXPECT_LE(peak_on_a_node(cluster, result, held), 4);
      // Utilization counts what the jobs hold, as Slurm's accounting does.
      const Summary summary = summarize(cluster, workload, result);
      double held_seconds = 0;
      for (const JobRecord& r : result.records)
        for (const NodeShare& s : r.alloc.unpack().shares)
          held_seconds += static_cast<double>(r.end - r.start) * cluster.nodes[s.node].held_cores(s.cores);
      EXPECT_NEAR(summary.core_utilization * 8.0 * static_cast<double>(summary.span), held_seconds, 1e-6);
      if (params != "no threads")  // at most two 1-CPU jobs on a node, never four
        EXPECT_LE(peak_on_a_node(cluster, result, asked), 3);
      else
        EXPECT_EQ(peak_on_a_node(cluster, result, asked), 4) << "four 1-CPU jobs share a node";
    }
  }
}

}  // namespace
}  // namespace hs
