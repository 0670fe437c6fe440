// CPH's constraint-based aggregated search (cph_search.hpp) and the CPH scheduler built on it.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "heuristic_fixtures.hpp"
#include "policy/heuristic/cph_search.hpp"
#include "policy/heuristic/heuristic_schedulers.hpp"
#include "sim/invariant_checker.hpp"
#include "sim/simulator.hpp"
#include "util/rng.hpp"

namespace hs::heuristic {
namespace {

std::int64_t wait_of(const AggregateProblem& p, const std::vector<Time>& start) {
  std::int64_t sum = 0;
  for (std::size_t j = 0; j < start.size(); ++j) sum += start[j] - p.jobs[j].submit;
  return sum;
}

// Independent reference: the best serial list schedule over all job orders. Every active
// schedule is the decoding of some order, so this is the optimum for small problems.
std::int64_t brute_force_optimum(const AggregateProblem& p) {
  std::vector<int> order(p.jobs.size());
  std::iota(order.begin(), order.end(), 0);
  std::int64_t best = std::numeric_limits<std::int64_t>::max();
  do best = std::min(best, wait_of(p, decode_order(p, order)));
  while (std::next_permutation(order.begin(), order.end()));
  return best;
}

// Checks the cumulative constraints of a schedule: at every start, the jobs running then
// plus the running jobs not yet released fit the capacity, for every resource kind.
bool respects_capacity(const AggregateProblem& p, const std::vector<Time>& start) {
  for (std::size_t i = 0; i < start.size(); ++i) {
    const Time t = start[i];
    if (t < p.now) return false;
    AggregateVector used{};
    for (std::size_t j = 0; j < start.size(); ++j)
      if (start[j] <= t && t < start[j] + p.jobs[j].duration)
        for (int k = 0; k < kAggregateKinds; ++k) used[k] += p.jobs[j].demand[k];
    AggregateVector cap = p.free_now;
    for (const AggregateRelease& r : p.releases)
      if (r.time <= t)
        for (int k = 0; k < kAggregateKinds; ++k) cap[k] += r.amount[k];
    for (int k = 0; k < kAggregateKinds; ++k)
      if (used[k] > cap[k]) return false;
  }
  return true;
}

// 4 cores, all submitted at 0: J0 (4 cores, 3 s), J1 (1 core, 4 s), J2 (3 cores, 2 s),
// J3 (1 core, 1 s). By hand: submit order gives 0,3,3,5 (wait 11); shortest first gives
// J3@0, J2@0, J0@2, J1@5 (wait 7). The optimum runs J1 and J3 at 0, J2 at 1 when J3 ends,
// and the whole-machine J0 at 4 (wait 5): J1 before J0 forces J0 ≥ 4, and J1 after J0 costs
// at least 0+0+2+5 = 7.
AggregateProblem hand_problem() {
  AggregateProblem p;
  p.free_now[0] = 4;
  p.jobs = {{{4}, 3, 0}, {{1}, 4, 0}, {{3}, 2, 0}, {{1}, 1, 0}};
  return p;
}

TEST(CphBranchAndBound, FindsTheHandCheckedOptimumThatNeitherFifoNorSjfGives) {
  const AggregateProblem p = hand_problem();
  EXPECT_EQ(wait_of(p, decode_order(p, {0, 1, 2, 3})), 11);
  EXPECT_EQ(wait_of(p, decode_order(p, {3, 2, 0, 1})), 7);
  const AggregateSchedule s = search_schedule(p, 10'000);
  EXPECT_EQ(s.start, (std::vector<Time>{4, 0, 1, 0}));
  EXPECT_EQ(s.total_wait, 5);
  EXPECT_TRUE(s.proven_optimal);
  EXPECT_EQ(brute_force_optimum(p), 5);
  // The order of fixed starts is chronological.
  std::vector<Time> starts;
  for (int j : s.order) starts.push_back(s.start[j]);
  EXPECT_TRUE(std::is_sorted(starts.begin(), starts.end()));
}

TEST(CphBranchAndBound, SixJobsWithReleasesAndTwoResourceKinds) {
  // 8 cores, 1 GPU free at now=10; at t=15 a running job releases 8 cores and 1 GPU. Submits
  // differ and precede now.
  AggregateProblem p;
  p.now = 10;
  p.free_now = {8, 1};
  p.releases = {{15, {8, 1}}};
  p.jobs = {{{12, 0}, 20, 0}, {{2, 1}, 30, 1}, {{4, 1}, 5, 2},
            {{6, 0}, 5, 3},   {{1, 1}, 2, 4},  {{8, 2}, 4, 5}};
  const AggregateSchedule s = search_schedule(p, 100'000);
  EXPECT_TRUE(s.proven_optimal);
  EXPECT_EQ(s.total_wait, brute_force_optimum(p));
  EXPECT_EQ(wait_of(p, s.start), s.total_wait);
  EXPECT_TRUE(respects_capacity(p, s.start));
  EXPECT_LT(s.total_wait, wait_of(p, decode_order(p, {0, 1, 2, 3, 4, 5})));
}

TEST(CphBranchAndBound, MatchesBruteForceOnRandomSmallProblems) {
  Rng rng(2024);
  for (int trial = 0; trial < 60; ++trial) {
    AggregateProblem p;
    p.now = 100;
    p.free_now = {rng.uniform_int(0, 6), rng.uniform_int(0, 2)};
    const int releases = static_cast<int>(rng.uniform_int(0, 3));
    for (int r = 0; r < releases; ++r)
      p.releases.push_back(
          {p.now + rng.uniform_int(0, 20), {rng.uniform_int(1, 4), rng.uniform_int(0, 1)}});
    AggregateVector cap = p.free_now;
    for (const auto& r : p.releases)
      for (int k = 0; k < 2; ++k) cap[k] += r.amount[k];
    const int n = static_cast<int>(rng.uniform_int(2, 6));
    for (int j = 0; j < n; ++j) {
      AggregateJob job;
      job.demand = {rng.uniform_int(1, std::max<std::int64_t>(1, cap[0])),
                    rng.uniform_int(0, cap[1])};
      job.duration = rng.uniform_int(1, 12);
      job.submit = p.now - rng.uniform_int(0, 50);
      p.jobs.push_back(job);
    }
    if (cap[0] < 1) continue;
    const AggregateSchedule s = search_schedule(p, 1'000'000);
    SCOPED_TRACE("trial " + std::to_string(trial));
    EXPECT_TRUE(s.proven_optimal);
    EXPECT_EQ(s.total_wait, brute_force_optimum(p));
    EXPECT_TRUE(respects_capacity(p, s.start));
  }
}

TEST(CphBranchAndBound, BoundMetByTheListScheduleStopsAtTheRoot) {
  // Everything fits now: the root bound (each job at its earliest feasible start) equals
  // the submit-order schedule, so no node is searched.
  AggregateProblem p;
  p.now = 50;
  p.free_now[0] = 16;
  p.jobs = {{{4}, 10, 0}, {{8}, 20, 40}, {{2}, 5, 45}};
  const AggregateSchedule s = search_schedule(p, 1000);
  EXPECT_EQ(s.root_bound, 50 + 10 + 5);
  EXPECT_EQ(s.total_wait, 65);
  EXPECT_EQ(s.evaluations, 2);  // the two list schedules
  EXPECT_TRUE(s.proven_optimal);
}

TEST(CphBranchAndBound, RootBoundAndPruningOnEightJobs) {
  // 2 cores free until a running job releases 2 more at t=10. Jobs of 1-4 cores: the four
  // that need 3 or 4 cores cannot start before 10, the others could start now, so the root
  // bound (each job alone at its earliest feasible start) is 4 x 10 = 40.
  AggregateProblem p;
  p.free_now[0] = 2;
  p.releases = {{10, {2}}};
  for (int i = 0; i < 8; ++i) p.jobs.push_back({{1 + (i * 5) % 4}, 1 + (i * 7) % 9, 0});
  const AggregateSchedule s = search_schedule(p, 1'000'000);
  EXPECT_EQ(s.root_bound, 40);
  EXPECT_TRUE(s.proven_optimal);
  EXPECT_EQ(s.total_wait, brute_force_optimum(p));
  // Proving it takes far fewer nodes than the 8! = 40,320 job orders.
  EXPECT_LT(s.evaluations, 40'320 / 4);
  EXPECT_TRUE(respects_capacity(p, s.start));
}

TEST(CphBranchAndBound, EffortLimitIsRespectedAndTheResultIsDeterministic) {
  AggregateProblem p;
  p.free_now = {8, 2};
  p.releases = {{30, {8, 2}}, {70, {16, 0}}};
  for (int i = 0; i < 30; ++i)
    p.jobs.push_back({{1 + (i * 3) % 8, i % 3 == 0 ? 1 : 0}, 5 + (i * 11) % 40, i});
  for (std::int64_t effort : {1, 2, 3, 10, 57, 500}) {
    const AggregateSchedule a = search_schedule(p, effort);
    const AggregateSchedule b = search_schedule(p, effort);
    EXPECT_EQ(a.evaluations, effort);
    EXPECT_FALSE(a.proven_optimal);
    EXPECT_EQ(a.start, b.start);
    EXPECT_EQ(a.order, b.order);
    EXPECT_TRUE(respects_capacity(p, a.start));
  }
  EXPECT_LT(search_schedule(p, 5000).total_wait, search_schedule(p, 2).total_wait);
}

TEST(CphBranchAndBound, IdenticalJobsStartInSubmitOrder) {
  AggregateProblem p;
  p.free_now[0] = 2;
  p.jobs = {{{2}, 5, 0}, {{1}, 3, 1}, {{2}, 5, 2}, {{1}, 3, 3}};
  const AggregateSchedule s = search_schedule(p, 10'000);
  EXPECT_TRUE(s.proven_optimal);
  EXPECT_EQ(s.total_wait, brute_force_optimum(p));
  EXPECT_LE(s.start[0], s.start[2]);
  EXPECT_LE(s.start[1], s.start[3]);
}

// ---- The scheduler in simulation --------------------------------------------------------------

std::int64_t total_wait(const Workload& w, const SimResult& r) {
  std::int64_t sum = 0;
  for (std::size_t j = 0; j < w.jobs.size(); ++j) sum += r.records[j].start - w.jobs[j].submit;
  return sum;
}

std::unique_ptr<Scheduler> make(const std::string& sched, const std::string& options = "") {
  Params p = Params::parse(options, "<test>");
  auto s = make_heuristic_scheduler(sched, "balanced", "oracle", p);
  p.reject_unused(sched);
  return s;
}

TEST(CphScheduler, BeatsFifoAndSjfTotalWaitOnARandomBurst) {
  // Two 8-core nodes with 2 GPUs: 40 jobs in bursts of mixed widths and lengths.
  const Cluster cluster = testing::make_cluster({{8, 2}, {8, 2}});
  Rng rng(7);
  std::vector<testing::JobSpec> specs;
  for (int i = 0; i < 40; ++i) {
    testing::JobSpec s{.ntasks = static_cast<std::int32_t>(rng.uniform_int(1, 12))};
    s.run_time = rng.uniform_int(5, 200);
    s.limit = 1000;
    s.submit = (i / 10) * 150 + rng.uniform_int(0, 20);
    s.gpus = rng.bernoulli(0.3) ? 1 : 0;
    if (s.gpus) s.nodes = 1, s.ntasks = std::min<std::int32_t>(s.ntasks, 8);
    specs.push_back(s);
  }
  std::stable_sort(specs.begin(), specs.end(),
                   [](const auto& a, const auto& b) { return a.submit < b.submit; });
  const Workload workload = testing::make_workload(cluster, specs);
  std::map<std::string, std::int64_t> wait;
  for (const std::string name : {"fifo", "sjf", "cph"}) {
    auto s = make(name);
    const SimResult r = simulate(cluster, workload, *s, {});
    ASSERT_TRUE(check_run(cluster, workload, r).ok()) << name;
    wait[name] = total_wait(workload, r);
  }
  EXPECT_LT(wait["cph"], wait["fifo"]);
  EXPECT_LT(wait["cph"], wait["sjf"]);
}

TEST(CphScheduler, AJobTheNodesCannotHoldDoesNotTakeTheAggregatedSlot) {
  // Two 4-core nodes, each running a 3-core job until t=100: 2 cores free in aggregate but
  // 1 per node. A (2 cores on one node, 10 s) fits the aggregate, not the nodes; B (1 core,
  // 50 s) fits both. On aggregated resources alone the best schedule starts A now and B at
  // 12 (wait 11 < 51), A then fails allocation and B would wait. A is given a release date
  // at the next expected end instead, so B starts when it arrives and A at 100.
  const Cluster cluster = testing::make_cluster({{4}, {4}});
  const Workload workload = testing::make_workload(
      cluster, {{.ntasks = 3, .run_time = 100, .nodes = 1},
                {.ntasks = 3, .run_time = 100, .nodes = 1},
                {.ntasks = 2, .run_time = 10, .submit = 1, .nodes = 1},
                {.ntasks = 1, .run_time = 50, .submit = 2}});
  Params p;
  auto cph = make_heuristic_scheduler("cph", "ff", "oracle", p);
  const SimResult r = simulate(cluster, workload, *cph, {});
  ASSERT_TRUE(check_run(cluster, workload, r).ok());
  EXPECT_EQ(r.records[3].start, 2);
  EXPECT_EQ(r.records[2].start, 100);
}

TEST(CphScheduler, IsDeterministicAndHonoursTheEffortOption) {
  const Cluster cluster = testing::make_cluster({{4}, {4}});
  std::vector<testing::JobSpec> specs;
  for (int i = 0; i < 20; ++i)
    specs.push_back({.ntasks = 1 + (i * 3) % 6, .run_time = 10 + (i * 37) % 90, .submit = i * 3});
  const Workload workload = testing::make_workload(cluster, specs);
  auto a = make("cph", "cph-effort=50");
  auto b = make("cph", "cph-effort=50");
  const SimResult ra = simulate(cluster, workload, *a, {});
  const SimResult rb = simulate(cluster, workload, *b, {});
  ASSERT_TRUE(check_run(cluster, workload, ra).ok());
  for (std::size_t j = 0; j < workload.jobs.size(); ++j)
    EXPECT_EQ(ra.records[j].start, rb.records[j].start);
}

}  // namespace
}  // namespace hs::heuristic
