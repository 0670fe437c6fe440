#include <gtest/gtest.h>

#include "heuristic_fixtures.hpp"
#include "policy/heuristic/allocators.hpp"
#include "policy/heuristic/heuristic_schedulers.hpp"
#include "policy/heuristic/job_units.hpp"
#include "sim/bind.hpp"
#include "sim/invariant_checker.hpp"
#include "sim/simulator.hpp"

namespace hs::heuristic {
namespace {

using testing::make_cluster;
using testing::make_job;

const Cluster kEurora4 = make_cluster({{16, 2, 0}, {16, 2, 0}, {16, 0, 2}, {16, 0, 2}});

JobUnits units_of(const Job& job) {
  auto mapped = units_from_request(job);
  EXPECT_TRUE(std::holds_alternative<JobUnits>(mapped)) << std::get<std::string>(mapped);
  return std::get<JobUnits>(mapped);
}

std::vector<NodeIndex> all_nodes(const Cluster& c) {
  std::vector<NodeIndex> v;
  for (NodeIndex n = 0; n < c.node_count(); ++n) v.push_back(n);
  return v;
}

TEST(JobUnits, TasksPerNodeWithGresBecomeWholeNodeUnits) {
  const Job job = make_job(kEurora4, 1, {.ntasks = 32, .per_node = 16, .gpus = 2});
  const JobUnits u = units_of(job);
  EXPECT_EQ(u.count, 2);
  EXPECT_EQ(u.cores, 16);
  EXPECT_EQ(u.gres[0], 2);
  EXPECT_EQ(u.max_per_node, 1);
  ClusterState free(kEurora4);
  const auto order = all_nodes(kEurora4);
  auto alloc = place_units(kEurora4, free, u, order, {});
  ASSERT_TRUE(alloc);
  EXPECT_EQ(alloc->nodes(), (std::vector<NodeIndex>{0, 1}));
  EXPECT_FALSE(allocation_violates_request(kEurora4, job, *alloc));
}

TEST(JobUnits, PlainTaskCountIsOneCoreUnits) {
  const Job job = make_job(kEurora4, 1, {.ntasks = 20});
  const JobUnits u = units_of(job);
  EXPECT_EQ(u.count, 20);
  EXPECT_EQ(u.cores, 1);
  EXPECT_EQ(u.max_per_node, 0);
  ClusterState free(kEurora4);
  // Units fill node 3 first (the order), then spill to node 0.
  const std::vector<NodeIndex> order{3, 0, 1, 2};
  auto alloc = place_units(kEurora4, free, u, order, {});
  ASSERT_TRUE(alloc);
  ASSERT_EQ(alloc->shares.size(), 2u);
  EXPECT_EQ(alloc->shares[0].node, 0);
  EXPECT_EQ(alloc->shares[0].cores, 4);
  EXPECT_EQ(alloc->shares[1].node, 3);
  EXPECT_EQ(alloc->shares[1].cores, 16);
  EXPECT_FALSE(allocation_violates_request(kEurora4, job, *alloc));
}

TEST(JobUnits, GresWithoutTasksPerNodeIsTakenOnEveryNodeUsed) {
  const Job job = make_job(kEurora4, 1, {.ntasks = 20, .gpus = 1});
  const JobUnits u = units_of(job);
  EXPECT_EQ(u.node_gres[0], 1);
  EXPECT_EQ(u.gres[0], 0);
  ClusterState free(kEurora4);
  const auto order = all_nodes(kEurora4);
  auto alloc = place_units(kEurora4, free, u, order, {});
  ASSERT_TRUE(alloc);
  EXPECT_EQ(alloc->nodes(), (std::vector<NodeIndex>{0, 1}));  // MIC nodes have no GPU
  for (const auto& s : alloc->shares) EXPECT_EQ(s.gres[0], 1);
  EXPECT_FALSE(allocation_violates_request(kEurora4, job, *alloc));
}

TEST(JobUnits, NodeCountIsMappedConservativelyAndTrimmed) {
  const Job job = make_job(kEurora4, 1, {.ntasks = 8, .nodes = 3});
  const JobUnits u = units_of(job);
  EXPECT_EQ(u.count, 3);
  EXPECT_EQ(u.cores, 3);  // ceil(8 / 3) reserved per node
  ClusterState free(kEurora4);
  const auto order = all_nodes(kEurora4);
  auto alloc = place_units(kEurora4, free, u, order, {});
  ASSERT_TRUE(alloc);
  EXPECT_EQ(alloc->total_cores(), 8);
  EXPECT_EQ(alloc->node_count(), 3);
  EXPECT_FALSE(allocation_violates_request(kEurora4, job, *alloc));
}

TEST(JobUnits, RejectsTaskCountsThatAreNotIdenticalUnits) {
  Job job = make_job(kEurora4, 1, {.ntasks = 16, .per_node = 16});
  job.req.ntasks = 10;
  job.req.ntasks_per_node = 4;
  const auto mapped = units_from_request(job);
  ASSERT_TRUE(std::holds_alternative<std::string>(mapped));
  EXPECT_NE(std::get<std::string>(mapped).find("multiple"), std::string::npos);
}

TEST(JobUnits, PlacementFailsWhenTheListRunsOut) {
  const Job job = make_job(kEurora4, 1, {.ntasks = 48, .per_node = 16, .gpus = 1});
  const JobUnits u = units_of(job);
  ClusterState free(kEurora4);
  const auto order = all_nodes(kEurora4);
  EXPECT_FALSE(place_units(kEurora4, free, u, order, {}));  // only two GPU nodes
  EXPECT_FALSE(units_feasible(kEurora4, free, u, {}));
}

TEST(JobUnits, UnusableNodesAreSkipped) {
  const Job job = make_job(kEurora4, 1, {.ntasks = 16, .per_node = 16});
  const JobUnits u = units_of(job);
  ClusterState free(kEurora4);
  const auto order = all_nodes(kEurora4);
  const std::vector<char> usable{0, 0, 1, 1};
  auto alloc = place_units(kEurora4, free, u, order, usable);
  ASSERT_TRUE(alloc);
  EXPECT_EQ(alloc->nodes(), (std::vector<NodeIndex>{2}));
}

TEST(JobUnits, UnitsFittingCountsEveryResource) {
  JobUnits u;
  u.count = 8;
  u.cores = 2;
  u.gres[1] = 1;  // one MIC per unit
  const Node& mic_node = kEurora4.nodes[2];
  EXPECT_EQ(units_fitting(mic_node, {16, {0, 2}, 0}, u), 2);
  EXPECT_EQ(units_fitting(mic_node, {3, {0, 2}, 0}, u), 1);
  EXPECT_EQ(units_fitting(kEurora4.nodes[0], {16, {2, 0}, 0}, u), 0);
}

TEST(JobUnits, ContiguousJobsTakeConsecutiveNodes) {
  Job job = make_job(kEurora4, 1, {.ntasks = 32, .per_node = 16});
  job.req.contiguous = true;
  const JobUnits u = units_of(job);
  ClusterState free(kEurora4);
  Allocation busy;
  busy.shares.push_back({1, 16, {}, 0});
  free.take(busy);
  const std::vector<NodeIndex> order{0, 2, 3, 1};
  auto alloc = place_units(kEurora4, free, u, order, {});
  ASSERT_TRUE(alloc);
  EXPECT_EQ(alloc->nodes(), (std::vector<NodeIndex>{2, 3}));
  EXPECT_FALSE(allocation_violates_request(kEurora4, job, *alloc));
}

// -n T -c C --gpus-per-task=G (JobRequest::task_cores): Slurm's tasks are the units.
Job task_units_job(std::int64_t id, std::int32_t tasks, std::int32_t cores, std::int32_t gpus,
                   Time submit = 0) {
  Job job = make_job(kEurora4, id, {.ntasks = tasks * cores, .submit = submit});
  job.req.task_cores = cores;
  if (gpus > 0) job.req.gres.push_back({"gpu", -1, gpus, gpus});
  EXPECT_FALSE(bind_to_cluster(kEurora4, job).has_value());
  return job;
}

TEST(JobUnits, SlurmTasksAreTheUnits) {
  const Job job = task_units_job(1, 3, 4, 1);  // 3 tasks of 4 cores and 1 GPU
  const JobUnits u = units_of(job);
  EXPECT_EQ(u.count, 3);
  EXPECT_EQ(u.cores, 4);
  EXPECT_EQ(u.gres[0], 1);
  EXPECT_EQ(u.max_per_node, 0);
  ClusterState free(kEurora4);
  auto alloc = place_units(kEurora4, free, u, all_nodes(kEurora4), {});
  ASSERT_TRUE(alloc);
  ASSERT_EQ(alloc->shares.size(), 2u);  // 2 GPUs per node: 2 tasks, then 1
  EXPECT_EQ(alloc->shares[0].cores, 8);
  EXPECT_EQ(alloc->shares[0].gres[0], 2);
  EXPECT_EQ(alloc->shares[1].cores, 4);
  EXPECT_EQ(alloc->shares[1].gres[0], 1);
  EXPECT_FALSE(allocation_violates_request(kEurora4, job, *alloc));
  Job ranged = job;
  ranged.req.nodes_min = 2;
  EXPECT_TRUE(std::holds_alternative<std::string>(units_from_request(ranged)));
}

TEST(JobUnits, EveryAllocatorPlacesTasksUnitByUnit) {
  const Job job = task_units_job(1, 3, 2, 1);  // 3 tasks of (2 cores, 1 GPU)
  const JobUnits u = units_of(job);
  ClusterState free(kEurora4);
  Allocation busy;
  busy.shares.push_back({0, 13, {1, 0}, 0});  // node 0: 3 cores, 1 GPU free: one task
  free.take(busy);
  for (const auto& item : allocator_list()) {
    Params p;
    auto a = make_allocator(item.name, p);
    a->begin_pass({&kEurora4, &free, {}});
    auto alloc = allocate(*a, kEurora4, free, u, {}, true);
    ASSERT_TRUE(alloc) << item.name;
    EXPECT_FALSE(allocation_violates_request(kEurora4, job, *alloc)) << item.name;
    EXPECT_EQ(alloc->total_gres(0), 3) << item.name;
    EXPECT_TRUE(free.can_hold(*alloc)) << item.name;
  }
  const Job too_many = task_units_job(2, 4, 1, 1);  // 4 GPU tasks, 3 GPUs free
  EXPECT_FALSE(units_feasible(kEurora4, free, units_of(too_many), {}));
}

TEST(JobUnits, UnitsJobsRunSoundlyUnderEveryHeuristic) {
  Workload w;
  w.name = "units";
  for (std::int64_t i = 0; i < 24; ++i)
    w.jobs.push_back(task_units_job(i + 1, 1 + static_cast<std::int32_t>(i % 4),  // <= 4 GPUs
                                    1 + static_cast<std::int32_t>(i % 4),
                                    static_cast<std::int32_t>(i % 2), 10 * i));
  for (const auto& s : heuristic_scheduler_list())
    for (const auto& a : heuristic_allocator_list()) {
      Params params;
      auto sched = make_heuristic_scheduler(s.name, a.name, "walltime", params);
      const SimResult r = simulate(kEurora4, w, *sched, {});
      const CheckReport check = check_run(kEurora4, w, r);
      EXPECT_TRUE(check.ok()) << s.name << "+" << a.name << ": " << check.violations.front();
      EXPECT_EQ(r.rejected, 0) << s.name << "+" << a.name;
    }
}

}  // namespace
}  // namespace hs::heuristic
