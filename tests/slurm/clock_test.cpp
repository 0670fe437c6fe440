// The controller's clock in the Slurm model: main passes of the background loop under
// batch_sched_delay, backfill cycles counted from the end of the previous cycle (and the
// controller's start), bf_resolution rounding on the wall clock.
#include <gtest/gtest.h>

#include "policy/slurm/slurm_scheduler.hpp"
#include "sim/bind.hpp"
#include "sim/invariant_checker.hpp"
#include "sim/simulator.hpp"
#include "slurm_test_util.hpp"

namespace hs::slurm {
namespace {

using testing::make_cluster;
using testing::make_job;
using testing::Req;

Workload workload_of(const Cluster& c, const std::vector<Req>& reqs) {
  Workload w;
  w.name = "clock";
  for (std::size_t i = 0; i < reqs.size(); ++i)
    w.jobs.push_back(make_job(reqs[i], static_cast<std::int64_t>(i + 1)));
  EXPECT_TRUE(bind_workload(c, w).rejected.empty());
  return w;
}

SimResult replay(const Cluster& c, const Workload& w, const SlurmConfig& config) {
  SlurmScheduler s(config);
  SimResult r = simulate(c, w, s, {});
  const CheckReport check = check_run(c, w, r);
  EXPECT_TRUE(check.ok()) << (check.violations.empty() ? "" : check.violations.front());
  EXPECT_EQ(r.stalled, 0);
  return r;
}

SlurmConfig config_started_at(Time controller_start) {
  SlurmConfig c;
  c.controller_start = controller_start;
  return c;
}

TEST(SlurmClock, AnEndWaitsForBatchSchedDelayAfterTheLastBackgroundPass) {
  // A starts at 0; B's pass at 8 finds the core busy; A ends at 10 and asks for a pass,
  // which the background loop runs at 8 + 3 = 11 (slurmctld's job_sched_cnt).
  const Cluster c = make_cluster(1, 1);
  const Workload w = workload_of(c, {{.ntasks = 1, .limit = 60, .run = 10},
                                     {.ntasks = 1, .limit = 60, .run = 10, .submit = 8}});
  const SimResult r = replay(c, w, {});
  EXPECT_EQ(r.records[0].start, 0);
  EXPECT_EQ(r.records[1].start, 11);
}

TEST(SlurmClock, SubmissionsRightAfterTheControllerStartWait) {
  // slurmctld's loop counts batch_sched_delay from its own start.
  const Cluster c = make_cluster(1, 1);
  const Workload w = workload_of(c, {{.ntasks = 1, .limit = 60, .run = 10}});
  EXPECT_EQ(replay(c, w, config_started_at(-1)).records[0].start, 2);
  EXPECT_EQ(replay(c, w, config_started_at(-5)).records[0].start, 0);
}

// n1, n2 with one core each: J1 holds n1 until 200, J2 (both nodes) blocks the
// partition's main pass, so J3 (one node) can only be started by backfill.
std::vector<Req> blocked_partition(Time j3_submit, Time j3_limit) {
  return {{.ntasks = 1, .limit = 200, .run = 200},
          {.ntasks = 2, .limit = 100, .run = 100, .submit = 1},
          {.ntasks = 1, .limit = j3_limit, .run = 30, .submit = j3_submit}};
}

TEST(SlurmClock, BackfillRunsAtTheFirstChangeAfterAQuietInterval) {
  // Cycles at 0 and 30; nothing changes until J3 arrives at 70: the agent, polling every
  // second once bf_interval has passed, runs at 70 (no fixed 30 s grid).
  const Cluster c = make_cluster(2, 1);
  const Workload w = workload_of(c, blocked_partition(70, 60));
  EXPECT_EQ(replay(c, w, {}).records[2].start, 70);
}

TEST(SlurmClock, BackfillCyclesCountFromTheControllerStart) {
  // Controller started at -5: cycles at 25 and then not before 55, so J3 (arriving at 40)
  // waits until 55.
  const Cluster c = make_cluster(2, 1);
  const Workload w = workload_of(c, blocked_partition(40, 60));
  EXPECT_EQ(replay(c, w, config_started_at(-5)).records[2].start, 55);
}

TEST(SlurmClock, ReservationsAreRoundedOnTheWallClock) {
  // J2's reservation starts at J1's limit end, 200, rounded down to bf_resolution (60) on
  // the wall clock. J3 (limit 120, tested at 70) ends at 190: it starts now when the
  // reservation begins at 200 (t = 0 is 40 s past a minute) but not when it begins at 180.
  const Cluster c = make_cluster(2, 1);
  const Workload w = workload_of(c, blocked_partition(70, 120));
  SlurmConfig on_minute;
  SlurmConfig past_minute;
  past_minute.backfill.epoch = 1700000000 + 40 - 1700000000 % 60;
  EXPECT_GT(replay(c, w, on_minute).records[2].start, 70);
  EXPECT_EQ(replay(c, w, past_minute).records[2].start, 70);
}

}  // namespace
}  // namespace hs::slurm
