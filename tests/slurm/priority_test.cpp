#include <gtest/gtest.h>

#include "policy/slurm/priority.hpp"
#include "slurm_test_util.hpp"

namespace hs::slurm {
namespace {

using testing::make_cluster;
using testing::make_job;
using testing::Req;

TEST(SlurmPriority, BasicIsFifo) {
  EXPECT_GT(basic_priority(0), basic_priority(1));
  EXPECT_EQ(basic_priority(0) - basic_priority(5), 5);
}

TEST(SlurmPriority, MultifactorAddsOnePerMinuteWaited) {
  const Cluster c = make_cluster(100, 8);  // 800 cores
  const MultifactorConfig m;               // the documents' setting
  const Job j = make_job({.ntasks = 8, .nodes_min = 1});
  const std::int64_t p0 = multifactor_priority(c, j, 0, m);
  EXPECT_EQ(multifactor_priority(c, j, 60, m), p0 + 1);
  EXPECT_EQ(multifactor_priority(c, j, 600, m), p0 + 10);
  // Age saturates at PriorityMaxAge (7 days).
  EXPECT_EQ(multifactor_priority(c, j, 8 * 86400, m), multifactor_priority(c, j, 7 * 86400, m));
}

TEST(SlurmPriority, MultifactorSizeFactorFavoursLargerJobs) {
  const Cluster c = make_cluster(100, 8);
  const MultifactorConfig m;
  // size = (nodes/100 + cpus/800) / 2; weight 10080.
  const Job small = make_job({.ntasks = 8, .nodes_min = 1});
  const Job big = make_job({.ntasks = 400, .nodes_min = 50});
  EXPECT_EQ(multifactor_priority(c, small, 0, m), static_cast<std::int64_t>(10080 * (0.01 + 0.01) / 2));
  EXPECT_EQ(multifactor_priority(c, big, 0, m), static_cast<std::int64_t>(10080 * (0.5 + 0.5) / 2));
  MultifactorConfig favor_small = m;
  favor_small.favor_small = true;
  EXPECT_GT(multifactor_priority(c, small, 0, favor_small), multifactor_priority(c, big, 0, favor_small));
}

TEST(SlurmPriority, RecomputedOncePerCalcPeriod) {
  const Cluster c = make_cluster(4, 8);
  Workload w;
  w.jobs = {make_job({.ntasks = 1}, 1)};
  PriorityModel model(PriorityType::Multifactor, MultifactorConfig{});
  model.attach(c, w);
  model.on_submit(0, 0);
  const std::int64_t p0 = model.priority(0);
  const std::vector<JobRef> pending{0};
  EXPECT_TRUE(model.refresh(0, pending));
  EXPECT_FALSE(model.refresh(299, pending));   // same 5-minute period
  EXPECT_EQ(model.priority(0), p0);
  EXPECT_TRUE(model.refresh(610, pending));    // recomputed at the 600 s boundary
  EXPECT_EQ(model.priority(0), p0 + 10);
}

TEST(SlurmPriority, QueueOrderByTierPrioritySubmitThenRef) {
  Cluster c = make_cluster(2, 8);
  c.partitions.push_back({"low", {0, 1}, kNoTime, kNoTime, 1, true});
  c.partitions.push_back({"high", {0, 1}, kNoTime, kNoTime, 2, false});
  Workload w;
  w.jobs = {make_job({.ntasks = 1, .submit = 0}, 1), make_job({.ntasks = 1, .submit = 5}, 2),
            make_job({.ntasks = 1, .submit = 9}, 3)};
  w.jobs[2].partition = "high";
  PriorityModel basic(PriorityType::Basic, MultifactorConfig{});
  basic.attach(c, w);
  for (JobRef j = 0; j < 3; ++j) basic.on_submit(j, w.jobs[j].submit);
  const QueueOrder order(c, w, basic);
  std::vector<JobRef> q;
  for (JobRef j : {1, 0, 2}) order.insert(q, j);
  EXPECT_EQ(q, (std::vector<JobRef>{2, 0, 1}));  // higher tier first, then FIFO
}

}  // namespace
}  // namespace hs::slurm
