#include "workload/eurora.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

#include "test_clusters.hpp"
#include "util/error.hpp"
#include "workload/registry.hpp"

namespace hs {
namespace {

std::string class_of(const Job& j) {
  if (j.req.gres.empty()) return "cpu";
  return j.req.gres[0].name;
}

class EuroraMonth : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    cluster_ = new Cluster(test::eurora_like());
    month_ = new Workload(generate_workload("eurora", *cluster_, 2014));
  }
  static void TearDownTestSuite() {
    delete month_;
    delete cluster_;
  }
  static Cluster* cluster_;
  static Workload* month_;
};
Cluster* EuroraMonth::cluster_ = nullptr;
Workload* EuroraMonth::month_ = nullptr;

TEST_F(EuroraMonth, JobCountAndOrder) {
  ASSERT_EQ(month_->jobs.size(), 78000u);  // 30 days x 2600
  for (std::size_t i = 0; i < month_->jobs.size(); ++i) {
    EXPECT_EQ(month_->jobs[i].id, static_cast<std::int64_t>(i + 1));
    if (i > 0) {
      ASSERT_LE(month_->jobs[i - 1].submit, month_->jobs[i].submit);
    }
  }
}

TEST_F(EuroraMonth, ClassSharesAndMeansFollow004Table1) {
  std::map<std::string, double> count, seconds;
  for (const auto& j : month_->jobs) {
    count[class_of(j)] += 1;
    seconds[class_of(j)] += static_cast<double>(j.run_time);
  }
  const double n = static_cast<double>(month_->jobs.size());
  EXPECT_NEAR(count["cpu"] / n, 0.228, 0.02);
  EXPECT_NEAR(count["mic"] / n, 0.007, 0.003);
  EXPECT_NEAR(count["gpu"] / n, 0.764, 0.02);
  EXPECT_NEAR(seconds["cpu"] / count["cpu"] / 60, 47.6, 47.6 * 0.15);
  EXPECT_NEAR(seconds["mic"] / count["mic"] / 60, 56.5, 56.5 * 0.35);
  EXPECT_NEAR(seconds["gpu"] / count["gpu"] / 60, 6.4, 6.4 * 0.15);
}

TEST_F(EuroraMonth, DurationBandsFollow004) {
  double short_jobs = 0, medium = 0, long_jobs = 0;
  for (const auto& j : month_->jobs) {
    if (j.run_time < 3600)
      short_jobs += 1;
    else if (j.run_time <= 5 * 3600)
      medium += 1;
    else
      long_jobs += 1;
  }
  const double n = static_cast<double>(month_->jobs.size());
  EXPECT_NEAR(short_jobs / n, 0.9314, 0.015);
  EXPECT_NEAR(medium / n, 0.0610, 0.012);
  EXPECT_NEAR(long_jobs / n, 0.0075, 0.004);
}

TEST_F(EuroraMonth, RequestsFitTheMachineAsUnits) {
  std::set<Time> limits;
  for (const auto& q : eurora_queues()) limits.insert(q.max_time);
  for (const auto& j : month_->jobs) {
    const JobRequest& r = j.req;
    ASSERT_GT(r.ntasks_per_node, 0);
    ASSERT_LE(r.ntasks_per_node, 16);
    ASSERT_EQ(r.ntasks % r.ntasks_per_node, 0);
    const int nodes = r.ntasks / r.ntasks_per_node;
    EXPECT_LE(nodes, r.gres.empty() ? 64 : 32);
    if (!r.gres.empty()) {
      EXPECT_GE(r.gres[0].per_node_min, 1);
      EXPECT_LE(r.gres[0].per_node_min, 2);
      EXPECT_EQ(r.gres[0].type, cluster_->gres_index(r.gres[0].name));
      EXPECT_EQ(r.ntasks_per_node % r.gres[0].per_node_min, 0);  // whole units per node
    }
    EXPECT_EQ(limits.count(r.time_limit), 1u);
    EXPECT_LE(j.run_time, r.time_limit);
    EXPECT_GE(j.run_time, 1);
  }
}

// The data-driven predictor of 004 §2.3 (last duration of the same user's same profile)
// must beat the wall-time predictor by a wide margin, as on the real Eurora trace.
TEST_F(EuroraMonth, LastSameProfileDurationPredictsWell) {
  std::map<std::string, Time> last;
  double err_profile = 0, err_walltime = 0;
  int repeats = 0;
  for (const auto& j : month_->jobs) {
    const std::string key = j.user + "|" + j.name + "|" + std::to_string(j.req.time_limit);
    const auto it = last.find(key);
    if (it != last.end()) {
      ++repeats;
      err_profile += std::abs(static_cast<double>(it->second - j.run_time));
      err_walltime += std::abs(static_cast<double>(j.req.time_limit - j.run_time));
    }
    last[key] = j.run_time;
  }
  EXPECT_GT(repeats, 0.9 * month_->jobs.size());
  EXPECT_LT(err_profile, 0.3 * err_walltime);
}

TEST_F(EuroraMonth, DaytimeSubmissionsDominate) {
  double day = 0, night = 0;
  for (const auto& j : month_->jobs) {
    const int hour = static_cast<int>((j.submit % 86400) / 3600);
    (hour >= 8 && hour < 20 ? day : night) += 1;
  }
  EXPECT_GT(day, 2.5 * night);
  EXPECT_LT(month_->jobs.back().submit, 31 * 86400);
}

TEST(Eurora, LoadModeAndLargeWorkloads) {
  const Cluster c = test::eurora_like();
  const Workload w = generate_workload("eurora:days=10,load=0.8", c, 1);
  double area = 0;
  for (const auto& j : w.jobs) area += static_cast<double>(j.run_time) * j.req.ntasks;
  EXPECT_NEAR(area / (c.total_cores() * 10.0 * 86400), 0.8, 0.02);
  const Workload big = generate_workload("eurora:days=30,jobs_per_day=3334", c, 2);
  EXPECT_EQ(big.jobs.size(), 100020u);
}

TEST(Eurora, DeterminismAndErrors) {
  const Cluster c = test::eurora_like();
  const Workload a = generate_workload("eurora:days=2", c, 4);
  const Workload b = generate_workload("eurora:days=2", c, 4);
  const Workload d = generate_workload("eurora:days=2", c, 5);
  ASSERT_EQ(a.jobs.size(), b.jobs.size());
  bool differs = false;
  for (std::size_t i = 0; i < a.jobs.size(); ++i) {
    ASSERT_EQ(a.jobs[i].name, b.jobs[i].name);
    ASSERT_EQ(a.jobs[i].run_time, b.jobs[i].run_time);
    ASSERT_EQ(a.jobs[i].submit, b.jobs[i].submit);
    differs |= a.jobs[i].name != d.jobs[i].name || a.jobs[i].submit != d.jobs[i].submit;
  }
  EXPECT_TRUE(differs);
  EXPECT_THROW(generate_workload("eurora", test::paper1024(), 1), InputError);  // no MICs
  EXPECT_NO_THROW(generate_workload("eurora:mic_share=0,days=1", test::paper1024(), 1));
  EXPECT_THROW(generate_workload("eurora:gpu_mean_min=1", c, 1), InputError);
  EXPECT_THROW(generate_workload("eurora:medium_share=0.9", c, 1), InputError);
  EXPECT_THROW(generate_workload("eurora:days=0", c, 1), InputError);
}

TEST(Eurora, UsesQueuesAsPartitionsWhenTheClusterHasThem) {
  Cluster c = test::eurora_like();
  Partition p;
  p.name = "parallel";
  p.max_time = 4 * 3600;
  p.is_default = true;
  for (int i = 0; i < 64; ++i) p.nodes.push_back(i);
  c.partitions.push_back(p);
  const Workload w = generate_workload("eurora:days=1", c, 3);
  int in_parallel = 0;
  for (const auto& j : w.jobs) {
    if (j.partition.empty()) continue;
    EXPECT_EQ(j.partition, "parallel");
    EXPECT_EQ(j.req.time_limit, 4 * 3600);
    EXPECT_LE(j.run_time, 4 * 3600);
    ++in_parallel;
  }
  EXPECT_GT(in_parallel, 0);
}

}  // namespace
}  // namespace hs

namespace hs {
namespace {

TEST(Eurora, ShortNightOnlyHorizonTerminates) {
  const Workload w = generate_workload("eurora:days=0.2,night=0", test::eurora_like(), 1);
  EXPECT_EQ(w.jobs.size(), 520u);
}

}  // namespace
}  // namespace hs
