#include <gtest/gtest.h>

#include "heuristic_fixtures.hpp"
#include "policy/heuristic/cph_search.hpp"
#include "policy/heuristic/heuristic_schedulers.hpp"
#include "policy/heuristic/queue_policies.hpp"
#include "sim/invariant_checker.hpp"
#include "sim/simulator.hpp"

namespace hs::heuristic {
namespace {

using testing::JobSpec;
using testing::make_cluster;
using testing::make_view;
using testing::make_workload;
using testing::started_jobs;

std::unique_ptr<Scheduler> make(std::string_view spec, const std::string& options = "") {
  const auto s1 = spec.find('+');
  const auto s2 = spec.find('+', s1 + 1);
  Params p = Params::parse(options, "<test>");
  auto sched = make_heuristic_scheduler(spec.substr(0, s1), spec.substr(s1 + 1, s2 - s1 - 1),
                                        spec.substr(s2 + 1), p);
  p.reject_unused(std::string(spec));
  return sched;
}

// Drives a scheduler by hand: pass 1 at t=0 starts the "running" jobs on an idle cluster,
// pass 2 at `now` sees them running and the rest pending.
struct TwoPasses {
  const Cluster& cluster;
  const Workload& workload;
  ClusterState free{cluster};
  std::vector<Allocation> allocs{};
  std::vector<RunningJob> running{};

  Decisions run(Scheduler& s, const std::vector<JobRef>& first, Time now,
                const std::vector<JobRef>& later) {
    const auto v1 = make_view(cluster, workload, free, 0, first, {});
    const Decisions d1 = s.decide(v1, {});
    EXPECT_EQ(started_jobs(d1), first);
    allocs.reserve(d1.starts.size());
    for (const auto& st : d1.starts) {
      free.take(st.alloc);
      allocs.push_back(st.alloc);
      const Time limit = workload.jobs[st.job].req.time_limit;
      running.push_back({st.job, 0, limit, &allocs.back()});
    }
    const auto v2 = make_view(cluster, workload, free, now, later, running);
    return s.decide(v2, {});
  }
};

// Two 4-core nodes. R holds node 0 until t=100 (limit 1000). The head job H needs both
// nodes; B would run past the shadow time on H's nodes; C ends before it.
struct EasyTwoNodes : ::testing::Test {
  Cluster cluster = make_cluster({{4}, {4}});
  Workload workload = make_workload(cluster, {{.ntasks = 4, .run_time = 100},
                                              {.ntasks = 8, .run_time = 50, .submit = 10},
                                              {.ntasks = 4, .run_time = 200, .submit = 10},
                                              {.ntasks = 4, .run_time = 50, .submit = 10}});
};

TEST_F(EasyTwoNodes, BackfillsOnlyJobsThatEndBeforeTheShadowTime) {
  auto easy = make("easy+ff+oracle");
  TwoPasses t{cluster, workload};
  const Decisions d = t.run(*easy, {0}, 10, {1, 2, 3});
  EXPECT_EQ(started_jobs(d), (std::vector<JobRef>{3}));  // B (job 2) would delay H
}

TEST_F(EasyTwoNodes, WalltimePredictionsMoveTheShadowToTheLimit) {
  auto easy = make("easy+ff+walltime");
  TwoPasses t{cluster, workload};
  // R is expected to run until 1000; C's predicted 1000 s would end at 1010 > 1000.
  EXPECT_TRUE(t.run(*easy, {0}, 10, {1, 2, 3}).starts.empty());
}

TEST_F(EasyTwoNodes, LimitBoundProtectsTheReservationFromShortPredictions) {
  auto easy = make("easy+ff+oracle", "easy-bound=limit");
  TwoPasses t{cluster, workload};
  EXPECT_TRUE(t.run(*easy, {0}, 10, {1, 2, 3}).starts.empty());
}

TEST(Easy, LongJobsMayUseResourcesTheReservationLeavesFree) {
  const Cluster cluster = make_cluster({{4}, {4}, {4}});
  const Workload workload = make_workload(cluster, {{.ntasks = 4, .run_time = 100},
                                                    {.ntasks = 4, .run_time = 100},
                                                    {.ntasks = 8, .run_time = 50, .submit = 10},
                                                    {.ntasks = 4, .run_time = 500, .submit = 10},
                                                    {.ntasks = 4, .run_time = 500, .submit = 10}});
  auto easy = make("easy+ff+oracle");
  TwoPasses t{cluster, workload};
  // H reserves nodes 0 and 1 at t=100; node 2 is free and not reserved: the first long
  // job takes it, the second has no room.
  const Decisions d = t.run(*easy, {0, 1}, 10, {2, 3, 4});
  ASSERT_EQ(started_jobs(d), (std::vector<JobRef>{3}));
  EXPECT_EQ(d.starts[0].alloc.nodes(), (std::vector<NodeIndex>{2}));
}

TEST(Easy, BackfilledJobAvoidsReservedNodesWhenItCan) {
  // Nodes 0-1 busy until 100. H needs 12 cores: first fit reserves nodes 0-2 at t=100. A
  // long 2-core job would first-fit onto node 2 (reserved); it must go to node 3 instead.
  const Cluster cluster = make_cluster({{4}, {4}, {4}, {4}});
  const Workload workload = make_workload(cluster, {{.ntasks = 4, .run_time = 100},
                                                    {.ntasks = 4, .run_time = 100},
                                                    {.ntasks = 12, .run_time = 50, .submit = 10},
                                                    {.ntasks = 2, .run_time = 500, .submit = 10},
                                                    {.ntasks = 4, .run_time = 500, .submit = 10}});
  auto easy = make("easy+ff+oracle");
  TwoPasses t{cluster, workload};
  const Decisions d = t.run(*easy, {0, 1}, 10, {2, 3, 4});
  ASSERT_EQ(started_jobs(d), (std::vector<JobRef>{3}));  // job 4 finds no unreserved room
  EXPECT_EQ(d.starts[0].alloc.nodes(), (std::vector<NodeIndex>{3}));
}

TEST(Fifo, StopsAtTheFirstJobThatCannotStartUnlessSkipping) {
  const Cluster cluster = make_cluster({{4}});
  const Workload workload = make_workload(cluster, {{.ntasks = 2}, {.ntasks = 4}, {.ntasks = 2}});
  ClusterState free(cluster);
  const std::vector<JobRef> pending{0, 1, 2};
  const auto view = make_view(cluster, workload, free, 0, pending, {});
  EXPECT_EQ(started_jobs(make("fifo+ff+oracle")->decide(view, {})), (std::vector<JobRef>{0}));
  EXPECT_EQ(started_jobs(make("fifo+ff+oracle", "skip-unfit=true")->decide(view, {})),
            (std::vector<JobRef>{0, 2}));
}

TEST(Sjf, SkipsJobsThatDoNotFitByDefault) {
  const Cluster cluster = make_cluster({{4}});
  const Workload workload = make_workload(
      cluster, {{.ntasks = 3, .run_time = 100}, {.ntasks = 4, .run_time = 200}, {.ntasks = 1, .run_time = 300}});
  ClusterState free(cluster);
  const std::vector<JobRef> pending{0, 1, 2};
  const auto view = make_view(cluster, workload, free, 0, pending, {});
  EXPECT_EQ(started_jobs(make("sjf+ff+oracle")->decide(view, {})), (std::vector<JobRef>{0, 2}));
  EXPECT_EQ(started_jobs(make("sjf+ff+oracle", "skip-unfit=false")->decide(view, {})),
            (std::vector<JobRef>{0}));
}

TEST(Sjf, ShortestPredictedFirst) {
  const Cluster cluster = make_cluster({{4}});
  const Workload workload = make_workload(
      cluster, {{.ntasks = 4, .run_time = 300}, {.ntasks = 4, .run_time = 100}, {.ntasks = 4, .run_time = 200}});
  ClusterState free(cluster);
  const std::vector<JobRef> pending{0, 1, 2};
  const auto view = make_view(cluster, workload, free, 0, pending, {});
  EXPECT_EQ(started_jobs(make("sjf+ff+oracle")->decide(view, {})), (std::vector<JobRef>{1}));
  EXPECT_EQ(started_jobs(make("fifo+ff+oracle")->decide(view, {})), (std::vector<JobRef>{0}));
  // With wall-time predictions (all 1000 s) SJF keeps the submit order.
  EXPECT_EQ(started_jobs(make("sjf+ff+walltime")->decide(view, {})), (std::vector<JobRef>{0}));
}

TEST(Prb, MostUrgentFirstThenSmallestDemand) {
  const Cluster cluster = make_cluster({{8}});
  const Workload workload = make_workload(cluster, {{.ntasks = 8, .run_time = 100, .submit = 500},
                                                    {.ntasks = 4, .run_time = 100, .submit = 500},
                                                    {.ntasks = 2, .run_time = 100, .submit = 0},
                                                    {.ntasks = 2, .run_time = 300, .submit = 500},
                                                    {.ntasks = 1, .run_time = 100, .submit = 500}});
  ClusterState free(cluster);
  const std::vector<JobRef> pending{2, 0, 1, 3, 4};
  const auto view = make_view(cluster, workload, free, 1000, pending, {});
  Params p;
  DispatchCore core(make_allocator("ff", p), make_predictor("oracle", p));
  Decisions out;
  core.begin_pass(view, {}, out);
  // Job 2 waited 1000 s, the others 500 s (urgency 1000/600 vs 500/600); among those,
  // demand = cores/8 x duration: job 4 12.5, job 1 50, job 3 75, job 0 100.
  std::vector<JobRef> order;
  for (const auto& q : prb_order(core, 600)) order.push_back(q.job);
  EXPECT_EQ(order, (std::vector<JobRef>{2, 4, 1, 3, 0}));
  EXPECT_DOUBLE_EQ(prb_urgency(core, core.queue()[0], 600), 1000.0 / 600.0);
  std::vector<JobRef> sjf;
  for (const auto& q : sjf_order(core)) sjf.push_back(q.job);
  EXPECT_EQ(sjf, (std::vector<JobRef>{2, 0, 1, 4, 3}));
}

TEST(CphSearch, SearchBeatsBothStartingOrders) {
  // 4 cores: A (4 cores, 2 s), B and C (2 cores, 3 s). Submit order and shortest-first both
  // run A first (total wait 4); running B and C first gives 3.
  AggregateProblem p;
  p.free_now[0] = 4;
  p.jobs = {{{4}, 2, 0}, {{2}, 3, 0}, {{2}, 3, 0}};
  const auto fifo = decode_order(p, {0, 1, 2});
  EXPECT_EQ(fifo, (std::vector<Time>{0, 2, 2}));
  const AggregateSchedule best = search_schedule(p, 100);
  EXPECT_EQ(best.total_wait, 3);
  EXPECT_EQ(best.start, (std::vector<Time>{3, 0, 0}));
  EXPECT_LE(best.evaluations, 100);
}

TEST(CphSearch, EffortLimitIsRespectedAndDeterministic) {
  AggregateProblem p;
  p.free_now[0] = 8;
  p.releases.push_back({50, {8}});
  for (int i = 0; i < 12; ++i) p.jobs.push_back({{1 + i % 8}, 10 + 7 * i, 0});
  const AggregateSchedule a = search_schedule(p, 5);
  EXPECT_EQ(a.evaluations, 5);
  const AggregateSchedule b = search_schedule(p, 5);
  EXPECT_EQ(a.start, b.start);
  EXPECT_LE(search_schedule(p, 1000).total_wait, a.total_wait);
}

std::int64_t total_wait(const Workload& w, const SimResult& r) {
  std::int64_t sum = 0;
  for (std::size_t j = 0; j < w.jobs.size(); ++j) sum += r.records[j].start - w.jobs[j].submit;
  return sum;
}

TEST(Cph, BeatsFifoTotalWaitOnACraftedQueue) {
  // One 4-core node: a 100 s whole-node job submitted just before three 10 s one-core jobs.
  const Cluster cluster = make_cluster({{4}});
  const Workload workload = make_workload(cluster, {{.ntasks = 4, .run_time = 100},
                                                    {.ntasks = 1, .run_time = 10},
                                                    {.ntasks = 1, .run_time = 10},
                                                    {.ntasks = 1, .run_time = 10}});
  ClusterState free(cluster);
  const std::vector<JobRef> pending{0, 1, 2, 3};
  const auto view = make_view(cluster, workload, free, 0, pending, {});
  EXPECT_EQ(started_jobs(make("cph+ff+oracle")->decide(view, {})), (std::vector<JobRef>{1, 2, 3}));
  auto fifo = make("fifo+ff+oracle");
  auto cph = make("cph+ff+oracle");
  const SimResult rf = simulate(cluster, workload, *fifo, {});
  const SimResult rc = simulate(cluster, workload, *cph, {});
  EXPECT_TRUE(check_run(cluster, workload, rf).ok());
  EXPECT_TRUE(check_run(cluster, workload, rc).ok());
  EXPECT_EQ(total_wait(workload, rf), 300);
  EXPECT_EQ(total_wait(workload, rc), 10);
}

TEST(HeuristicSchedulers, UnknownNamesAndOptionsAreInputErrors) {
  Params p;
  EXPECT_THROW(make_heuristic_scheduler("lifo", "ff", "oracle", p), InputError);
  EXPECT_THROW(make_heuristic_scheduler("easy", "ff", "psychic", p), InputError);
  EXPECT_THROW(make("easy+ff+oracle", "easy-bound=never"), InputError);
  EXPECT_THROW(make("cph+ff+oracle", "cph-window=0"), InputError);
  EXPECT_THROW(make("easy+ff+oracle", "cph-window=4"), InputError);  // not an easy option
  EXPECT_EQ(make("cph+pweighted+datadriven")->name(), "cph+pweighted+datadriven");
  EXPECT_EQ(heuristic_scheduler_list().size(), 5u);
  EXPECT_EQ(heuristic_allocator_list().size(), 5u);
  EXPECT_EQ(heuristic_predictor_list().size(), 3u);
}

TEST(HeuristicSchedulers, RejectsJobsThatCannotBeUnits) {
  const Cluster cluster = make_cluster({{4}, {4}});
  Workload workload = make_workload(cluster, {{.ntasks = 4, .per_node = 4}, {.ntasks = 2}});
  workload.jobs[0].req.ntasks = 6;  // not a multiple of ntasks-per-node
  ClusterState free(cluster);
  const std::vector<JobRef> pending{0, 1};
  const auto view = make_view(cluster, workload, free, 0, pending, {});
  const Decisions d = make("fifo+ff+oracle")->decide(view, {});
  ASSERT_EQ(d.rejections.size(), 1u);
  EXPECT_EQ(d.rejections[0].job, 0);
  EXPECT_EQ(started_jobs(d), (std::vector<JobRef>{1}));
}

}  // namespace
}  // namespace hs::heuristic
