#include <gtest/gtest.h>

#include "policy/window/window_scheduler.hpp"
#include "window_test_support.hpp"

namespace hs {
namespace {

using test::JobSpec;

// A full cluster and a queue that cannot start until the long job ends: the periodic
// passes in between see exactly the same window and free resources.
Workload blocked_queue() {
  std::vector<JobSpec> specs;
  specs.push_back(JobSpec{.ntasks = 64, .submit = 0, .run = 400});
  for (int i = 0; i < 10; ++i)
    specs.push_back(JobSpec{.ntasks = 4 + 6 * (i % 4), .gpus = i % 3 == 0 ? 1 : 0,
                            .submit = 3 + 7 * i, .run = 60 + 25 * (i % 5)});
  return test::make_workload(specs);
}

struct Replay {
  SimResult result;
  int repeated = 0;
};

Replay replay(const std::string& scheduler, const std::string& options) {
  const Cluster cluster = test::uniform_cluster(8, 8, 2);
  Workload w = blocked_queue();
  bind_workload(cluster, w);
  Params params = Params::parse(options, "<test>");
  auto s = make_window_scheduler(scheduler, params);
  SimConfig config;
  config.periodic_interval = 5;
  Replay r;
  r.result = simulate(cluster, w, *s, config);
  for (const auto& pass : window::pass_stats(*s)) r.repeated += pass.repeated;
  return r;
}

class RepeatedPasses : public ::testing::TestWithParam<std::string> {};

// Skipping a pass whose inputs equal the last idle pass's changes no decision, and it
// does skip the waiting passes of this workload.
TEST_P(RepeatedPasses, SkippingChangesNoDecision) {
  const std::string extra = GetParam() == "aucsched2" ? ",starvation=reserve" : "";
  const Replay skip = replay(GetParam(), "idle_passes=skip" + extra);
  const Replay solve = replay(GetParam(), "idle_passes=solve" + extra);
  EXPECT_GT(skip.repeated, 0);
  EXPECT_EQ(solve.repeated, 0);
  ASSERT_EQ(skip.result.records.size(), solve.result.records.size());
  for (std::size_t j = 0; j < skip.result.records.size(); ++j) {
    EXPECT_EQ(skip.result.records[j].start, solve.result.records[j].start) << "job " << j;
    EXPECT_EQ(skip.result.records[j].alloc, solve.result.records[j].alloc) << "job " << j;
  }
  EXPECT_EQ(skip.result.passes, solve.result.passes);
}

INSTANTIATE_TEST_SUITE_P(Models, RepeatedPasses,
                         ::testing::Values("ipsched", "aucsched1", "aucsched2", "aucsched3"));

}  // namespace
}  // namespace hs
