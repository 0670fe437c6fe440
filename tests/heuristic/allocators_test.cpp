#include <gtest/gtest.h>

#include "heuristic_fixtures.hpp"
#include "policy/heuristic/allocators.hpp"

namespace hs::heuristic {
namespace {

using testing::make_cluster;

std::vector<NodeIndex> order_of(Allocator& a, const Cluster& c, const ClusterState& s,
                                const JobUnits& u) {
  std::vector<NodeIndex> order;
  a.order_nodes(c, s, u, order);
  return order;
}

std::unique_ptr<Allocator> make(std::string_view name) {
  Params p;
  return make_allocator(name, p);
}

JobUnits cpu_units(std::int32_t n) {
  JobUnits u;
  u.count = n;
  u.cores = 1;
  u.total_cores = n;
  return u;
}

JobUnits gpu_units(std::int32_t n) {
  JobUnits u = cpu_units(n);
  u.gres[0] = 1;
  return u;
}

Allocation hold(NodeIndex n, std::int32_t cores, std::int32_t gpus = 0, std::int32_t mics = 0) {
  Allocation a;
  a.shares.push_back({n, cores, {gpus, mics}, 0});
  return a;
}

// Four 4-core nodes: two with 2 GPUs, one with 2 MICs, one plain; one GPU and one core of
// node 0 busy.
struct SmallState : ::testing::Test {
  Cluster cluster = make_cluster({{4, 2, 0}, {4, 2, 0}, {4, 0, 2}, {4, 0, 0}});
  ClusterState free{cluster};
  void SetUp() override { free.take(hold(0, 1, 1)); }
};

TEST_F(SmallState, FirstFitKeepsTheStaticOrder) {
  auto ff = make("ff");
  EXPECT_EQ(order_of(*ff, cluster, free, cpu_units(2)), (std::vector<NodeIndex>{0, 1, 2, 3}));
}

TEST_F(SmallState, BestFitPutsFewestFreeResourcesFirst) {
  auto bf = make("bf");
  // Free cores + gres: n0 3+1, n1 4+2, n2 4+2, n3 4.
  EXPECT_EQ(order_of(*bf, cluster, free, cpu_units(2)), (std::vector<NodeIndex>{0, 3, 1, 2}));
}

TEST_F(SmallState, WeightedProtectsTheLoadedAndRequestedResource) {
  const JobUnits gpu_job = gpu_units(1);
  const JobUnits cpu_job = cpu_units(2);
  const std::vector<QueuedJob> queue{{0, &gpu_job, 100}, {1, &cpu_job, 100}};
  const AllocationContext ctx{&cluster, &free, queue};
  const ResourceWeights w = weighted_resource_weights(ctx);
  // w_k = avg request (duration-weighted) * load / capacity.
  EXPECT_DOUBLE_EQ(w[kCoresKind], 1.5 * (1.0 / 16) / 16);
  EXPECT_DOUBLE_EQ(w[1], 0.5 * (1.0 / 4) / 4);
  EXPECT_DOUBLE_EQ(w[2], 0.0);
  auto weighted = make("weighted");
  weighted->begin_pass(ctx);
  // Ranks after placing 2 cores: n0 w_c*1 + w_g*1, n1 w_c*2 + w_g*2, n2 w_c*2, n3 w_c*2.
  EXPECT_EQ(order_of(*weighted, cluster, free, cpu_job), (std::vector<NodeIndex>{2, 3, 0, 1}));
}

TEST_F(SmallState, WeightedWithEmptyQueueFallsBackToStaticOrder) {
  auto weighted = make("weighted");
  weighted->begin_pass({&cluster, &free, {}});
  EXPECT_EQ(order_of(*weighted, cluster, free, cpu_units(1)), (std::vector<NodeIndex>{0, 1, 2, 3}));
}

// Eight nodes as in the paper's Fig. 1 idea: plain nodes, GPU and MIC nodes; node 7's MICs
// are busy so it joins the nul bin.
TEST(Balanced, NulBinFirstThenInterleavesFromTheLargestBin) {
  const Cluster c = make_cluster({{4}, {4}, {4, 2}, {4, 2}, {4, 2}, {4, 0, 2}, {4, 0, 2}, {4, 0, 2}});
  ClusterState free(c);
  free.take(hold(7, 0, 0, 2));
  auto balanced = make("balanced");
  // nul {0,1,7}; GPU bin {2,3,4} (largest) and MIC bin {5,6}; ties go to the first listed
  // critical type (gpu).
  EXPECT_EQ(order_of(*balanced, c, free, cpu_units(1)),
            (std::vector<NodeIndex>{0, 1, 7, 2, 3, 5, 4, 6}));
}

TEST(Balanced, EqualBinsAlternate) {
  const Cluster c = make_cluster({{4, 2}, {4, 2}, {4, 2}, {4, 0, 2}, {4, 0, 2}, {4, 0, 2}});
  ClusterState free(c);
  auto balanced = make("balanced");
  EXPECT_EQ(order_of(*balanced, c, free, cpu_units(1)),
            (std::vector<NodeIndex>{0, 3, 1, 4, 2, 5}));
}

TEST(Balanced, NodeWithSeveralCriticalTypesGoesToItsLargestFree) {
  const Cluster c = make_cluster({{4, 1, 2}, {4, 2, 0}, {4, 2, 0}});
  ClusterState free(c);
  auto balanced = make("balanced");
  // Node 0 belongs to the MIC bin (2 MICs > 1 GPU). GPU bin {1,2} is larger and gives
  // node 1; then both bins hold one node and the tie goes to the first listed type (gpu).
  EXPECT_EQ(order_of(*balanced, c, free, cpu_units(1)), (std::vector<NodeIndex>{1, 2, 0}));
}

TEST(Balanced, CriticalTypesAreConfigurable) {
  const Cluster c = make_cluster({{4, 2}, {4, 0, 2}, {4}});
  ClusterState free(c);
  Params p = Params::parse("critical-types=mic", "<test>");
  auto balanced = make_allocator("balanced", p);
  // Only MIC is critical: the GPU node is in the nul bin with the plain node.
  EXPECT_EQ(order_of(*balanced, c, free, cpu_units(1)), (std::vector<NodeIndex>{0, 2, 1}));
}

// Balanced keeps its last order while the state is unchanged: every change of the state,
// and another state object, must give what a fresh allocator computes.
TEST(Balanced, AKeptOrderFollowsEveryChangeOfTheState) {
  const Cluster c = make_cluster({{4, 2}, {4, 2}, {4, 0, 2}, {4, 0, 2}, {4}, {4, 2}});
  ClusterState free(c);
  auto kept = make("balanced");
  auto fresh_order = [&](const ClusterState& s) { return order_of(*make("balanced"), c, s, cpu_units(1)); };
  EXPECT_EQ(order_of(*kept, c, free, cpu_units(1)), fresh_order(free));
  EXPECT_TRUE(kept->orders_cheaply_on(free));
  const std::vector<Allocation> changes{hold(0, 1, 2), hold(2, 0, 0, 2), hold(5, 2, 1)};
  for (const Allocation& change : changes) {
    free.take(change);
    EXPECT_FALSE(kept->orders_cheaply_on(free));
    EXPECT_EQ(order_of(*kept, c, free, cpu_units(1)), fresh_order(free));
  }
  free.release(changes[0]);
  EXPECT_EQ(order_of(*kept, c, free, cpu_units(1)), fresh_order(free));
  ClusterState copy = free;  // equal contents, another object
  EXPECT_FALSE(kept->orders_cheaply_on(copy));
  copy.take(hold(1, 0, 2));
  EXPECT_EQ(order_of(*kept, c, copy, cpu_units(1)), fresh_order(copy));
  EXPECT_EQ(order_of(*kept, c, free, cpu_units(1)), fresh_order(free));
}

TEST(PriorityWeighted, CounterRisesOnFailuresFallsOnSuccessAndStaysInBounds) {
  const Cluster c = make_cluster({{4, 2}, {4, 0, 2}});
  ClusterState busy(c);
  busy.take(hold(0, 0, 2));  // no GPU free
  ClusterState idle(c);
  Params p = Params::parse("priority-bound=5", "<test>");
  auto pw = make_allocator("pweighted", p);
  const JobUnits gpu = gpu_units(1);
  const JobUnits cpu = cpu_units(1);
  pw->begin_pass({&c, &idle, {}});
  EXPECT_EQ(priority_values(*pw)[0], 1);
  for (int i = 1; i <= 3; ++i) {
    EXPECT_FALSE(allocate(*pw, c, busy, gpu, {}, true));
    EXPECT_EQ(priority_values(*pw)[0], 1 + i);
  }
  for (int i = 0; i < 10; ++i) allocate(*pw, c, busy, gpu, {}, true);
  EXPECT_EQ(priority_values(*pw)[0], 5);  // bounded above
  EXPECT_TRUE(allocate(*pw, c, idle, gpu, {}, true));
  EXPECT_EQ(priority_values(*pw)[0], 4);
  EXPECT_TRUE(allocate(*pw, c, idle, cpu, {}, true));  // no GPU needed: unchanged
  EXPECT_EQ(priority_values(*pw)[0], 4);
  EXPECT_EQ(priority_values(*pw)[1], 1);
  for (int i = 0; i < 10; ++i) allocate(*pw, c, idle, gpu, {}, true);
  EXPECT_EQ(priority_values(*pw)[0], 1);  // bounded below
  EXPECT_FALSE(allocate(*pw, c, busy, gpu, {}, false));  // planning does not count
  EXPECT_EQ(priority_values(*pw)[0], 1);
}

TEST(PriorityWeighted, RaisedPriorityPushesCriticalNodesBack) {
  // Node 0: 4 cores, 2 GPUs, 2 cores + 1 GPU busy. Node 1: 4 plain cores.
  const Cluster c = make_cluster({{4, 2}, {4}});
  ClusterState free(c);
  free.take(hold(0, 2, 1));
  const JobUnits gpu = gpu_units(1);
  const JobUnits cpu = cpu_units(1);
  // w_core / w_gpu = 1.25 with these durations; a CPU unit leaves (1 core, 1 GPU) on node 0
  // and 3 cores on node 1: ranks 2.25 vs 3.75 (in w_gpu) with p_gpu = 1.
  const std::vector<QueuedJob> queue{{0, &gpu, 10}, {1, &cpu, 90}};
  Params p;
  auto pw = make_allocator("pweighted", p);
  pw->begin_pass({&c, &free, queue});
  EXPECT_EQ(order_of(*pw, c, free, cpu), (std::vector<NodeIndex>{0, 1}));
  ClusterState full(c);
  full.take(hold(0, 4, 2));
  for (int i = 0; i < 3; ++i) EXPECT_FALSE(allocate(*pw, c, full, gpu, {}, true));
  ASSERT_EQ(priority_values(*pw)[0], 4);
  // p_gpu = 4: node 0 ranks 1.25 + 4 = 5.25 > 3.75, so the plain node comes first.
  EXPECT_EQ(order_of(*pw, c, free, cpu), (std::vector<NodeIndex>{1, 0}));
  auto weighted = make("weighted");
  weighted->begin_pass({&c, &free, queue});
  EXPECT_EQ(order_of(*weighted, c, free, cpu), (std::vector<NodeIndex>{0, 1}));
}

TEST(Allocators, UnknownNameIsAnInputError) {
  Params p;
  EXPECT_THROW(make_allocator("worst", p), InputError);
  Params bad = Params::parse("priority-bound=0", "<test>");
  EXPECT_THROW(make_allocator("pweighted", bad), InputError);
}

TEST(Allocators, EveryAllocatorPlacesAFeasibleJob) {
  const Cluster c = make_cluster({{4, 2}, {4, 0, 2}, {4}});
  ClusterState free(c);
  for (const auto& item : allocator_list()) {
    auto a = make(item.name);
    a->begin_pass({&c, &free, {}});
    auto alloc = allocate(*a, c, free, gpu_units(2), {}, true);
    ASSERT_TRUE(alloc) << item.name;
    EXPECT_EQ(alloc->nodes(), (std::vector<NodeIndex>{0})) << item.name;
  }
}

}  // namespace
}  // namespace hs::heuristic
