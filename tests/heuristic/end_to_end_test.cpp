// Every scheduler x allocator x predictor on a small Eurora-like workload: each run must
// pass the independent invariant checker, run every job, and be deterministic.
#include <gtest/gtest.h>

#include "io/builtin_clusters.hpp"
#include "policy/heuristic/heuristic_schedulers.hpp"
#include "sim/bind.hpp"
#include "sim/invariant_checker.hpp"
#include "sim/simulator.hpp"
#include "workload/eurora.hpp"
#include "workload/registry.hpp"

namespace hs::heuristic {
namespace {

Cluster eurora_with_queues() {
  Cluster c = *builtin_cluster("eurora");
  std::vector<NodeIndex> all;
  for (NodeIndex n = 0; n < c.node_count(); ++n) all.push_back(n);
  for (const EuroraQueue& q : eurora_queues())
    c.partitions.push_back({q.name, all, q.max_time, q.default_time, 1, q.name == "parallel"});
  return c;
}

struct Matrix : ::testing::Test {
  static void SetUpTestSuite() {
    cluster = new Cluster(eurora_with_queues());
    workload = new Workload(generate_workload("eurora:days=0.4", *cluster, 7));
    bind_workload(*cluster, *workload);
  }
  static void TearDownTestSuite() {
    delete workload;
    delete cluster;
  }
  static SimResult run(const std::string& s, const std::string& a, const std::string& p) {
    Params params;
    auto sched = make_heuristic_scheduler(s, a, p, params);
    return simulate(*cluster, *workload, *sched, {});
  }
  static Cluster* cluster;
  static Workload* workload;
};
Cluster* Matrix::cluster = nullptr;
Workload* Matrix::workload = nullptr;

TEST_F(Matrix, EveryCombinationRunsEveryJobSoundly) {
  ASSERT_GT(workload->jobs.size(), 500u);
  for (const auto& s : heuristic_scheduler_list())
    for (const auto& a : heuristic_allocator_list())
      for (const auto& p : heuristic_predictor_list()) {
        const std::string name = s.name + "+" + a.name + "+" + p.name;
        const SimResult r = run(s.name, a.name, p.name);
        const CheckReport check = check_run(*cluster, *workload, r);
        EXPECT_TRUE(check.ok()) << name << ": " << check.violations.front();
        EXPECT_EQ(r.rejected, 0) << name;
        EXPECT_EQ(r.stalled, 0) << name;
      }
}

TEST_F(Matrix, RunsAreDeterministic) {
  const SimResult a = run("cph", "pweighted", "datadriven");
  const SimResult b = run("cph", "pweighted", "datadriven");
  ASSERT_EQ(a.records.size(), b.records.size());
  for (std::size_t j = 0; j < a.records.size(); ++j) {
    EXPECT_EQ(a.records[j].start, b.records[j].start);
    EXPECT_EQ(a.records[j].alloc.nodes(), b.records[j].alloc.nodes());
  }
}

TEST_F(Matrix, HeterogeneityAwareAllocatorsKeepGpuNodesForGpuJobs) {
  // Under EASY with oracle durations, WEIGHTED should not make GPU jobs wait longer than
  // first fit does on this GPU-heavy workload (the paper's main claim, weakly).
  auto mean_wait = [&](const SimResult& r) {
    double sum = 0;
    for (std::size_t j = 0; j < r.records.size(); ++j)
      sum += static_cast<double>(r.records[j].start - workload->jobs[j].submit);
    return sum / static_cast<double>(r.records.size());
  };
  EXPECT_LE(mean_wait(run("easy", "weighted", "oracle")), mean_wait(run("easy", "ff", "oracle")));
}

}  // namespace
}  // namespace hs::heuristic
