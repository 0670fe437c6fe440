#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "test_clusters.hpp"
#include "util/error.hpp"
#include "workload/common.hpp"
#include "workload/registry.hpp"

namespace hs {
namespace {

Cluster tsubame() { return test::uniform_cluster(1408, 12, 3); }

std::map<std::string, int> count_names(const Workload& w) {
  std::map<std::string, int> counts;
  for (const auto& j : w.jobs) ++counts[j.name];
  return counts;
}

double hours_of(const Workload& w, const Cluster& c) {
  return workload_detail::theoretical_runtime(w, c.total_cores()) / 3600.0;
}

TEST(Tsubame, Table86Workload3HasEqualKindSharesAndFiveHours) {
  const Cluster c = tsubame();
  const Workload w = generate_workload("tsubame:wl=3", c, 1);
  ASSERT_EQ(w.jobs.size(), 3491u);
  for (const auto& [name, n] : count_names(w)) {
    EXPECT_TRUE(name == "A" || name == "B" || name == "C" || name == "D" || name == "E");
    EXPECT_NEAR(n, 3491 / 5.0, 1.0) << name;
  }
  EXPECT_NEAR(hours_of(w, c), 4.94, 0.3);
  for (std::size_t i = 0; i < w.jobs.size(); ++i) EXPECT_EQ(w.jobs[i].id, (std::int64_t)i + 1);
}

TEST(Tsubame, KindsExpressTheirRequestsAsTable73) {
  const Cluster c = tsubame();
  const Workload w = generate_workload("tsubame:wl=3", c, 2);
  for (const auto& j : w.jobs) {
    const JobRequest& r = j.req;
    EXPECT_GE(j.run_time, 60);
    EXPECT_LE(j.run_time, 600);
    EXPECT_EQ(r.time_limit, j.run_time);
    EXPECT_LE(r.ntasks, c.total_cores());
    EXPECT_FALSE(j.moldable_runtime);
    if (j.name == "A") {
      EXPECT_EQ(r.nodes_min, 0);
      EXPECT_EQ(r.ntasks % 12, 0);
      EXPECT_TRUE(r.gres.empty());
      continue;
    }
    ASSERT_GT(r.nodes_min, 0);
    EXPECT_LE(r.nodes_min, 1408);
    ASSERT_EQ(r.ntasks % r.nodes_min, 0);
    const int per_node = r.ntasks / r.nodes_min;
    if (j.name == "B") {
      EXPECT_TRUE(per_node == 6 || per_node == 12) << per_node;
      EXPECT_TRUE(r.gres.empty());
      continue;
    }
    const int g = j.name == "C" ? 1 : j.name == "D" ? 2 : 3;
    ASSERT_EQ(r.gres.size(), 1u);
    EXPECT_EQ(r.gres[0].per_node_min, g);
    EXPECT_EQ(r.gres[0].per_node_max, g);
    EXPECT_TRUE(per_node == g || per_node == 2 * g) << j.name << " " << per_node;
  }
}

// cores_per_gpu_max widens the cores-per-GPU draw of the GPU kinds; every value in
// 1..max appears, and the default (2) is the draw above.
TEST(Tsubame, CoresPerGpuMaxWidensTheGpuKindsDraw) {
  const Cluster c = tsubame();
  const Workload w = generate_workload("tsubame:wl=3,cores_per_gpu_max=4", c, 2);
  std::map<int, int> cores_per_gpu;
  for (const auto& j : w.jobs) {
    if (j.req.gres.empty()) continue;
    const int g = j.req.gres[0].per_node_min;
    const int per_node = j.req.ntasks / j.req.nodes_min;
    ASSERT_EQ(per_node % g, 0) << j.name;
    ++cores_per_gpu[per_node / g];
  }
  ASSERT_EQ(cores_per_gpu.size(), 4u);
  EXPECT_EQ(cores_per_gpu.begin()->first, 1);
  EXPECT_EQ(cores_per_gpu.rbegin()->first, 4);
  for (const auto& [k, n] : cores_per_gpu) EXPECT_GT(n, 300) << k;
  const Workload by_default = generate_workload("tsubame:wl=3", c, 2);
  const Workload explicit_two = generate_workload("tsubame:wl=3,cores_per_gpu_max=2", c, 2);
  ASSERT_EQ(by_default.jobs.size(), explicit_two.jobs.size());
  for (std::size_t i = 0; i < by_default.jobs.size(); ++i)
    EXPECT_EQ(by_default.jobs[i].req.ntasks, explicit_two.jobs[i].req.ntasks);
}

TEST(Tsubame, BOnlyWorkloadIsAboutThreeHours) {
  const Cluster c = tsubame();
  const Workload w = generate_workload("tsubame:wl=2", c, 3);
  ASSERT_EQ(w.jobs.size(), 2095u);
  EXPECT_EQ(count_names(w).at("B"), 2095);
  EXPECT_NEAR(hours_of(w, c), 2.98, 0.25);
  const Workload a = generate_workload("tsubame:wl=1", c, 3);
  EXPECT_NEAR(hours_of(a, c), 5.02, 0.35);
}

TEST(Tsubame, ContiguityRatioIsExact) {
  const Cluster c = tsubame();
  for (double ratio : {0.0, 0.5, 1.0}) {
    const Workload w = generate_workload("tsubame:jobs=1001,contig=" + std::to_string(ratio), c, 4);
    int contiguous = 0;
    for (const auto& j : w.jobs) contiguous += j.req.contiguous;
    EXPECT_EQ(contiguous, static_cast<int>(std::llround(ratio * 1001)));
  }
  int contiguous = 0;
  for (const auto& j : generate_workload("tsubame:wl=6", c, 4).jobs) contiguous += j.req.contiguous;
  EXPECT_EQ(contiguous, 1746);  // round(0.5 * 3491)
}

TEST(Tsubame, PrimedKindsAskGpuRangesAndAreMoldable) {
  const Cluster c = tsubame();
  const Workload w = generate_workload("tsubame:kinds=ABC'D'E,jobs=2000", c, 5);
  int molded = 0, above_nominal = 0, below_nominal = 0;
  for (const auto& j : w.jobs) {
    const bool primed = j.name == "C'" || j.name == "D'";
    EXPECT_EQ(j.moldable_runtime, primed) << j.name;
    if (!primed) continue;
    ++molded;
    ASSERT_EQ(j.req.gres.size(), 1u);
    EXPECT_EQ(j.req.gres[0].per_node_min, j.name == "C'" ? 1 : 2);
    EXPECT_EQ(j.req.gres[0].per_node_max, 3);
    EXPECT_GE(j.req.time_limit, j.run_time);
    // The limit is the nominal time unless the N(1,0.5) factor exceeded 1.
    if (j.req.time_limit == j.run_time)
      ++above_nominal;
    else
      ++below_nominal;
  }
  EXPECT_EQ(molded, 800);
  EXPECT_GT(above_nominal, 250);
  EXPECT_GT(below_nominal, 250);
}

TEST(Tree1024, Table85Workloads) {
  const Cluster c = test::uniform_cluster(1024, 16, 3);
  const Workload w1 = generate_workload("tree1024:wl=1", c, 1);
  EXPECT_EQ(w1.jobs.size(), 350u);
  EXPECT_EQ(count_names(w1).at("A"), 350);
  const Workload w4 = generate_workload("tree1024:wl=4", c, 1);
  EXPECT_EQ(w4.jobs.size(), 2095u);
  EXPECT_EQ(count_names(w4).at("B"), 2095);
  const Workload w6p = generate_workload("tree1024:wl=6'", c, 1);
  ASSERT_EQ(w6p.jobs.size(), 2095u);
  const auto counts = count_names(w6p);
  EXPECT_EQ(counts.at("C'"), 419);
  EXPECT_EQ(counts.at("D'"), 419);
  EXPECT_EQ(counts.count("C"), 0u);
  for (const auto& j : w6p.jobs) {
    EXPECT_LE(j.req.ntasks, c.total_cores());
    if (j.req.nodes_min > 0) {
      EXPECT_EQ(j.req.ntasks % j.req.nodes_min, 0);
    }
  }
  EXPECT_EQ(count_names(generate_workload("tree1024:wl=5", c, 1)).at("E"), 70);
}

TEST(Tsubame, DeterminismAndErrors) {
  const Cluster c = tsubame();
  const Workload a = generate_workload("tsubame:jobs=300", c, 9);
  const Workload b = generate_workload("tsubame:jobs=300", c, 9);
  const Workload d = generate_workload("tsubame:jobs=300", c, 10);
  bool differs = false;
  for (std::size_t i = 0; i < a.jobs.size(); ++i) {
    EXPECT_EQ(a.jobs[i].req.ntasks, b.jobs[i].req.ntasks);
    EXPECT_EQ(a.jobs[i].name, b.jobs[i].name);
    differs |= a.jobs[i].req.ntasks != d.jobs[i].req.ntasks;
  }
  EXPECT_TRUE(differs);
  EXPECT_THROW(generate_workload("tsubame:kinds=XYZ", c, 1), InputError);
  EXPECT_THROW(generate_workload("tsubame:kinds=AB'", c, 1), InputError);
  EXPECT_THROW(generate_workload("tsubame:contig=2", c, 1), InputError);
  EXPECT_THROW(generate_workload("tsubame:runtime_min=700", c, 1), InputError);
  EXPECT_THROW(generate_workload("tsubame", test::paper1024(), 1), InputError);  // E needs 3
  EXPECT_NO_THROW(generate_workload("tsubame:kinds=ABCD", test::paper1024(), 1));
  EXPECT_THROW(generate_workload("tree1024:wl=7", c, 1), InputError);
}

TEST(Tsubame, ArrivalsSpreadWhenAsked) {
  const Workload w = generate_workload("tsubame:jobs=500,arrival_mean=20", tsubame(), 1);
  EXPECT_NEAR(static_cast<double>(w.jobs.back().submit), 499 * 20.0, 2000.0);
  const Workload batch = generate_workload("tsubame:jobs=500", tsubame(), 1);
  EXPECT_EQ(batch.jobs.back().submit, 0);
}

}  // namespace
}  // namespace hs

namespace hs {
namespace {

TEST(Tsubame, Table84Workloads) {
  const Cluster c = test::uniform_cluster(1408, 12, 3);
  const Workload w5 = generate_workload("tsubame:wl84=5", c, 1);
  ASSERT_EQ(w5.jobs.size(), 6982u);
  int contiguous = 0;
  for (const auto& j : w5.jobs) {
    EXPECT_EQ(j.name, "A");
    contiguous += j.req.contiguous;
  }
  EXPECT_EQ(contiguous, 3491);
  EXPECT_NEAR(workload_detail::theoretical_runtime(w5, c.total_cores()) / 3600, 10.0, 0.5);
  const Workload w9 = generate_workload("tsubame:wl84=9,ranges=true", c, 1);
  int primed = 0, all_contiguous = 0;
  for (const auto& j : w9.jobs) {
    primed += j.name == "C'" || j.name == "D'";
    all_contiguous += j.req.contiguous;
  }
  EXPECT_EQ(primed, 1396);  // kinds 3 and 4 of 5 over 3491 jobs: 698 + 698
  EXPECT_EQ(all_contiguous, 3491);
  EXPECT_THROW(generate_workload("tsubame:wl=1,wl84=1", c, 1), InputError);
  EXPECT_THROW(generate_workload("tsubame:wl84=13", c, 1), InputError);
}

}  // namespace
}  // namespace hs
