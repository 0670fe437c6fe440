#include <gtest/gtest.h>

#include <map>

#include "test_clusters.hpp"
#include "util/error.hpp"
#include "workload/common.hpp"
#include "workload/registry.hpp"

namespace hs {
namespace {

std::map<std::string, int> count_names(const Workload& w) {
  std::map<std::string, int> counts;
  for (const auto& j : w.jobs) ++counts[j.name];
  return counts;
}

void expect_ordered_and_numbered(const Workload& w) {
  for (std::size_t i = 0; i < w.jobs.size(); ++i) {
    EXPECT_EQ(w.jobs[i].id, static_cast<std::int64_t>(i + 1));
    if (i > 0) {
      EXPECT_LE(w.jobs[i - 1].submit, w.jobs[i].submit);
    }
    EXPECT_GT(w.jobs[i].req.time_limit, 0);
    EXPECT_GE(w.jobs[i].req.time_limit, w.jobs[i].run_time);
    EXPECT_FALSE(w.jobs[i].user.empty());
  }
}

TEST(Esp, Plain230JobsWithTable71CountsAndSizes) {
  const Cluster c = test::paper1024();
  const Workload w = generate_workload("esp", c, 1);
  ASSERT_EQ(w.jobs.size(), 230u);
  expect_ordered_and_numbered(w);
  const auto counts = count_names(w);
  EXPECT_EQ(counts.at("A"), 75);
  EXPECT_EQ(counts.at("L"), 36);
  EXPECT_EQ(counts.at("Z"), 2);
  for (const auto& j : w.jobs) {
    EXPECT_TRUE(j.req.gres.empty());
    if (j.name == "A") {
      EXPECT_EQ(j.req.ntasks, 256);
    }  // 0.03125 * 8192
    if (j.name == "H") {
      EXPECT_EQ(j.req.ntasks, 1296);
    }  // 0.1582 * 8192
    if (j.name == "Z") {
      EXPECT_EQ(j.req.ntasks, 8192);
    }
    if (j.name == "F") {
      EXPECT_EQ(j.run_time, 1846);
    }
  }
  // Sum of size x count x time over Table 7.1 is 11011 s; the documents quote 10984 s
  // (3.05 h) for the original set, and 21822 s for the heterogeneous one (= 2 x 10811 +
  // the two Z jobs' 200 s), which this table reproduces exactly.
  EXPECT_NEAR(workload_detail::theoretical_runtime(w, c.total_cores()), 11011, 1);
}

TEST(Esp, FiftyJobsAtZeroThenGaussianGaps) {
  const Workload w = generate_workload("esp", test::paper1024(), 7);
  int at_zero = 0;
  for (const auto& j : w.jobs) at_zero += j.submit == 0 && j.name != "Z";
  EXPECT_EQ(at_zero, 50);
  // 178 gaps of mean 30 s after the initial batch: the last ordinary job near 5340 s.
  Time last = 0;
  for (const auto& j : w.jobs)
    if (j.name != "Z") last = std::max(last, j.submit);
  EXPECT_NEAR(static_cast<double>(last), 178 * 30.0, 400.0);
}

TEST(EspHet, Has458JobsGpuCopiesAndZJobsAt80And240Minutes) {
  const Cluster c = test::paper1024();
  const Workload w = generate_workload("esp-het", c, 3);
  ASSERT_EQ(w.jobs.size(), 458u);
  expect_ordered_and_numbered(w);
  const auto counts = count_names(w);
  EXPECT_EQ(counts.at("A"), 75);
  EXPECT_EQ(counts.at("A_gpu"), 75);
  EXPECT_EQ(counts.at("M_gpu"), 15);
  EXPECT_EQ(counts.count("Z_gpu"), 0u);
  std::vector<Time> z_times;
  int gpu_jobs = 0;
  for (const auto& j : w.jobs) {
    if (j.name == "Z") z_times.push_back(j.submit);
    const bool gpu_copy = j.name.size() > 2 && j.name.substr(1) == "_gpu";
    if (gpu_copy) {
      ++gpu_jobs;
      ASSERT_EQ(j.req.gres.size(), 1u);
      EXPECT_EQ(j.req.gres[0].name, "gpu");
      EXPECT_EQ(j.req.gres[0].type, 0);
      EXPECT_EQ(j.req.gres[0].per_node_min, 2);
      EXPECT_EQ(j.req.gres[0].per_node_max, 2);
      EXPECT_EQ(j.req.nodes_min, 0);  // -n and --gres only, as the documents' ESP jobs
    } else {
      EXPECT_TRUE(j.req.gres.empty());
    }
    EXPECT_LE(j.req.ntasks, c.total_cores());
    EXPECT_EQ(j.req.ntasks % 8, 0);
  }
  EXPECT_EQ(gpu_jobs, 228);
  EXPECT_EQ(z_times, (std::vector<Time>{4800, 14400}));
  // The documents: sum of completion times 21822 s for the modified set.
  EXPECT_NEAR(workload_detail::theoretical_runtime(w, c.total_cores()), 21822, 1);
}

TEST(EspHet, RandomVariantJittersSizesWithinFour) {
  const Cluster c = test::paper1024();
  const Workload w = generate_workload("esp-het-random", c, 5);
  ASSERT_EQ(w.jobs.size(), 458u);
  int not_multiple_of_8 = 0;
  for (const auto& j : w.jobs) {
    if (j.name[0] == 'A') {
      EXPECT_GE(j.req.ntasks, 252);
      EXPECT_LE(j.req.ntasks, 260);
    }
    if (j.name == "Z") {
      EXPECT_EQ(j.req.ntasks, 8192);
    }
    not_multiple_of_8 += j.req.ntasks % 8 != 0;
  }
  EXPECT_GT(not_multiple_of_8, 300);  // 8 of the 9 offsets break the multiple of 8
}

TEST(Esp, SizesScaleToTheCluster) {
  const Cluster c = test::uniform_cluster(128, 8, 2);
  const Workload w = generate_workload("esp-het", c, 1);
  for (const auto& j : w.jobs) {
    EXPECT_LE(j.req.ntasks, 1024);
    if (j.name == "A") {
      EXPECT_EQ(j.req.ntasks, 32);
    }
  }
}

TEST(Esp, DeterministicPerSeed) {
  const Cluster c = test::paper1024();
  const Workload a = generate_workload("esp-het", c, 11);
  const Workload b = generate_workload("esp-het", c, 11);
  const Workload d = generate_workload("esp-het", c, 12);
  ASSERT_EQ(a.jobs.size(), b.jobs.size());
  bool differs = false;
  for (std::size_t i = 0; i < a.jobs.size(); ++i) {
    EXPECT_EQ(a.jobs[i].name, b.jobs[i].name);
    EXPECT_EQ(a.jobs[i].submit, b.jobs[i].submit);
    EXPECT_EQ(a.jobs[i].user, b.jobs[i].user);
    differs |= a.jobs[i].name != d.jobs[i].name || a.jobs[i].submit != d.jobs[i].submit;
  }
  EXPECT_TRUE(differs);
  EXPECT_EQ(a.name, b.name);
}

TEST(Esp, OptionsAndErrors) {
  const Cluster c = test::paper1024();
  const Workload w = generate_workload("esp:initial=230,limit_factor=2", c, 1);
  for (const auto& j : w.jobs) {
    if (j.name != "Z") {
      EXPECT_EQ(j.submit, 0);
    }
    EXPECT_EQ(j.req.time_limit, 2 * j.run_time);
  }
  EXPECT_THROW(generate_workload("esp:bogus=1", c, 1), InputError);
  EXPECT_THROW(generate_workload("esp:initial=x", c, 1), InputError);
  EXPECT_THROW(generate_workload("esp:gpus=2", c, 1), InputError);  // only esp-het has gpus
  EXPECT_THROW(generate_workload("nosuch", c, 1), InputError);
  EXPECT_THROW(generate_workload("esp-het", test::uniform_cluster(16, 8, 0), 1), InputError);
}

TEST(Registry, ListsGeneratorsWithParams) {
  const auto gens = workload_generators();
  ASSERT_GE(gens.size(), 3u);
  EXPECT_EQ(gens[0].name, "esp");
  EXPECT_NE(gens[1].params.find("gpus=2"), std::string::npos);
}

}  // namespace
}  // namespace hs
