// The Slurm model's two pass clocks. clock=controller: main passes of the background loop
// under batch_sched_delay, backfill cycles counted from the end of the previous cycle (and
// the controller's start), bf_resolution rounding on the wall clock. clock=grid (the
// default): the reproduction tables' timing, which must not move.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

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

TEST(SlurmClock, ABackfillStartSelectsWithTheWeightsAsConfigured) {
  // D holds the GPUs of n0-n3 until 1000, F those of n4-n5 until 300. B (a GPU on each of
  // 4 nodes) cannot start; backfill's will-run test of B marks n6-n7 now and n4-n7 once F
  // is released (gpu_bias.hpp), so C (-n 7, cores only) is tested with n4-n7 weighted
  // first and fits on n4. _start_job then selects again with the weights as configured:
  // best fit takes n0, the first node with exactly 7 free cores.
  const Cluster c = make_cluster(8, 8, 2);
  const Workload w = workload_of(
      c, {{.ntasks = 4, .nodes_min = 4, .nodes_max = 4, .gpus = 2, .limit = 1000, .run = 1000},
          {.ntasks = 2, .nodes_min = 2, .nodes_max = 2, .gpus = 2, .limit = 300, .run = 300},
          {.ntasks = 4, .nodes_min = 4, .nodes_max = 4, .gpus = 1, .limit = 100, .run = 100, .submit = 5},
          {.ntasks = 7, .limit = 30, .run = 30, .submit = 6}});
  const SimResult r = replay(c, w, controller_clock());
  ASSERT_EQ(r.records[0].alloc.nodes(), (std::vector<NodeIndex>{0, 1, 2, 3}));
  ASSERT_EQ(r.records[1].alloc.nodes(), (std::vector<NodeIndex>{4, 5}));
  EXPECT_GE(r.records[2].start, 300);
  EXPECT_LT(r.records[3].start, 100);  // by backfill: the main pass stops at B
  EXPECT_EQ(r.records[3].alloc.nodes(), (std::vector<NodeIndex>{0}));
}

TEST(SlurmClock, ABackfillStartKeepsTheMarksOfTheNodesItsPlanHolds) {
  // n0 and n1 lend their GPUs to J0 and J1; C0 and C1 fill n2 and n3's cores until 100.
  // Backfill plans G (a GPU on each of 2 nodes) on n2-n3 after them, and its tests mark
  // n2-n3 (gpu_bias.hpp). S starts on n0 now; _start_job excludes the nodes backfill
  // holds for G, so the weights of n2-n3 stay marked and P (4 cores on each of 2 nodes)
  // is planned on n2-n3. Weights reset everywhere would plan it on n1-n2.
  const Cluster c = make_cluster(4, 8, 2);
  const Workload w = workload_of(
      c, {{.ntasks = 1, .nodes_min = 1, .nodes_max = 1, .gpus = 2, .limit = 1000, .run = 1000},
          {.ntasks = 1, .nodes_min = 1, .nodes_max = 1, .gpus = 2, .limit = 1000, .run = 1000},
          {.ntasks = 8, .nodes_min = 1, .nodes_max = 1, .limit = 100, .run = 100},
          {.ntasks = 8, .nodes_min = 1, .nodes_max = 1, .limit = 100, .run = 100},
          {.ntasks = 2, .nodes_min = 2, .nodes_max = 2, .gpus = 1, .limit = 60, .run = 60, .submit = 1},
          {.ntasks = 4, .nodes_min = 1, .nodes_max = 1, .limit = 200, .run = 200, .submit = 2},
          {.ntasks = 8, .per_node = 4, .limit = 60, .run = 60, .submit = 3}});
  SlurmScheduler s(controller_clock());
  std::vector<NodeIndex> g_plan, p_plan;
  s.observe_plans([&](Time, std::span<const PlannedStart> plan) {
    for (const PlannedStart& p : plan) {
      if (p.job == 4 && g_plan.empty()) g_plan = p.nodes;
      if (p.job == 6 && p_plan.empty()) p_plan = p.nodes;
    }
  });
  const SimResult r = simulate(c, w, s, {});
  ASSERT_TRUE(check_run(c, w, r).ok());
  ASSERT_EQ(r.records[2].alloc.nodes(), (std::vector<NodeIndex>{2}));
  ASSERT_EQ(r.records[3].alloc.nodes(), (std::vector<NodeIndex>{3}));
  ASSERT_EQ(g_plan, (std::vector<NodeIndex>{2, 3}));
  ASSERT_EQ(r.records[5].alloc.nodes(), (std::vector<NodeIndex>{0}));
  ASSERT_LT(r.records[5].start, 100);  // by backfill: the main pass stops at G
  EXPECT_EQ(p_plan, (std::vector<NodeIndex>{2, 3}));
}

// A run under the controller clock on 4 nodes of (8 cores, 2 GPUs) with the partitions
// all = n0-n3 (the default) and sub = n2-n3: the jobs of `reqs` (those at `in_sub` in sub),
// and the nodes of the first backfill plan for job `job` (an index) made at or after `from`.
struct PlanOfRun {
  SimResult run;
  std::vector<NodeIndex> plan;
  Time planned_at = -1;
};

PlanOfRun first_plan_on_all_and_sub(const std::vector<Req>& reqs, std::initializer_list<int> in_sub,
                                    std::size_t job, Time from) {
  Cluster c = make_cluster(4, 8, 2);
  c.partitions.push_back({"all", {0, 1, 2, 3}, kNoTime, kNoTime, 1, true});
  c.partitions.push_back({"sub", {2, 3}, kNoTime, kNoTime, 1, false});
  Workload w;
  for (std::size_t i = 0; i < reqs.size(); ++i)
    w.jobs.push_back(make_job(reqs[i], static_cast<std::int64_t>(i + 1)));
  for (int j : in_sub) w.jobs[j].partition = "sub";
  EXPECT_TRUE(bind_workload(c, w).rejected.empty());
  SlurmScheduler s(controller_clock());
  PlanOfRun out;
  s.observe_plans([&](Time now, std::span<const PlannedStart> plan) {
    for (const PlannedStart& p : plan)
      if (static_cast<std::size_t>(p.job) == job && now >= from && out.plan.empty())
        out.plan = p.nodes, out.planned_at = now;
  });
  out.run = simulate(c, w, s, {});
  EXPECT_TRUE(check_run(c, w, out.run).ok());
  return out;
}

TEST(SlurmClock, AJobOfAPartitionWithNoNodesLeftIsNotTestedByTheMainPass) {
  // Partition all = n0-n3, sub = n2-n3. X holds a core of n0 until 1000, so A (every
  // core) blocks all, and with it every node of sub: schedule() then fails G (sub, 2 GPUs)
  // before any node selection, so no weight is reset or marked. Backfill's first plan for
  // C (a whole node, too long to end before A) sees the weights A's main-pass test reset;
  // cons_common's will-run takes its nodes from the usage now: the first whole free node,
  // n1. Had the main pass tested G, it would have marked n2-n3 and C's plan would go to n2
  // (suite run partitions-v, session 24).
  const std::vector<Req> reqs = {
      {.ntasks = 1, .limit = 1000, .run = 1000},
      {.ntasks = 32, .limit = 100, .run = 100, .submit = 1},
      {.ntasks = 8, .nodes_min = 1, .nodes_max = 1, .limit = 2000, .run = 60, .submit = 2},
      {.ntasks = 1, .nodes_min = 1, .nodes_max = 1, .gpus = 2, .limit = 60, .run = 60, .submit = 3}};
  const PlanOfRun r = first_plan_on_all_and_sub(reqs, {3}, 2, 0);
  ASSERT_GT(r.planned_at, 3);  // after G's submission and the main pass it asked for
  EXPECT_EQ(r.plan, (std::vector<NodeIndex>{1}));
}

TEST(SlurmClock, AMainPassTestMarksOnlyTheNodesLeftToIt) {
  // Partition all = n0-n3, sub = n2-n3. Y fills n0-n1's cores, Z takes n2's GPUs, W n3's
  // cores. S (sub, both nodes) fails first in every main pass and takes n2-n3 from the rest
  // of the pass; G (all, one GPU) is then tested on n0-n1 only (_pick_best_nodes resets the
  // weights of its whole partition, but selects on the nodes still available), so n3, with
  // its free GPUs, is not marked. Backfill then plans C (sub, a whole node) where the two
  // sub nodes are free together: at equal weight the first, n2. Marking n3 too would send
  // C's plan to n3 (suite run partitions-v, seed 108, session 26).
  const std::vector<Req> reqs = {
      {.ntasks = 16, .nodes_min = 2, .nodes_max = 2, .limit = 2000, .run = 2000},  // Y
      {.ntasks = 1, .nodes_min = 1, .nodes_max = 1, .gpus = 2, .limit = 1000, .run = 1000},  // Z
      {.ntasks = 8, .nodes_min = 1, .nodes_max = 1, .limit = 1000, .run = 1000},  // W
      {.ntasks = 16, .nodes_min = 2, .nodes_max = 2, .limit = 100, .run = 100, .submit = 1},  // S
      {.ntasks = 8, .nodes_min = 1, .nodes_max = 1, .limit = 100, .run = 100, .submit = 2},  // C
      {.ntasks = 1, .nodes_min = 1, .nodes_max = 1, .gpus = 1, .limit = 60, .run = 60, .submit = 3}};  // G
  const PlanOfRun r = first_plan_on_all_and_sub(reqs, {1, 2, 3, 4}, 4, 10);
  ASSERT_EQ(r.run.records[0].alloc.nodes(), (std::vector<NodeIndex>{0, 1}));  // Y
  ASSERT_EQ(r.run.records[1].alloc.nodes(), (std::vector<NodeIndex>{2}));     // Z
  ASSERT_EQ(r.run.records[2].alloc.nodes(), (std::vector<NodeIndex>{3}));     // W
  ASSERT_GE(r.planned_at, 10);
  EXPECT_EQ(r.plan, (std::vector<NodeIndex>{2}));
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
  Params grid_kill_wait = Params::parse("kill_wait=10", "<test>");  // no job outlives its limit
  EXPECT_THROW(slurm_config_from(grid_kill_wait), InputError);
}

TEST(SlurmSubsecond, TheLoopsTickFallsWhereItsPeriodPutsIt) {
  SubsecondClock c;
  c.loop_period_us = 1250000;  // ticks at 0, 1.25, 2.5, 3.75, 5.0, ...
  const std::vector<std::optional<std::int32_t>> expected = {0, 250, 500, 750, std::nullopt, 0};
  for (Time s = 0; s < 6; ++s) EXPECT_EQ(c.tick_ms(s), expected[s]) << "second " << s;
  c.loop_period_us = 1005000;  // a tick at 0.5 s: the phase crosses a second after 100 ticks
  c.loop_tick_us = 500000;
  EXPECT_EQ(c.tick_ms(0), 500);
  EXPECT_EQ(c.tick_ms(99), 995);
  EXPECT_EQ(c.tick_ms(100), std::nullopt);
  EXPECT_EQ(c.tick_ms(101), 0);    // tick 100: 0.5 + 100.5 s
  EXPECT_EQ(c.tick_ms(-1), 495);   // the tick before 0.5 s was at -0.505 s
  EXPECT_EQ(c.tick_ms(1000000000000LL).has_value(), true);  // no overflow far out
  EXPECT_TRUE(SubsecondClock{}.whole_seconds());
}

TEST(SlurmSubsecond, ObservedTicksAreFollowedAndSpreadEvenlyBetween) {
  SubsecondClock c;
  c.loop_period_us = 1005000;
  c.observed_ticks_us = {500000, 3530000, 7000000};  // 3 ticks of 1.01 s, then 3 of 1.156 s
  EXPECT_EQ(c.tick_ms(0), 500);
  EXPECT_EQ(c.tick_ms(1), 510);
  EXPECT_EQ(c.tick_ms(2), 520);
  EXPECT_EQ(c.tick_ms(3), 530);
  EXPECT_EQ(c.tick_ms(4), 686);   // 3.53 + 1.156
  EXPECT_EQ(c.tick_ms(5), 843);   // 3.53 + 2 x 1.15667
  EXPECT_EQ(c.tick_ms(6), std::nullopt);  // 5.842 + 1.156 = 7.0 s
  EXPECT_EQ(c.tick_ms(7), 0);
  EXPECT_EQ(c.tick_ms(8), 5);     // after the last: every loop_period_us
  EXPECT_EQ(c.tick_ms(-1), 495);  // before the first: likewise
  EXPECT_FALSE(c.whole_seconds());
}

// One core; main passes only, on loop ticks 200 ms into every second. J1 (run 10) starts
// at 0.2 s; J2, submitted at 5, waits for it.
SlurmConfig ticks_at_200ms(std::int32_t end_latency_ms) {
  SlurmConfig c = controller_clock();
  c.backfill_enabled = false;
  c.subsecond.loop_tick_us = 200000;
  c.subsecond.end_latency_ms = end_latency_ms;
  return c;
}

TEST(SlurmSubsecond, APassBeforeAJobsSubsecondEndDoesNotSeeItsNodes) {
  const Cluster c = make_cluster(1, 1);
  const Workload w = workload_of(c, {{.ntasks = 1, .limit = 60, .run = 10},
                                     {.ntasks = 1, .limit = 60, .run = 10, .submit = 5}});
  // No latency: J1 ends at 10.2, exactly at the tick, which sees it; J2 starts at 10.
  const SimResult at_tick = replay(c, w, ticks_at_200ms(0));
  EXPECT_EQ(at_tick.records[0].end, 10);
  EXPECT_EQ(at_tick.records[1].start, 10);
  EXPECT_EQ(at_tick.records[1].start_ms, 200);
  // 100 ms latency: J1 ends at 10.3, after the tick at 10.2 (which had nothing to do); its
  // end asks for a pass, which the next tick runs: J2 starts at 11.2.
  const SimResult late = replay(c, w, ticks_at_200ms(100));
  EXPECT_EQ(late.records[0].end, 10);
  EXPECT_EQ(late.records[1].start, 11);
  // J3, submitted at 10.0, makes the tick at 10.2 run a pass, before J1's end (n1 still
  // busy): batch_sched_delay then holds J2 until 13.2.
  Workload three = workload_of(c, {{.ntasks = 1, .limit = 60, .run = 10},
                                   {.ntasks = 1, .limit = 60, .run = 10, .submit = 5},
                                   {.ntasks = 1, .limit = 60, .run = 10, .submit = 10}});
  EXPECT_EQ(replay(c, three, ticks_at_200ms(100)).records[1].start, 13);
}

TEST(SlurmSubsecond, AnEndLatencyCrossingASecondEndsTheJobInTheNext) {
  // Ticks 950 ms into each second: J1 starts at 0.95 s and, with 100 ms of end latency,
  // ends at 11.05 s, in second 11 (the invariant checker, in replay(), agrees).
  const Cluster c = make_cluster(1, 1);
  const Workload w = workload_of(c, {{.ntasks = 1, .limit = 60, .run = 10}});
  SlurmConfig config = ticks_at_200ms(100);
  config.subsecond.loop_tick_us = 950000;
  const SimResult r = replay(c, w, config);
  EXPECT_EQ(r.records[0].start, 0);
  EXPECT_EQ(r.records[0].end, 11);
}

TEST(SlurmSubsecond, BackfillAndMainPassRunInTheirSubsecondOrder) {
  // The blocked partition (J1 on n1 until 200, J2 needs both nodes), J3 arriving at 70:
  // only backfill can start J3. With backfill cycles 100 ms into their second, J3 starts
  // at 70.1 s, as the backfill pass's StartDecision says.
  const Cluster c = make_cluster(2, 1);
  const Workload w = workload_of(c, blocked_partition(70, 60));
  SlurmConfig config = controller_clock();
  config.subsecond.backfill_ms = 100;
  config.subsecond.loop_tick_us = 600000;
  const SimResult r = replay(c, w, config);
  EXPECT_EQ(r.records[2].start, 70);
  EXPECT_EQ(r.records[2].start_ms, 100);
  // J1 (submitted at 0): the backfill cycle at 0.1 s runs before the main tick at 0.6 s.
  EXPECT_EQ(r.records[0].start_ms, 100);
}

TEST(SlurmSubsecond, ASubmissionAfterThePassOfItsSecondWaitsForTheNextTick) {
  // Ticks 200 ms into every second. Submitted at 5.1 s, J1 is in the queue of the pass at
  // 5.2 s; submitted at 5.3 s, it asks for a pass that the next tick, 6.2 s, runs.
  const Cluster c = make_cluster(1, 1);
  Workload w = workload_of(c, {{.ntasks = 1, .limit = 60, .run = 10, .submit = 5}});
  w.jobs[0].submit_ms = 100;
  EXPECT_EQ(replay(c, w, ticks_at_200ms(0)).records[0].start, 5);
  w.jobs[0].submit_ms = 300;
  EXPECT_EQ(replay(c, w, ticks_at_200ms(0)).records[0].start, 6);
  SlurmConfig grid;  // the grid clock has no sub-second timing
  EXPECT_EQ(replay(c, w, grid).records[0].start, 5);
}

TEST(SlurmSubsecond, APassJustAfterASubmissionDoesNotSeeIt) {
  // A CI run of the lab: a submission logged at 37.036 s, the loop's tick at 37.037 s ran
  // no pass; the job started at the next tick. A tick 7 ms after a submission saw it.
  const Cluster c = make_cluster(1, 1);
  Workload w = workload_of(c, {{.ntasks = 1, .limit = 60, .run = 10, .submit = 5}});
  SlurmConfig config = ticks_at_200ms(0);
  w.jobs[0].submit_ms = 199;
  EXPECT_EQ(replay(c, w, config).records[0].start, 6);
  w.jobs[0].submit_ms = 193;
  EXPECT_EQ(replay(c, w, config).records[0].start, 5);
  config.subsecond.submit_latency_ms = 0;
  w.jobs[0].submit_ms = 199;
  EXPECT_EQ(replay(c, w, config).records[0].start, 5);
}

TEST(SlurmSubsecond, ALoggedPassInASubmissionsMillisecondSawIt) {
  // Suite run partitions-v (session 24): job 2's submission and the loop's pass were both
  // logged at 0.044 s, and the pass started job 2: it had waited for the job lock the
  // submission's RPC held. A tick known only by its place (here every second at .199) 6 ms
  // after a submission misses it; a logged pass then (the ticks at 5.199 and 8.2) sees it.
  const Cluster c = make_cluster(1, 1);
  Workload w = workload_of(c, {{.ntasks = 1, .limit = 60, .run = 10, .submit = 5}});
  w.jobs[0].submit_ms = 199;
  SlurmConfig config = ticks_at_200ms(0);
  config.subsecond.loop_tick_us = 199000;
  EXPECT_EQ(replay(c, w, config).records[0].start, 6);
  config.subsecond.observed_ticks_us = {199000, 5199000, 8200000};
  const SimResult logged = replay(c, w, config);
  EXPECT_EQ(logged.records[0].start, 5);
  EXPECT_EQ(logged.records[0].start_ms, 199);
}

TEST(SlurmSubsecond, APassOutsideTheLoopIgnoresBatchSchedDelay) {
  // As in APassBeforeAJobsSubsecondEndDoesNotSeeItsNodes with J3: J1 ends at 10.3 s, and
  // the loop's pass at 10.2 s holds J2 until 13.2 s. An epilog completion's pass at 10.35 s
  // (schedule() called directly) starts J2 at once, and the loop's pass counts from 10.2.
  const Cluster c = make_cluster(1, 1);
  const Workload w = workload_of(c, {{.ntasks = 1, .limit = 60, .run = 10},
                                     {.ntasks = 1, .limit = 60, .run = 10, .submit = 5},
                                     {.ntasks = 1, .limit = 60, .run = 10, .submit = 10}});
  SlurmConfig config = ticks_at_200ms(100);
  config.subsecond.agent_passes_us = {10350000};
  const SimResult r = replay(c, w, config);
  EXPECT_EQ(r.records[1].start, 10);
  EXPECT_EQ(r.records[1].start_ms, 350);
  // J3 waits for J2's end (20.45 s): the next loop pass at or after it, 21.2 s.
  EXPECT_EQ(r.records[2].start, 21);
  SubsecondClock clock;
  clock.agent_passes_us = {-1500000, 10350000, 10900000};
  EXPECT_EQ(clock.agent_pass_ms(-2), 500);
  EXPECT_EQ(clock.agent_pass_ms(10), 350);  // the first of the second
  EXPECT_EQ(clock.agent_pass_ms(11), std::nullopt);
  EXPECT_EQ(clock.next_agent_pass_after(-2), 10);
  EXPECT_EQ(clock.next_agent_pass_after(10), std::nullopt);
  EXPECT_FALSE(clock.whole_seconds());
}

TEST(SlurmSubsecond, AJobsRecordedEndLatencyOverridesTheDefault) {
  // 100 ms by default: J1 ends at 10.3 s, after the tick at 10.2, so J2 waits for 11.2.
  // J1 recorded with 0 ms (a replayed real run) ends at the tick and J2 starts there.
  const Cluster c = make_cluster(1, 1);
  Workload w = workload_of(c, {{.ntasks = 1, .limit = 60, .run = 10},
                               {.ntasks = 1, .limit = 60, .run = 10, .submit = 5}});
  EXPECT_EQ(replay(c, w, ticks_at_200ms(100)).records[1].start, 11);
  w.jobs[0].end_latency_ms = 0;
  const SimResult own = replay(c, w, ticks_at_200ms(100));
  EXPECT_EQ(own.records[1].start, 10);
  EXPECT_EQ(own.records[1].start_ms, 200);
  SlurmConfig grid;  // the grid clock ignores it
  EXPECT_EQ(replay(c, w, grid).records[0].end, 10);
}

TEST(SlurmSubsecond, ANodeStaysCompletingUntilItsEpilogIsDone) {
  // J1 ends exactly at the tick of 10.2 s, which starts J2 at once. With a 5 ms epilog
  // the node is still COMPLETING at the tick, and the loop only hears of the end at
  // 10.205: J2 starts at the next tick, 11.2.
  const Cluster c = make_cluster(1, 1);
  const Workload w = workload_of(c, {{.ntasks = 1, .limit = 60, .run = 10},
                                     {.ntasks = 1, .limit = 60, .run = 10, .submit = 5}});
  EXPECT_EQ(replay(c, w, ticks_at_200ms(0)).records[1].start, 10);
  SlurmConfig config = ticks_at_200ms(0);
  config.subsecond.epilog_ms = 5;
  const SimResult r = replay(c, w, config);
  EXPECT_EQ(r.records[1].start, 11);
  EXPECT_EQ(r.records[1].start_ms, 200);
}

TEST(SlurmSubsecond, AJobsRecordedEpilogOverridesTheDefault) {
  // The ANodeStaysCompleting... case with the epilog recorded in the job instead of the
  // option: 5 ms for J1 keeps its node COMPLETING at the tick of 10.2 s; a message sent at
  // the end, taken in at once (latency 0), does not. J3's submission asks for that tick's
  // pass (J1's end asks only at its watchdog's poll).
  const Cluster c = make_cluster(1, 1);
  Workload w = workload_of(c, {{.ntasks = 1, .limit = 60, .run = 10},
                               {.ntasks = 1, .limit = 60, .run = 10, .submit = 5},
                               {.ntasks = 1, .limit = 60, .run = 10, .submit = 10}});
  w.jobs[0].epilog_ms = 5;  // then J1's end asks for a pass 3 s (batch_sched_delay) later
  EXPECT_EQ(replay(c, w, ticks_at_200ms(0)).records[1].start, 13);
  SlurmConfig eight = ticks_at_200ms(0);
  eight.subsecond.epilog_ms = 8;
  eight.subsecond.epilog_latency_ms = 0;
  w.jobs[0].epilog_ms = 0;
  w.jobs[0].epilog_by = Job::EpilogReport::Message;
  EXPECT_EQ(replay(c, w, eight).records[1].start, 10);
}

TEST(SlurmSubsecond, ALoopPassMissesAnEpilogSentInItsMillisecond) {
  // Suite runs: nodes sent a job's last epilog completion at 72.592 s (staggered-v) and
  // 88.873 s (staggered-i), and the loop's passes at 72.592 and 88.874 s did not take them
  // in (each asked for another pass 3 s later). J1 recorded with a 0 ms epilog message ends
  // at the tick of 10.2 s: the controller hears of it epilog_latency_ms (2) later, so J2 waits
  // for the pass its end asks for, batch_sched_delay later; with 0 it starts at once.
  // An agent pass (schedule() run by the epilog completion's own RPC) at that millisecond
  // has taken it in: J2 starts there. J3's submission asks for the tick's pass.
  const Cluster c = make_cluster(1, 1);
  Workload w = workload_of(c, {{.ntasks = 1, .limit = 60, .run = 10},
                               {.ntasks = 1, .limit = 60, .run = 10, .submit = 5},
                               {.ntasks = 1, .limit = 60, .run = 10, .submit = 10}});
  w.jobs[0].epilog_ms = 0;
  w.jobs[0].epilog_by = Job::EpilogReport::Message;
  SlurmConfig config = ticks_at_200ms(0);
  EXPECT_EQ(replay(c, w, config).records[1].start, 13);  // the next pass 3 s later
  config.subsecond.agent_passes_us = {10200000};
  const SimResult agent = replay(c, w, config);
  EXPECT_EQ(agent.records[1].start, 10);
  EXPECT_EQ(agent.records[1].start_ms, 200);
  config.subsecond.agent_passes_us.clear();
  config.subsecond.epilog_latency_ms = 0;
  EXPECT_EQ(replay(c, w, config).records[1].start, 10);
}

TEST(SlurmSubsecond, APassOutsideTheLoopMissesAnswersTakenInAfterIt) {
  // Suite run esp-het (session 25): a node's epilog-complete message ran a pass at
  // 261.131 s that did not use the nodes of a job whose last answers were sent 1-2 ms after
  // the message: the message's RPC holds the job lock from taking it in until its pass
  // ends, so those answers waited. Here J1 and J2 end at 10.200 on n0 and n1; J1's node
  // sends its message at once (taken in at 10.202, its RPC's pass at 10.202); J2's answer
  // is sent at 10.202 and taken in at 10.203: that pass starts J3 on n0 but not J4 on n1.
  // Had J2's node sent a message too (taken in at 10.204), the pass would have seen it.
  const Cluster c = make_cluster(2, 1);
  Workload w = workload_of(c, {{.ntasks = 1, .limit = 60, .run = 10},
                               {.ntasks = 1, .limit = 60, .run = 10},
                               {.ntasks = 1, .limit = 60, .run = 10, .submit = 5},
                               {.ntasks = 1, .limit = 60, .run = 10, .submit = 5}});
  w.jobs[0].epilog_ms = 0;
  w.jobs[0].epilog_by = Job::EpilogReport::Message;
  w.jobs[1].epilog_ms = 2;
  w.jobs[1].epilog_by = Job::EpilogReport::Answer;
  SlurmConfig config = ticks_at_200ms(0);
  config.subsecond.agent_passes_us = {10202000};
  const SimResult answered = replay(c, w, config);
  ASSERT_EQ(answered.records[0].end, 10);
  EXPECT_EQ(answered.records[2].start, 10);
  EXPECT_EQ(answered.records[2].start_ms, 202);
  EXPECT_GT(answered.records[3].start, 10);
  w.jobs[1].epilog_by = Job::EpilogReport::Message;
  EXPECT_EQ(replay(c, w, config).records[3].start, 10);
}

TEST(SlurmSubsecond, AJobsAnswersAreTakenInTogetherAndAMessageOnItsOwn) {
  // Fidelity runs staggered-v seed 402 and multifactor-v seed 206 (session 54): a pass 3 ms
  // (t = 227) and 10 ms (t = 284) after a node answered the terminate request did not have
  // that node while later nodes of the same job had not answered yet: the agent thread
  // takes a job's answers in together. Here J1 holds n0 and n1 until 10.200; a pass at
  // 10.300 starts J2 on a free node if there is one. n0 answers at once; when n1 answers
  // 500 ms later, n0 is still COMPLETING at 10.300 and J2 waits; when n1 sends its own
  // epilog-complete message instead, n0's answer is in and J2 starts on n0.
  const Cluster c = make_cluster(2, 1);
  Workload w = workload_of(c, {{.ntasks = 2, .limit = 60, .run = 10},
                               {.ntasks = 1, .limit = 60, .run = 10, .submit = 5}});
  w.jobs[0].epilog_ms = 500;
  w.jobs[0].epilog_by = Job::EpilogReport::Answer;
  SlurmConfig config = ticks_at_200ms(0);
  config.subsecond.agent_passes_us = {10300000};
  w.jobs[0].node_epilogs = {{c.nodes[0].name, 0, Job::EpilogReport::Answer},
                            {c.nodes[1].name, 500, Job::EpilogReport::Answer}};
  const SimResult grouped = replay(c, w, config);
  EXPECT_FALSE(grouped.records[1].start == 10 && grouped.records[1].start_ms == 300);
  w.jobs[0].node_epilogs[1].by = Job::EpilogReport::Message;
  const SimResult own_message = replay(c, w, config);
  EXPECT_EQ(own_message.records[1].start, 10);
  EXPECT_EQ(own_message.records[1].start_ms, 300);
  EXPECT_EQ(own_message.records[1].alloc.nodes(), (std::vector<NodeIndex>{0}));
}

TEST(SlurmSubsecond, AnAnsweredEndAsksTheLoopAtTheWatchdogsPoll) {
  // Suite run staggered-iii (session 23): job 58 ended at 267.006 s, its last node answered
  // at 267.013 s, and the loop's tick at about 267.016 s ran no pass: the terminate
  // request's watchdog, polling 5 and then 10 ms after its start, asked for one at about
  // 267.022 s, and the pass ran at the next tick. Here J1 ends at 10.190 (ticks 200 ms into
  // each second) and its node answers 7 ms later: heard at 10.199 (2 ms latency), but the
  // watchdog (start 10.191, looks at 10.196 and 10.206) asks for a pass only after the
  // tick of 10.200, so J2 waits for 11.200. An answer 4 ms after the end is seen at the
  // first look and J2 starts at 10.200.
  const Cluster c = make_cluster(1, 1);
  Workload w = workload_of(c, {{.ntasks = 1, .limit = 60, .run = 9},
                               {.ntasks = 1, .limit = 60, .run = 10, .submit = 5}});
  const SlurmConfig config = ticks_at_200ms(990);
  w.jobs[0].epilog_ms = 7;
  const SimResult late = replay(c, w, config);
  ASSERT_EQ(late.records[0].end, 10);
  EXPECT_EQ(late.records[1].start, 11);
  w.jobs[0].epilog_ms = 4;
  const SimResult polled = replay(c, w, config);
  EXPECT_EQ(polled.records[1].start, 10);
  EXPECT_EQ(polled.records[1].start_ms, 200);
  EXPECT_EQ(SubsecondClock::watchdog_heard_ms(0), 6);
  EXPECT_EQ(SubsecondClock::watchdog_heard_ms(6), 6);
  EXPECT_EQ(SubsecondClock::watchdog_heard_ms(7), 16);
  EXPECT_EQ(SubsecondClock::watchdog_heard_ms(17), 36);
  EXPECT_EQ(SubsecondClock::watchdog_heard_ms(3000), 3276);  // 5..640 ms, then 1 s apart
}

TEST(SlurmSubsecond, AnAnswerIsTakenInAMillisecondAfterItsSend) {
  // Suite run staggered-ii (session 23): job 15 ended at 83.555 s, its last node answered
  // the terminate request at 83.564 s, and the loop's pass at 83.565 s (asked for by a
  // submission) placed job 17 on its nodes; an epilog-complete message needs 2 ms. Here J1
  // ends at 10.190 and its node answers 9 ms later: taken in at the tick of 10.200, where
  // J3's submission asks for a pass, so J2 starts there. Answered 10 ms later, or sent as a
  // message 9 ms later, it is missed and J2 waits for a later pass.
  const Cluster c = make_cluster(1, 1);
  Workload w = workload_of(c, {{.ntasks = 1, .limit = 60, .run = 9},
                               {.ntasks = 1, .limit = 60, .run = 10, .submit = 5},
                               {.ntasks = 1, .limit = 60, .run = 10, .submit = 10}});
  const SlurmConfig config = ticks_at_200ms(990);
  w.jobs[0].epilog_ms = 9;
  w.jobs[0].epilog_by = Job::EpilogReport::Answer;
  const SimResult answered = replay(c, w, config);
  ASSERT_EQ(answered.records[0].end, 10);
  EXPECT_EQ(answered.records[1].start, 10);
  EXPECT_EQ(answered.records[1].start_ms, 200);
  w.jobs[0].epilog_ms = 10;
  EXPECT_GT(replay(c, w, config).records[1].start, 10);
  w.jobs[0].epilog_ms = 9;
  w.jobs[0].epilog_by = Job::EpilogReport::Message;
  EXPECT_GT(replay(c, w, config).records[1].start, 10);
}

TEST(SlurmSubsecond, ARecordedAnswerIsNotTakenForAMessageNearby) {
  // Suite run staggered-ii (session 23): job 67's last node answered at 368.121 s and
  // another job's node sent a message at 368.125 s, whose RPC ran a pass at 368.126 s.
  // Told apart only by that pass, job 67's end looked like a message and asked the loop for
  // nothing; the controller's loop ran a pass at 370.195 s for it, which held the next one
  // back to 373.203 s (batch_sched_delay). The job file's epilog_by=answer keeps the
  // request. Here J1's end (10.190, answered 4 ms later) is followed by an observed pass
  // outside the loop at 10.195. Recorded as an answer, J1's end asks for the tick's pass at
  // 10.200 (the queue is empty), so J2, submitted at 10.300, waits until 13.200; taken for
  // that pass's message, it asks for nothing and J2 starts at 11.200.
  const Cluster c = make_cluster(1, 2);
  Workload w = workload_of(c, {{.ntasks = 2, .limit = 60, .run = 9},
                               {.ntasks = 2, .limit = 60, .run = 10, .submit = 10}});
  w.jobs[1].submit_ms = 300;
  SlurmConfig config = ticks_at_200ms(990);
  config.subsecond.agent_passes_us = {10195000};
  w.jobs[0].epilog_ms = 4;
  w.jobs[0].epilog_by = Job::EpilogReport::Answer;
  const SimResult answered = replay(c, w, config);
  ASSERT_EQ(answered.records[0].end, 10);
  EXPECT_EQ(answered.records[1].start, 13);
  w.jobs[0].epilog_by = Job::EpilogReport::Unknown;
  EXPECT_EQ(replay(c, w, config).records[1].start, 11);
}

TEST(SlurmSubsecond, APassLoggedJustAfterASecondCountsForTheOneBefore) {
  // Suite run staggered-i (session 23): loop passes logged at 320.003 and 322.005 s, two
  // whole seconds apart with batch_sched_delay 3: the loop had read time() before 320.
  // Here the observed passes are at 10.002 and 12.005 s: J2's submission asks for the pass
  // at 10.002, J1 ends at 11.002 and its request runs at 12.005 (not 13) since the loop
  // counted the pass at 10.002 as second 9. Logged 10 ms into second 10, it counts as 10.
  // (The loop's passes as the model predicts them: loop_passes=predicted.)
  const Cluster c = make_cluster(1, 1);
  const Workload w = workload_of(c, {{.ntasks = 1, .limit = 60, .run = 11},
                                     {.ntasks = 1, .limit = 60, .run = 5, .submit = 10}});
  SlurmConfig config = controller_clock(-20);
  config.backfill_enabled = false;
  config.subsecond.replay_loop_passes = false;
  config.subsecond.observed_ticks_us = {2000, 10002000, 12005000, 13007000};
  config.subsecond.find_loop_clock_behind(config.batch_sched_delay);
  ASSERT_EQ(config.subsecond.loop_clock_behind_s, std::vector<Time>{10});
  const SimResult behind = replay(c, w, config);
  ASSERT_EQ(behind.records[0].end, 11);
  EXPECT_EQ(behind.records[1].start, 12);
  config.subsecond.observed_ticks_us = {2000, 10010000, 12005000, 13007000};
  config.subsecond.find_loop_clock_behind(config.batch_sched_delay);
  EXPECT_TRUE(config.subsecond.loop_clock_behind_s.empty());
  EXPECT_EQ(replay(c, w, config).records[1].start, 13);
}

TEST(SlurmSubsecond, TheLoopsPassesAreTheLoggedOnes) {
  // J1 holds the one core until 5; J2 arrives at 1 and waits. Predicted
  // (loop_passes=predicted), J1's end asks for a pass batch_sched_delay after the pass at
  // 3.2, at the tick of second 6. Replaying the log (the default), the loop runs where the
  // log shows a pass and only there: at 5.2 when the log has one (as a pass asked for by a
  // request the model placed later, session 23's partitions-v at 81.220 s), not before 7.2
  // when the log's next pass after 3.2 is there (as a watchdog that missed an answer).
  const Cluster c = make_cluster(1, 1);
  const Workload w = workload_of(c, {{.ntasks = 1, .limit = 60, .run = 5},
                                     {.ntasks = 1, .limit = 60, .run = 5, .submit = 1}});
  SlurmConfig config = controller_clock(-20);
  config.backfill_enabled = false;
  const auto j2_start = [&](std::vector<std::int64_t> logged, bool as_logged) {
    config.subsecond.observed_ticks_us = std::move(logged);
    config.subsecond.replay_loop_passes = as_logged;
    const SimResult r = replay(c, w, config);
    EXPECT_EQ(r.records[0].end, 5);
    return r.records[1].start;
  };
  EXPECT_EQ(j2_start({200000, 3200000, 5200000, 8200000}, true), 5);
  EXPECT_EQ(j2_start({200000, 3200000, 5200000, 8200000}, false), 6);
  EXPECT_EQ(j2_start({200000, 3200000, 7200000, 10200000}, true), 7);
  EXPECT_EQ(j2_start({200000, 3200000, 7200000, 10200000}, false), 6);
}

TEST(SlurmSubsecond, ATickPlacedJustAfterASecondReadsTheOneBefore) {
  // Suite run memory-iii (session 23): passes at 209.995 and 213.003 s, a request pending
  // from 210.03 s, and no pass at the tick placed at 212.000 s: the loop read 211 there.
  // Here passes are observed at 1.0004 and 5.002 s, so the ticks between are placed at
  // 2.0008, 3.0012 and 4.0016 s, each read as the second before. J1 starts at the pass of
  // 1.0004 and ends at 3; J2 (submitted at 2) waits: the tick of 4.0016 reads 3, two
  // seconds after that pass, so J2 starts at the observed pass at 5.002 (not at 4).
  const Cluster c = make_cluster(1, 1);
  const Workload w = workload_of(c, {{.ntasks = 1, .limit = 60, .run = 2, .submit = 1},
                                     {.ntasks = 1, .limit = 60, .run = 5, .submit = 2}});
  SlurmConfig config = controller_clock(-20);
  config.backfill_enabled = false;
  config.subsecond.observed_ticks_us = {1000400, 5002000};
  config.subsecond.find_loop_clock_behind(config.batch_sched_delay);
  EXPECT_EQ(config.subsecond.loop_clock_second(4), 3);
  EXPECT_EQ(config.subsecond.loop_clock_second(5), 5);
  const SimResult r = replay(c, w, config);
  ASSERT_EQ(r.records[0].start, 1);
  EXPECT_EQ(r.records[1].start, 5);
}

TEST(SlurmSubsecond, RecordedEndsCountWithoutOtherSubsecondOptions) {
  // clock=controller with whole-second ticks, J1 recorded as ending 300 ms after its
  // run: its core is still busy for the pass at the start of second 10 (t = 0 is a
  // tick), so J2 waits for the next tick.
  const Cluster c = make_cluster(1, 1);
  Workload w = workload_of(c, {{.ntasks = 1, .limit = 60, .run = 10},
                               {.ntasks = 1, .limit = 60, .run = 10, .submit = 5}});
  SlurmConfig config = controller_clock();
  config.backfill_enabled = false;
  ASSERT_TRUE(config.subsecond.whole_seconds());
  EXPECT_EQ(replay(c, w, config).records[1].start, 10);
  w.jobs[0].end_latency_ms = 300;
  EXPECT_EQ(replay(c, w, config).records[1].start, 11);
}

TEST(SlurmSubsecond, BackfillWaitsForACompletingNode) {
  // J0 holds n2 until 200, J1 n1 until 70.6; J2 (both nodes) heads the queue, so only
  // backfill can start J3 (arriving at 70). Loop ticks and backfill cycles both 600 ms
  // into their second: at 70.6 J1 has just ended, and backfill starts J3 on n1 at once,
  // unless n1 is still COMPLETING (a 10 ms epilog): then J3 waits for a later cycle.
  const Cluster c = make_cluster(2, 1);
  const Workload w = workload_of(c, {{.ntasks = 1, .limit = 200, .run = 200},
                                     {.ntasks = 1, .limit = 200, .run = 70},
                                     {.ntasks = 2, .limit = 100, .run = 100, .submit = 1},
                                     {.ntasks = 1, .limit = 20, .run = 10, .submit = 70}});
  SlurmConfig config = controller_clock(-20);
  config.subsecond.backfill_ms = 600;
  config.subsecond.loop_tick_us = 600000;
  const SimResult without = replay(c, w, config);
  ASSERT_EQ(without.records[1].end, 70);
  EXPECT_EQ(without.records[3].start, 70);
  EXPECT_EQ(without.records[3].start_ms, 600);
  config.subsecond.epilog_ms = 10;
  EXPECT_GT(replay(c, w, config).records[3].start, 70);
}

TEST(SlurmSubsecond, BackfillCyclesFollowTheObservedOnes) {
  // Cycles observed at 0.10-1.05 s and 31.40-31.45 s: the agent sleeps bf_interval from a
  // cycle's end, so the second cycle is in second 31 (not 30), 400 ms into it; J3,
  // arriving at 29, starts there.
  const Cluster c = make_cluster(2, 1);
  const Workload w = workload_of(c, blocked_partition(29, 60));
  SlurmConfig config = controller_clock(-30);
  config.subsecond.loop_tick_us = 600000;
  config.subsecond.backfill_cycles_us = {{100000, 1050000}, {31400000, 31450000}};
  SlurmConfig phase_only = config;
  phase_only.subsecond.backfill_cycles_us.clear();
  phase_only.subsecond.backfill_ms = 100;
  EXPECT_EQ(replay(c, w, phase_only).records[2].start, 30);
  const SimResult r = replay(c, w, config);
  EXPECT_EQ(r.records[2].start, 31);
  EXPECT_EQ(r.records[2].start_ms, 400);
  SubsecondClock clock;
  clock.backfill_ms = 7;
  clock.backfill_cycles_us = {{-900000, -100000}, {30999000, 32001000}};
  EXPECT_EQ(clock.backfill_cycle_ms(-1), 100);
  EXPECT_EQ(clock.backfill_cycle_end(-1), -1);
  EXPECT_EQ(clock.backfill_cycle_ms(30), 999);
  EXPECT_EQ(clock.backfill_cycle_end(30), 32);
  EXPECT_EQ(clock.backfill_cycle_ms(31), 7);  // no observed cycle: the phase
  EXPECT_EQ(clock.backfill_cycle_end(31), 31);
}

TEST(SlurmSubsecond, AnObservedCycleOneSecondLaterPutsTheAgentInPhase) {
  // The controller started at -29.99 s (floored to -30 for the model) and its agent's first
  // cycle ran at 1.005 s, the second at 31.01 s. Without the observed cycles the model's
  // agent wakes at 0 and 30, one second early for the whole run (a CI run's first
  // divergence); with them it follows the observed seconds: J3, arriving at 29, starts at
  // 31.01, not 30.
  const Cluster c = make_cluster(2, 1);
  const Workload w = workload_of(c, blocked_partition(29, 60));
  SlurmConfig config = controller_clock(-30);
  config.subsecond.loop_tick_us = 600000;
  config.subsecond.backfill_ms = 5;
  EXPECT_EQ(replay(c, w, config).records[2].start, 30);
  config.subsecond.backfill_cycles_us = {{1005000, 1010000}, {31010000, 31020000}};
  const SimResult r = replay(c, w, config);
  EXPECT_EQ(r.records[2].start, 31);
  EXPECT_EQ(r.records[2].start_ms, 10);
  SubsecondClock clock;
  clock.backfill_cycles_us = {{1005000, 1010000}, {31010000, 31020000}};
  EXPECT_EQ(clock.observed_cycle_second(0), 1);
  EXPECT_EQ(clock.observed_cycle_second(1), 1);
  EXPECT_EQ(clock.observed_cycle_second(30), 31);
  EXPECT_EQ(clock.observed_cycle_second(5), 5);  // nothing observed near: the model's own
}

TEST(SlurmSubsecond, AnEndWithItsOwnEpilogRpcAsksTheLoopForNothing) {
  // J1 ends at 10.3 s. Its end asks the loop for a pass, run at the tick of 11.2 (nothing
  // to start), so J2, submitted at 12, waits for batch_sched_delay after it: 14.2. When a
  // pass outside the loop follows the end (10.32 s: the epilog completion came as its own
  // RPC, which calls schedule() and leaves the loop's count alone), the loop's last pass
  // is J1's start at 0.2 and J2 starts at the tick of 12.2.
  const Cluster c = make_cluster(1, 1);
  const Workload w = workload_of(c, {{.ntasks = 1, .limit = 60, .run = 10},
                                     {.ntasks = 1, .limit = 60, .run = 10, .submit = 12}});
  SlurmConfig config = ticks_at_200ms(100);
  EXPECT_EQ(replay(c, w, config).records[1].start, 14);
  config.subsecond.agent_passes_us = {10320000};
  EXPECT_EQ(replay(c, w, config).records[1].start, 12);
  const SubsecondClock& clock = config.subsecond;
  EXPECT_TRUE(clock.agent_pass_soon_after(10, 300));
  EXPECT_TRUE(clock.agent_pass_soon_after(10, 220));
  EXPECT_FALSE(clock.agent_pass_soon_after(10, 330));
  EXPECT_FALSE(clock.agent_pass_soon_after(10, 219));
}

TEST(SlurmSubsecond, ObservedFullPassesPlaceTheLoopsFullPasses) {
  // Full passes every 60 s from the controller's start (-60), unless a real run's are
  // given (all of them): there the one at 61 (a second without a tick moved it) is the
  // loop's latest pass for batch_sched_delay, so J2 (submitted at 62, main passes only)
  // starts at 64, not 63.
  const Cluster c = make_cluster(1, 1);
  const Workload w = workload_of(c, {{.ntasks = 1, .limit = 60, .run = 10},
                                     {.ntasks = 1, .limit = 60, .run = 10, .submit = 62}});
  SlurmConfig config = controller_clock();
  config.backfill_enabled = false;
  EXPECT_EQ(replay(c, w, config).records[1].start, 63);
  config.subsecond.full_passes_us = {61000000};
  EXPECT_EQ(replay(c, w, config).records[1].start, 64);
  SubsecondClock clock;
  clock.full_passes_us = {61000000, 121500000};
  EXPECT_EQ(clock.observed_full_after(0, 60), 61);
  EXPECT_EQ(clock.observed_full_after(61, 60), 121);
  EXPECT_EQ(clock.observed_full_after(121, 60), 181);  // after the last: every 60 s
  EXPECT_EQ(clock.observed_full_at_or_before(60, 60), std::nullopt);
  EXPECT_EQ(clock.observed_full_at_or_before(130, 60), 121);
  EXPECT_EQ(clock.observed_full_at_or_before(250, 60), 241);
}

TEST(SlurmClock, AJobPastItsLimitRunsUntilTheNextLimitCheck) {
  // J1 (limit 60, run 100) starts at 0: the grid clock ends it at 60; the controller's
  // loop (started at -60) checks limits every 30 s, at -60, -30, 0, 30, 60, 90: with its
  // checks 75 s apart J1 runs until 75. J2 waits for J1's node either way.
  const Cluster c = make_cluster(1, 1);
  const Workload w = workload_of(c, {{.ntasks = 1, .limit = 60, .run = 100},
                                     {.ntasks = 1, .limit = 60, .run = 10, .submit = 5}});
  SlurmConfig grid;
  EXPECT_EQ(replay(c, w, grid).records[0].end, 60);
  SlurmConfig config = controller_clock();
  EXPECT_EQ(replay(c, w, config).records[0].end, 60);  // a check falls on the limit
  config.limit_check = 75;
  const SimResult r = replay(c, w, config);
  EXPECT_EQ(r.records[0].end, 90);  // checks at -60, 15, 90
  EXPECT_EQ(r.records[0].status, JobStatus::Killed);
  EXPECT_GE(r.records[1].start, 90);
  config.limit_check = 0;  // killed at the limit
  EXPECT_EQ(replay(c, w, config).records[0].end, 60);
}

TEST(SlurmSubsecond, SubsecondOptionsNeedTheControllerClock) {
  Params real = Params::parse(
      "clock=controller,loop_period_us=1005000,loop_tick_us=-250000,backfill_ms=640,"
      "end_latency_ms=110",
      "<test>");
  const SlurmConfig c = slurm_config_from(real);
  EXPECT_EQ(c.subsecond.loop_period_us, 1005000);
  EXPECT_EQ(c.subsecond.loop_tick_us, -250000);
  EXPECT_EQ(c.subsecond.backfill_ms, 640);
  EXPECT_EQ(c.subsecond.end_latency_ms, 110);
  Params grid = Params::parse("end_latency_ms=100", "<test>");
  EXPECT_THROW(slurm_config_from(grid), InputError);
  Params bad = Params::parse("clock=controller,backfill_ms=1000", "<test>");
  EXPECT_THROW(slurm_config_from(bad), InputError);
  Params epilog = Params::parse("clock=controller,epilog_ms=8", "<test>");
  EXPECT_EQ(slurm_config_from(epilog).subsecond.epilog_ms, 8);
  Params grid_epilog = Params::parse("epilog_ms=8", "<test>");
  EXPECT_THROW(slurm_config_from(grid_epilog), InputError);
}

TEST(SlurmSubsecond, ObservedTimeFilesAreCheckedLineByLine) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "hs_clock_test";
  std::filesystem::create_directories(dir);
  const auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  };
  const auto config_with = [](const std::string& key, const std::string& path) {
    Params p = Params::parse("clock=controller," + key + "=" + path, "<test>");
    return slurm_config_from(p);
  };
  const std::string good = write("cycles.txt", "# begin end\n100000 950000\n31400000 31450000\n");
  EXPECT_EQ(config_with("backfill_cycles", good).subsecond.backfill_cycles_us.size(), 2U);
  const std::string full = write("full.txt", "61000000\n121000000\n");
  EXPECT_EQ(config_with("full_passes", full).subsecond.full_passes_us.size(), 2U);
  for (const char* text : {"100 50\n", "1 2 3\n", "5 6\n1 2\n", "x 2\n"}) {
    SCOPED_TRACE(text);
    EXPECT_THROW(config_with("backfill_cycles", write("bad.txt", text)), InputError);
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace hs::slurm
