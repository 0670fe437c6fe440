// Whole replays through hs::simulate, checked by the independent invariant checker.
#include <gtest/gtest.h>

#include <map>

#include "policy/slurm/slurm_scheduler.hpp"
#include "sim/bind.hpp"
#include "sim/invariant_checker.hpp"
#include "sim/simulator.hpp"
#include "slurm_test_util.hpp"
#include "util/rng.hpp"

namespace hs::slurm {
namespace {

using testing::make_cluster;
using testing::make_job;
using testing::Req;
using testing::workload_of;

SimResult replay(const Cluster& c, const Workload& w, SlurmConfig config = {}) {
  SlurmScheduler s(config);
  SimResult r = simulate(c, w, s, {});
  const CheckReport check = check_run(c, w, r);
  EXPECT_TRUE(check.ok()) << (check.violations.empty() ? "" : check.violations.front());
  EXPECT_EQ(r.stalled, 0);
  EXPECT_EQ(r.rejected, 0);
  return r;
}

SlurmConfig with_mode(BackfillMode mode) {
  SlurmConfig c;
  c.mode = mode;
  c.backfill.reserve_depth = mode == BackfillMode::Easy ? 1 : 0;
  return c;
}

TEST(SlurmScenario, DocumentsExampleBackfillNeedsTwoThousandSeconds) {
  // 1024 x (8 cores, 2 GPUs); J1 = -n 4096, J2 = J3 = -N 512 -n 2048 --gres=gpu:2.
  const Cluster c = make_cluster(1024, 8, 2);
  const Workload w = workload_of(c, {{.ntasks = 4096, .limit = 1000, .run = 1000},
                                     {.ntasks = 2048, .nodes_min = 512, .gpus = 2, .limit = 1000, .run = 1000},
                                     {.ntasks = 2048, .nodes_min = 512, .gpus = 2, .limit = 1000, .run = 1000}});
  const SimResult r = replay(c, w);
  // Best fit packs J1 on 512 whole nodes, J2 takes the other 512 nodes' GPUs, J3 waits.
  EXPECT_EQ(r.records[0].alloc.node_count(), 512);
  EXPECT_EQ(r.records[0].start, 0);
  EXPECT_EQ(r.records[1].start, 0);
  EXPECT_EQ(r.records[2].start, 1000);
  EXPECT_EQ(r.makespan_end, 2000);
}

// Thesis Fig. 2.2 on 8 processors (one node of 8 cores), one time unit = 600 s. J2's
// limit is one minute above its run time: with limit == run time Slurm's slot test
// (a reservation starting exactly when a job would end counts as overlap) blocks J4.
std::vector<Req> four_jobs() {
  return {{.ntasks = 4, .limit = 600, .run = 600},
          {.ntasks = 4, .limit = 1260, .run = 1200},
          {.ntasks = 8, .limit = 600, .run = 600},
          {.ntasks = 4, .limit = 600, .run = 600}};
}

TEST(SlurmScenario, ThesisFigure22BackfillStartsJ4Early) {
  const Cluster c = make_cluster(1, 8);
  const Workload w = workload_of(c, four_jobs());
  const SimResult r = replay(c, w);
  EXPECT_EQ(r.records[0].start, 0);
  EXPECT_EQ(r.records[1].start, 0);
  EXPECT_EQ(r.records[3].start, 600);   // backfilled into J1's place
  EXPECT_EQ(r.records[2].start, 1200);  // not delayed
  EXPECT_EQ(r.makespan_end, 1800);
}

TEST(SlurmScenario, ThesisFigure22WithoutBackfillIsFcfs) {
  const Cluster c = make_cluster(1, 8);
  const Workload w = workload_of(c, four_jobs());
  SlurmConfig fifo;
  fifo.backfill_enabled = false;
  const SimResult r = replay(c, w, fifo);
  EXPECT_EQ(r.records[2].start, 1200);
  EXPECT_EQ(r.records[3].start, 1800);
  EXPECT_EQ(r.makespan_end, 2400);
}

// 4 one-core nodes. R1 holds n0-n1 until 1000, R2 n2 until 500. B (3 nodes) reserves
// n0-n2 at 1000. X (2 nodes, 400 s) can go at 500 on n2-n3. Y (1 node, 600 s) fits on
// n3 now without touching B: EASY starts it (X has no reservation), conservative does
// not (it would delay X).
std::vector<Req> easy_vs_conservative() {
  return {{.ntasks = 2, .nodes_min = 2, .limit = 1000, .run = 1000},
          {.ntasks = 1, .limit = 500, .run = 500},
          {.ntasks = 3, .nodes_min = 3, .limit = 1000, .run = 1000},
          {.ntasks = 2, .nodes_min = 2, .limit = 400, .run = 400},
          {.ntasks = 1, .limit = 600, .run = 600}};
}

TEST(SlurmScenario, EasyAndConservativeDiffer) {
  const Cluster c = make_cluster(4, 1);
  const Workload w = workload_of(c, easy_vs_conservative());
  const SimResult cons = replay(c, w, with_mode(BackfillMode::Conservative));
  const SimResult easy = replay(c, w, with_mode(BackfillMode::Easy));
  EXPECT_EQ(easy.records[4].start, 0);
  EXPECT_GT(cons.records[4].start, 0);
  EXPECT_LT(cons.records[3].start, easy.records[3].start);
  EXPECT_LE(cons.records[3].start, 510);  // next backfill tick after R2 ends
  EXPECT_EQ(cons.records[2].start, 1000);  // B is never delayed
  EXPECT_EQ(easy.records[2].start, 1000);
}

// Records, for every job that was ever the first to get a reservation in a pass (the top
// waiting job), the start that pass planned for it.
class PlanRecorder : public Scheduler {
 public:
  explicit PlanRecorder(const SlurmConfig& c) : inner_(c) {}
  std::string name() const override { return inner_.name(); }
  Decisions decide(const SystemView& v, std::span<const Event> e) override {
    Decisions d = inner_.decide(v, e);
    const auto& plan = inner_.last_plan();
    if (!plan.empty()) first_plan.emplace(plan.front().job, plan.front().start);
    return d;
  }
  std::map<JobRef, Time> first_plan;

 private:
  SlurmScheduler inner_;
};

TEST(SlurmScenario, ConservativeReservationsAreNeverDelayed) {
  // With run time == limit the plan for the top waiting job is exact: backfilled jobs
  // never push it back. It may start up to one backfill interval late: when its nodes
  // free up, the main pass may find a higher job blocked first.
  const Cluster c = make_cluster(16, 1);
  Rng rng(42);
  std::vector<Req> reqs;
  for (int i = 0; i < 60; ++i) {
    const Time run = 60 * rng.uniform_int(1, 30);
    reqs.push_back({.ntasks = static_cast<int>(rng.uniform_int(1, 16)), .limit = run, .run = run,
                    .submit = 20 * i});
  }
  const Workload w = workload_of(c, reqs);
  SlurmConfig config;
  PlanRecorder sched(config);
  const SimResult r = simulate(c, w, sched, {});
  ASSERT_TRUE(check_run(c, w, r).ok());
  ASSERT_FALSE(sched.first_plan.empty());
  for (const auto& [job, planned] : sched.first_plan)
    EXPECT_LE(r.records[job].start, planned + config.bf_interval) << "job " << job;
}

TEST(SlurmScenario, MultifactorPrefersTheLargerJobOfEqualAge) {
  // One busy node frees at 100; a 1-core and an 8-core job wait, submitted together;
  // multifactor ranks the bigger one first, basic keeps submission order.
  const Cluster c = make_cluster(1, 8);
  const Workload w = workload_of(c, {{.ntasks = 8, .limit = 100, .run = 100},
                                     {.ntasks = 1, .limit = 1000, .run = 1000, .submit = 10},
                                     {.ntasks = 8, .limit = 1000, .run = 1000, .submit = 10}});
  SlurmConfig mf;
  mf.priority = PriorityType::Multifactor;
  const SimResult a = replay(c, w, mf);
  EXPECT_EQ(a.records[2].start, 100);
  EXPECT_EQ(a.records[1].start, 1100);
  const SimResult b = replay(c, w);
  EXPECT_EQ(b.records[1].start, 100);
}

TEST(SlurmScenario, ThesisSection12ExampleJ3Waits) {
  // 4 nodes x (12 cores, 3 GPUs): J1 = 24 cores, J2 = 6 cores + 2 GPUs on each of 2
  // nodes, J3 = 6 cores + 3 GPUs on each of 2 nodes. Best fit gives J1 two whole nodes
  // and J2 the other two; J3 needs a job to end.
  const Cluster c = make_cluster(4, 12, 3);
  const Workload w = workload_of(
      c, {{.ntasks = 24, .limit = 1000, .run = 1000},
          {.ntasks = 12, .nodes_min = 2, .per_node = 6, .gpus = 2, .limit = 1000, .run = 1000},
          {.ntasks = 12, .nodes_min = 2, .per_node = 6, .gpus = 3, .limit = 1000, .run = 1000}});
  const SimResult r = replay(c, w);
  EXPECT_EQ(r.records[0].alloc.nodes(), (std::vector<NodeIndex>{0, 1}));
  EXPECT_EQ(r.records[1].alloc.nodes(), (std::vector<NodeIndex>{2, 3}));
  EXPECT_EQ(r.records[2].start, 1000);
}

TEST(SlurmScenario, MainPassIsStrictPriorityPerPartition) {
  // Partition a = n0-n1, b = n2-n3. A1 holds n0; A2 (2 nodes) blocks partition a, so A3
  // (1 node, would fit on n1) waits behind it under sched/builtin, while B1 in partition
  // b starts at once.
  Cluster c = make_cluster(4, 1);
  c.partitions.push_back({"a", {0, 1}, kNoTime, kNoTime, 1, true});
  c.partitions.push_back({"b", {2, 3}, kNoTime, kNoTime, 1, false});
  std::vector<Req> reqs = {{.ntasks = 1, .limit = 1000, .run = 1000},
                           {.ntasks = 2, .nodes_min = 2, .limit = 500, .run = 500},
                           {.ntasks = 1, .limit = 100, .run = 100},
                           {.ntasks = 1, .limit = 100, .run = 100}};
  Workload w;
  for (std::size_t i = 0; i < reqs.size(); ++i) w.jobs.push_back(make_job(reqs[i], static_cast<std::int64_t>(i + 1)));
  w.jobs[3].partition = "b";
  ASSERT_TRUE(bind_workload(c, w).rejected.empty());
  SlurmConfig builtin;
  builtin.backfill_enabled = false;
  const SimResult r = replay(c, w, builtin);
  EXPECT_EQ(r.records[3].start, 0);     // other partition unaffected
  EXPECT_EQ(r.records[1].start, 1000);  // A2 after A1
  EXPECT_EQ(r.records[2].start, 1500);  // A3 strictly after A2 in FIFO
  const SimResult bf = replay(c, w);    // backfill lets A3 use n1 now: it ends before A2
  EXPECT_EQ(bf.records[2].start, 0);
  EXPECT_EQ(bf.records[1].start, 1000);
}

TEST(SlurmScenario, SubmissionWaitsForBatchSchedDelay) {
  // A pass ran at 0 (first job); a job submitted at 1 is scheduled by the next pass,
  // batch_sched_delay = 3 s after the previous one. On the default grid clock a job end
  // triggers a pass at once (clock=controller: tests/slurm/clock_test.cpp).
  const Cluster c = make_cluster(2, 1);
  const Workload w = workload_of(c, {{.ntasks = 1, .limit = 1000, .run = 1000},
                                     {.ntasks = 1, .limit = 100, .run = 100, .submit = 1},
                                     {.ntasks = 2, .limit = 100, .run = 100, .submit = 2}});
  const SimResult r = replay(c, w);
  EXPECT_EQ(r.records[1].start, 3);
  EXPECT_EQ(r.records[2].start, 1000);
}

}  // namespace
}  // namespace hs::slurm
