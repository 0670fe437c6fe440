#include <gtest/gtest.h>

#include "policy/slurm/priority.hpp"
#include "policy/window/window_scheduler.hpp"
#include "window_test_support.hpp"

namespace hs {
namespace {

using test::JobSpec;

// A queue that cannot start until the long first job ends: the passes in between see
// exactly the same window and free resources. With `partial`, the long job leaves two
// nodes free and the waiting jobs' time limits differ, so under starvation=reserve the
// window's bids start to overlap the top job's reservation one by one as time passes.
Workload blocked_queue(Time blocker_run, bool partial) {
  std::vector<JobSpec> specs;
  specs.push_back(JobSpec{.ntasks = partial ? 48 : 64, .submit = 0, .run = blocker_run});
  if (partial) specs.push_back(JobSpec{.ntasks = 64, .submit = 1, .run = 50});
  for (int i = 0; i < 10; ++i)
    specs.push_back(JobSpec{.ntasks = partial ? 24 : 4 + 6 * (i % 4),
                            .gpus = i % 3 == 0 ? 1 : 0, .submit = 3 + 7 * i,
                            .run = 60 + 25 * (i % 5), .limit = partial ? 900 * (i + 1) : 0});
  return test::make_workload(specs);
}

struct Replay {
  SimResult result;
  int solved = 0;  // passes that reached the solver
};

Replay replay(const std::string& scheduler, const std::string& options, Time blocker_run,
              bool partial) {
  const Cluster cluster = test::uniform_cluster(8, 8, 2);
  Workload w = blocked_queue(blocker_run, partial);
  bind_workload(cluster, w);
  Params params = Params::parse(options, "<test>");
  auto s = make_window_scheduler(scheduler, params);
  Replay r;
  r.result = simulate(cluster, w, *s, SimConfig{});
  for (const auto& pass : window::pass_stats(*s)) r.solved += !pass.repeated;
  return r;
}

void expect_same_decisions(const Replay& a, const Replay& b) {
  ASSERT_EQ(a.result.records.size(), b.result.records.size());
  for (std::size_t j = 0; j < a.result.records.size(); ++j) {
    EXPECT_EQ(a.result.records[j].status, b.result.records[j].status) << "job " << j;
    EXPECT_EQ(a.result.records[j].start, b.result.records[j].start) << "job " << j;
    EXPECT_EQ(a.result.records[j].alloc, b.result.records[j].alloc) << "job " << j;
  }
}

class RepeatedPasses : public ::testing::TestWithParam<std::string> {
 protected:
  std::string extra() const {
    return GetParam() == "aucsched2" ? ",starvation=reserve" : ",starvation=none";
  }
};

// Skipping passes that would repeat the last idle pass changes no decision.
TEST_P(RepeatedPasses, SkippingChangesNoDecision) {
  const Replay skip = replay(GetParam(), "idle_passes=skip" + extra(), 400, false);
  const Replay solve = replay(GetParam(), "idle_passes=solve" + extra(), 400, false);
  expect_same_decisions(skip, solve);
  EXPECT_LT(skip.solved, solve.solved);
}

// While a job holds the machine for 20,000 s the waiting queue costs a handful of passes,
// not one per 5 s interval, and the replay is the same.
TEST_P(RepeatedPasses, LongBlockingJobCostsFewPasses) {
  const Replay skip = replay(GetParam(), "idle_passes=skip" + extra(), 20000, false);
  const Replay solve = replay(GetParam(), "idle_passes=solve" + extra(), 20000, false);
  expect_same_decisions(skip, solve);
  EXPECT_GT(solve.result.passes, 3900);
  EXPECT_LT(skip.result.passes, 60);
}

// Under starvation=reserve the window's bids start to overlap the reservation as time
// passes (the pass key changes without an event); the replay is still the same.
TEST_P(RepeatedPasses, WithReservationTheReplayIsTheSame) {
  const std::string opts = ",starvation=reserve";
  const Replay skip = replay(GetParam(), "idle_passes=skip" + opts, 9000, true);
  const Replay solve = replay(GetParam(), "idle_passes=solve" + opts, 9000, true);
  expect_same_decisions(skip, solve);
  EXPECT_LT(skip.result.passes, solve.result.passes / 10);
}

// With starvation_wait the reservation appears when the top job's wait reaches it, again
// without an event; the replay is still the same.
TEST_P(RepeatedPasses, WithDelayedReservationTheReplayIsTheSame) {
  const std::string opts = ",starvation=reserve,starvation_wait=3000";
  const Replay skip = replay(GetParam(), "idle_passes=skip" + opts, 9000, true);
  const Replay solve = replay(GetParam(), "idle_passes=solve" + opts, 9000, true);
  expect_same_decisions(skip, solve);
  EXPECT_LT(skip.result.passes, solve.result.passes / 10);
}

// Multifactor priorities age with no event at all. With a window of one job, job Y (which
// fits the two free nodes) overtakes the older job X (which does not) once X's age factor
// saturates and Y's larger size factor decides; Y must then start at the next pass
// although nothing was submitted or ended.
TEST(RepeatedPassesMultifactor, AgingPrioritiesKeepThePassesGoing) {
  const Cluster cluster = test::uniform_cluster(8, 8, 2);
  Workload w = test::make_workload(
      {JobSpec{.ntasks = 48, .nodes = 6, .submit = 0, .run = 2'000'000},
       JobSpec{.ntasks = 3, .nodes = 3, .submit = 0, .run = 100},
       JobSpec{.ntasks = 16, .nodes = 2, .submit = 100'000, .run = 100}});
  bind_workload(cluster, w);
  const slurm::MultifactorConfig mf;
  auto y_ahead = [&](Time t) {
    return slurm::multifactor_priority(cluster, w.jobs[2], t, mf) >
           slurm::multifactor_priority(cluster, w.jobs[1], t, mf);
  };
  ASSERT_FALSE(y_ahead(100'000));
  ASSERT_TRUE(y_ahead(1'000'000));
  Time overtake = 100'000;
  while (!y_ahead(overtake)) ++overtake;
  Params params = Params::parse("priority=multifactor,window=1,sched_interval=600", "<test>");
  auto s = make_window_scheduler("aucsched2", params);
  const SimResult r = simulate(cluster, w, *s, SimConfig{});
  EXPECT_GE(r.records[2].start, overtake);
  EXPECT_LT(r.records[2].start, overtake + 600);
  EXPECT_EQ(r.records[1].start, 2'000'000);
}

INSTANTIATE_TEST_SUITE_P(Models, RepeatedPasses,
                         ::testing::Values("ipsched", "aucsched1", "aucsched2", "aucsched3"));

}  // namespace
}  // namespace hs
