#include <gtest/gtest.h>

#include <map>

#include "test_clusters.hpp"
#include "util/error.hpp"
#include "workload/common.hpp"
#include "workload/registry.hpp"

namespace hs {
namespace {

std::map<std::string, int> kind_counts(const Workload& w) {
  std::map<std::string, int> counts;
  for (const auto& j : w.jobs) ++counts[j.name.substr(0, 4)];  // core, node, gpu1, gpu2
  return counts;
}

TEST(Synthetic, ReachesAboutFourHoursOnEachMachineSize) {
  for (int nodes : {128, 256, 1024}) {
    const Cluster c = test::uniform_cluster(nodes, 8, 2);
    const Workload w = generate_workload("synthetic:mix=V", c, 1);
    const double hours = workload_detail::theoretical_runtime(w, c.total_cores()) / 3600;
    EXPECT_GE(hours, 4.0);
    EXPECT_LT(hours, 4.05);
    for (const auto& j : w.jobs) {
      EXPECT_EQ(j.submit, 0);
      EXPECT_GE(j.run_time, 60);
      EXPECT_LE(j.run_time, 600);
      EXPECT_EQ(j.req.ntasks % 8, 0) << j.name;  // multiples of cores per node
      EXPECT_LE(j.req.ntasks, c.total_cores() / 8);
      if (j.req.nodes_min > 0) {
        EXPECT_LE(j.req.nodes_min, nodes);
      }
    }
  }
}

TEST(Synthetic, MixesFollowTable72) {
  const Cluster c = test::uniform_cluster(1024, 8, 2);
  auto share = [&](const std::string& mix, const std::string& kind) {
    Workload all;
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      Workload w = generate_workload("synthetic:mix=" + mix, c, seed);
      all.jobs.insert(all.jobs.end(), w.jobs.begin(), w.jobs.end());
    }
    const auto counts = kind_counts(all);
    return counts.count(kind) ? counts.at(kind) / static_cast<double>(all.jobs.size()) : 0.0;
  };
  EXPECT_EQ(share("I", "core"), 1.0);
  EXPECT_EQ(share("II", "node"), 1.0);
  EXPECT_NEAR(share("III", "core"), 0.5, 0.05);
  EXPECT_NEAR(share("IV", "gpu1"), 0.2, 0.04);
  EXPECT_EQ(share("IV", "gpu2"), 0.0);
  EXPECT_NEAR(share("V", "gpu2"), 1.0 / 6, 0.04);
  EXPECT_NEAR(share("V", "node"), 1.0 / 3, 0.05);
}

TEST(Synthetic, RequestsMatchTheKinds) {
  const Cluster c = test::uniform_cluster(256, 8, 2);
  const Workload w = generate_workload("synthetic:mix=V", c, 2);
  for (const auto& j : w.jobs) {
    const JobRequest& r = j.req;
    if (j.name == "core") {
      EXPECT_EQ(r.nodes_min, 0);
      EXPECT_TRUE(r.gres.empty());
    } else if (j.name == "node4" || j.name == "node8") {
      const int per_node = j.name == "node4" ? 4 : 8;
      EXPECT_EQ(r.ntasks_per_node, per_node);
      EXPECT_EQ(r.nodes_min * per_node, r.ntasks);
    } else {
      const int g = j.name == "gpu1" ? 1 : 2;
      ASSERT_EQ(r.gres.size(), 1u) << j.name;
      EXPECT_EQ(r.gres[0].per_node_min, g);
      const int per_node = r.ntasks / r.nodes_min;
      EXPECT_EQ(per_node * r.nodes_min, r.ntasks);
      EXPECT_TRUE(per_node == g || per_node == 2 * g);  // 1 or 2 cores per GPU
    }
  }
}

TEST(Synthetic, ContiguityVersions) {
  const Cluster c = test::uniform_cluster(128, 8, 2);
  auto ratio = [&](const char* contig) {
    const Workload w = generate_workload(std::string("synthetic:mix=IV,contig=") + contig, c, 3);
    int n = 0;
    for (const auto& j : w.jobs) n += j.req.contiguous;
    return n / static_cast<double>(w.jobs.size());
  };
  EXPECT_EQ(ratio("0"), 0.0);
  EXPECT_EQ(ratio("100"), 1.0);
  EXPECT_NEAR(ratio("50"), 0.5, 0.12);
}

TEST(Synthetic, DeterminismAndErrors) {
  const Cluster c = test::uniform_cluster(128, 8, 2);
  const Workload a = generate_workload("synthetic:mix=III", c, 5);
  const Workload b = generate_workload("synthetic:mix=III", c, 5);
  const Workload d = generate_workload("synthetic:mix=III", c, 6);
  ASSERT_EQ(a.jobs.size(), b.jobs.size());
  for (std::size_t i = 0; i < a.jobs.size(); ++i) {
    EXPECT_EQ(a.jobs[i].req.ntasks, b.jobs[i].req.ntasks);
    EXPECT_EQ(a.jobs[i].run_time, b.jobs[i].run_time);
  }
  bool differs = a.jobs.size() != d.jobs.size();
  for (std::size_t i = 0; !differs && i < a.jobs.size(); ++i)
    differs = a.jobs[i].run_time != d.jobs[i].run_time;
  EXPECT_TRUE(differs);
  EXPECT_THROW(generate_workload("synthetic:mix=VI", c, 1), InputError);
  EXPECT_THROW(generate_workload("synthetic:contig=25", c, 1), InputError);
  EXPECT_THROW(generate_workload("synthetic:mix=V", test::uniform_cluster(8, 8, 1), 1),
               InputError);  // 2 GPUs per node needed
}

}  // namespace
}  // namespace hs
