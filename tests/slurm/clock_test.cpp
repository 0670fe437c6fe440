// The Slurm model's two pass clocks. clock=controller: main passes of the background loop
// under batch_sched_delay, backfill cycles counted from the end of the previous cycle (and
// the controller's start), bf_resolution rounding on the wall clock. clock=grid (the
// default): the reproduction tables' timing, which must not move.
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
using testing::workload_of;

SimResult replay(const Cluster& c, const Workload& w, const SlurmConfig& config) {
  SlurmScheduler s(config);
  SimResult r = simulate(c, w, s, {});
  const CheckReport check = check_run(c, w, r);
  EXPECT_TRUE(check.ok()) << (check.violations.empty() ? "" : check.violations.front());
  EXPECT_EQ(r.stalled, 0);
  return r;
}

SlurmConfig controller_clock(Time controller_start = -60) {
  SlurmConfig c;
  c.clock = ClockMode::Controller;
  c.controller_start = controller_start;
  return c;
}

TEST(SlurmClock, AnEndWaitsForBatchSchedDelayAfterTheLastBackgroundPass) {
  // A starts at 0; B's pass at 8 finds the core busy; A ends at 10 and asks for a pass,
  // which the background loop runs at 8 + 3 = 11 (slurmctld's job_sched_cnt).
  const Cluster c = make_cluster(1, 1);
  const Workload w = workload_of(c, {{.ntasks = 1, .limit = 60, .run = 10},
                                     {.ntasks = 1, .limit = 60, .run = 10, .submit = 8}});
  const SimResult r = replay(c, w, controller_clock());
  EXPECT_EQ(r.records[0].start, 0);
  EXPECT_EQ(r.records[1].start, 11);
}

TEST(SlurmClock, SubmissionsRightAfterTheControllerStartWait) {
  // slurmctld's loop counts batch_sched_delay from its own start.
  const Cluster c = make_cluster(1, 1);
  const Workload w = workload_of(c, {{.ntasks = 1, .limit = 60, .run = 10}});
  EXPECT_EQ(replay(c, w, controller_clock(-1)).records[0].start, 2);
  EXPECT_EQ(replay(c, w, controller_clock(-5)).records[0].start, 0);
}

TEST(SlurmClock, TheStartupPassDelaysTheFirstSubmission) {
  // Controller started at -5 and ran a main pass at -1 (its nodes registered): the first
  // submission's pass waits for batch_sched_delay after it, until 2.
  const Cluster c = make_cluster(1, 1);
  const Workload w = workload_of(c, {{.ntasks = 1, .limit = 60, .run = 10}});
  SlurmConfig config = controller_clock(-5);
  config.startup_pass = -1;
  EXPECT_EQ(replay(c, w, config).records[0].start, 2);
  Params grid = Params::parse("startup_pass=-1", "<test>");
  EXPECT_THROW(slurm_config_from(grid), InputError);
}

TEST(SlurmClock, AFullTickWithNothingPendingStillCountsAsAPass) {
  // Ticks at 0, 60, ...: A's end at 10 makes the tick at 60 a full pass with an empty
  // queue; B (submitted at 62) waits for batch_sched_delay after it, until 63 (main
  // passes only: a backfill cycle would start B at 62).
  const Cluster c = make_cluster(1, 1);
  const Workload w = workload_of(c, {{.ntasks = 1, .limit = 60, .run = 10},
                                     {.ntasks = 1, .limit = 60, .run = 10, .submit = 62}});
  SlurmConfig main_only = controller_clock();
  main_only.backfill_enabled = false;
  EXPECT_EQ(replay(c, w, main_only).records[1].start, 63);
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
  EXPECT_EQ(replay(c, w, controller_clock()).records[2].start, 70);
}

TEST(SlurmClock, BackfillCyclesCountFromTheControllerStart) {
  // Controller started at -5: cycles at 25 and then not before 55, so J3 (arriving at 40)
  // waits until 55.
  const Cluster c = make_cluster(2, 1);
  const Workload w = workload_of(c, blocked_partition(40, 60));
  EXPECT_EQ(replay(c, w, controller_clock(-5)).records[2].start, 55);
}

TEST(SlurmClock, ReservationsAreRoundedOnTheWallClock) {
  // J2's reservation starts at J1's limit end, 200, rounded down to bf_resolution (60) on
  // the wall clock. J3 (limit 120, tested at 70) ends at 190: it starts now when the
  // reservation begins at 200 (t = 0 is 40 s past a minute) but not when it begins at 180.
  const Cluster c = make_cluster(2, 1);
  const Workload w = workload_of(c, blocked_partition(70, 120));
  const SlurmConfig on_minute = controller_clock();
  SlurmConfig past_minute = controller_clock();
  past_minute.backfill.epoch = 1700000000 + 40 - 1700000000 % 60;
  EXPECT_GT(replay(c, w, on_minute).records[2].start, 70);
  EXPECT_EQ(replay(c, w, past_minute).records[2].start, 70);
}

TEST(SlurmClock, TheDefaultGridClockKeepsTheReproductionSchedule) {
  // clock=grid, the default (and the clock of docs/reproduction.md): J1's end at 10 runs a
  // main pass at once (J2 at 10, not 11); in the blocked partition J3 (arriving at 70)
  // waits for the bf_interval grid's tick at 90, J2 starts at J1's end, 200.
  Params defaults;
  const SlurmConfig grid = slurm_config_from(defaults);
  ASSERT_EQ(grid.clock, ClockMode::Grid);
  const Cluster one = make_cluster(1, 1);
  const Workload ended = workload_of(one, {{.ntasks = 1, .limit = 60, .run = 10},
                                           {.ntasks = 1, .limit = 60, .run = 10, .submit = 8}});
  EXPECT_EQ(replay(one, ended, grid).records[1].start, 10);
  const Cluster two = make_cluster(2, 1);
  const Workload blocked = workload_of(two, blocked_partition(70, 60));
  const SimResult r = replay(two, blocked, grid);
  std::vector<Time> starts;
  for (const JobRecord& j : r.records) starts.push_back(j.start);
  EXPECT_EQ(starts, (std::vector<Time>{0, 200, 90}));
}

TEST(SlurmClock, ControllerOptionsNeedTheControllerClock) {
  Params real = Params::parse("clock=controller,controller_start=-3,wall_clock=1700000000",
                              "<test>");
  const SlurmConfig c = slurm_config_from(real);
  EXPECT_EQ(c.clock, ClockMode::Controller);
  EXPECT_EQ(c.controller_start, -3);
  EXPECT_EQ(c.backfill.epoch, 1700000000);
  Params grid = Params::parse("controller_start=-3", "<test>");
  EXPECT_THROW(slurm_config_from(grid), InputError);
  Params grid_wall = Params::parse("clock=grid,wall_clock=1700000000", "<test>");
  EXPECT_THROW(slurm_config_from(grid_wall), InputError);
}

}  // namespace
}  // namespace hs::slurm
