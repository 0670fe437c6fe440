#include <gtest/gtest.h>

#include "model/request_fit.hpp"
#include "policy/slurm/select.hpp"
#include "slurm_test_util.hpp"

namespace hs::slurm {
namespace {

using testing::cores_of;
using testing::make_cluster;
using testing::make_job;
using testing::nodes_of;
using testing::occupy;
using testing::Req;
using V = std::vector<NodeIndex>;
using C = std::vector<int>;

// Every allocation the tests see must also pass the project's independent request check.
Allocation must_select(const Cluster& c, const ClusterState& s, const Job& j,
                       const SelectOptions& o = {}) {
  auto a = select_nodes(c, s, j, o);
  EXPECT_TRUE(a.has_value());
  if (!a) return {};
  EXPECT_EQ(allocation_violates_request(c, j, *a), std::nullopt);
  EXPECT_TRUE(s.can_hold(*a));
  return *a;
}

TEST(SlurmSelect, GreedyCpusPerNodeGivesThreePlusOne) {
  const Cluster c = make_cluster(4, 8);
  const ClusterState s(c);
  const Allocation a = must_select(c, s, make_job({.ntasks = 4, .nodes_min = 2}));
  EXPECT_EQ(nodes_of(a), (V{0, 1}));
  EXPECT_EQ(cores_of(a), (C{3, 1}));
}

TEST(SlurmSelect, CoresOnlyJobFillsWholeNodesFromTheLowestIndex) {
  const Cluster c = make_cluster(4, 8);
  const ClusterState s(c);
  const Allocation a = must_select(c, s, make_job({.ntasks = 20}));
  EXPECT_EQ(nodes_of(a), (V{0, 1, 2}));
  EXPECT_EQ(cores_of(a), (C{8, 8, 4}));
}

// Free: set A = n0-n1 (16 CPUs), n2 busy, set B = n3-n5 (24), n6 busy, set C = n7 (8).
ClusterState three_sets(const Cluster& c) {
  ClusterState s(c);
  occupy(s, 2, 8);
  occupy(s, 6, 8);
  return s;
}

TEST(SlurmSelect, FirstSetThatHoldsTheJobWins) {
  const Cluster c = make_cluster(8, 8);
  const Allocation a = must_select(c, three_sets(c), make_job({.ntasks = 16}));
  EXPECT_EQ(nodes_of(a), (V{0, 1}));
}

TEST(SlurmSelect, TightestSufficientSetWins) {
  const Cluster c = make_cluster(8, 8);
  const Allocation a = must_select(c, three_sets(c), make_job({.ntasks = 8}));
  EXPECT_EQ(nodes_of(a), (V{7}));
}

TEST(SlurmSelect, LaterSetThatHoldsTheJobBeatsAnEarlierOneThatDoesNot) {
  const Cluster c = make_cluster(8, 8);
  const Allocation a = must_select(c, three_sets(c), make_job({.ntasks = 20}));
  EXPECT_EQ(nodes_of(a), (V{3, 4, 5}));
  EXPECT_EQ(cores_of(a), (C{8, 8, 4}));
}

TEST(SlurmSelect, JobSpansSetsLargestFirst) {
  const Cluster c = make_cluster(8, 8);
  const Allocation a = must_select(c, three_sets(c), make_job({.ntasks = 40}));
  // No set holds 40: the biggest (B) first, then the first set that holds the rest (A).
  EXPECT_EQ(nodes_of(a), (V{0, 1, 3, 4, 5}));
  EXPECT_EQ(a.total_cores(), 40);
}

TEST(SlurmSelect, MostCpusQuirkReplacesASetThatAlreadyFits) {
  // Set A = n0-n2 with one free core each (fits -N3 -n3), n3 busy, set B = n4-n5 idle
  // (more CPUs, too few nodes). Slurm's "biggest if nothing fits" test runs even when A
  // fits, so B is taken first and A only supplies the last node.
  const Cluster c = make_cluster(6, 8);
  ClusterState s(c);
  for (NodeIndex n : {0, 1, 2}) occupy(s, n, 7);
  occupy(s, 3, 8);
  const Allocation a = must_select(c, s, make_job({.ntasks = 3, .nodes_min = 3}));
  EXPECT_EQ(nodes_of(a), (V{0, 4, 5}));
  EXPECT_EQ(cores_of(a), (C{1, 1, 1}));
}

TEST(SlurmSelect, LastNodeIsTheSmallestThatCoversTheRest) {
  // One node needed: n1 (3 free) is the tightest node holding 3 CPUs.
  const Cluster c = make_cluster(4, 8);
  ClusterState s(c);
  occupy(s, 0, 2);
  occupy(s, 1, 5);
  occupy(s, 2, 4);
  const Allocation a = must_select(c, s, make_job({.ntasks = 3, .nodes_min = 1}));
  EXPECT_EQ(nodes_of(a), (V{1}));
}

TEST(SlurmSelect, RetriesWithoutSmallNodesLikeChooseNodes) {
  // Greedy on n0 (1 free) then n1 gives 9 CPUs on 2 nodes; choose_nodes drops n0 and retries.
  const Cluster c = make_cluster(3, 8);
  ClusterState s(c);
  occupy(s, 0, 7);
  const Allocation a = must_select(c, s, make_job({.ntasks = 16, .nodes_min = 2}));
  EXPECT_EQ(nodes_of(a), (V{1, 2}));
  EXPECT_EQ(cores_of(a), (C{8, 8}));
}

TEST(SlurmSelect, GresPerNodeSkipsNodesWithoutFreeGpus) {
  const Cluster c = make_cluster(4, 8, 2);
  ClusterState s(c);
  occupy(s, 0, 0, 2);
  occupy(s, 1, 0, 1);
  const Allocation a = must_select(c, s, make_job({.ntasks = 8, .nodes_min = 2, .gpus = 2}));
  EXPECT_EQ(nodes_of(a), (V{2, 3}));
  for (const auto& sh : a.shares) EXPECT_EQ(sh.gres[0], 2);
}

// Free: n0-n4 whole (40 CPUs), n6-n9 five cores each (20), n11-n13 8+8+6 (22).
const SelectOptions kTaskCap{.gres_task_cap = true};

ClusterState three_gpu_sets(const Cluster& c) {
  ClusterState s(c);
  for (NodeIndex i : {5, 10}) occupy(s, i, 8);
  for (NodeIndex i : {6, 7, 8, 9}) occupy(s, i, 3);
  occupy(s, 13, 2);
  return s;
}

// cons_tres counts one CPU per node for a gres job of one task per node (-n equal to an
// exact -N): after n0-n4, the three nodes still needed come from the set with the fewest
// nodes that holds them, not from the one with the fewest CPUs.
TEST(SlurmSelect, GresJobOfOneTaskPerNodeWeighsSetsByNodes) {
  const Cluster c = make_cluster(14, 8, 2);
  const ClusterState s = three_gpu_sets(c);
  const Job job = make_job({.ntasks = 8, .nodes_min = 8, .nodes_max = 8, .gpus = 1});
  const Allocation a = must_select(c, s, job, kTaskCap);
  EXPECT_EQ(nodes_of(a), (V{0, 1, 2, 3, 4, 11, 12, 13}));
  EXPECT_EQ(cores_of(a), (C{1, 1, 1, 1, 1, 1, 1, 1}));
  EXPECT_EQ(nodes_of(must_select(c, s, job)), (V{0, 1, 2, 3, 4, 6, 7, 8}));  // option off
}

// The cap needs a task count Slurm was given: without -n (sbatch sends none), with more
// tasks than nodes, or without gres, the sets are weighed by their free CPUs.
TEST(SlurmSelect, NoTaskCapWithoutAGivenTaskCountOrGres) {
  const Cluster c = make_cluster(14, 8, 2);
  const ClusterState s = three_gpu_sets(c);
  const V by_cpus{0, 1, 2, 3, 4, 6, 7, 8};
  Job implied = make_job({.ntasks = 8, .nodes_min = 8, .nodes_max = 8, .gpus = 1});
  implied.req.ntasks_implied = true;
  EXPECT_EQ(nodes_of(must_select(c, s, implied, kTaskCap)), by_cpus);
  EXPECT_EQ(nodes_of(must_select(c, s, make_job({.ntasks = 16, .nodes_min = 8, .nodes_max = 8, .gpus = 1}), kTaskCap)), by_cpus);
  EXPECT_EQ(nodes_of(must_select(c, s, make_job({.ntasks = 8, .nodes_min = 8, .nodes_max = 8}), kTaskCap)), by_cpus);
}

// -n 1 with gres: every node counts one CPU, so the first node of the tightest set (by
// node count) wins, not the node with the fewest free CPUs.
TEST(SlurmSelect, SingleTaskGresJobTakesTheFirstNodeOfTheSmallestSet) {
  const Cluster c = make_cluster(14, 8, 2);
  const ClusterState s = three_gpu_sets(c);
  EXPECT_EQ(nodes_of(must_select(c, s, make_job({.ntasks = 1, .gpus = 1}), kTaskCap)), (V{11}));
  EXPECT_EQ(nodes_of(must_select(c, s, make_job({.ntasks = 1}), kTaskCap)), (V{6}));  // fewest CPUs
}

TEST(SlurmSelect, GresRangeGetsItsMinimum) {
  const Cluster c = make_cluster(2, 8, 3);
  const ClusterState s(c);
  const Allocation a = must_select(c, s, make_job({.ntasks = 2, .nodes_min = 2, .gpus = 1, .gpus_max = 3}));
  for (const auto& sh : a.shares) EXPECT_EQ(sh.gres[0], 1);
}

TEST(SlurmSelect, NtasksPerNodeGivesExactlyKOnCeilNOverKNodes) {
  const Cluster c = make_cluster(6, 8);
  ClusterState s(c);
  occupy(s, 1, 7);  // too few cores for 2 tasks: skipped
  const Allocation a = must_select(c, s, make_job({.ntasks = 8, .per_node = 2}));
  EXPECT_EQ(nodes_of(a), (V{2, 3, 4, 5}));
  EXPECT_EQ(cores_of(a), (C{2, 2, 2, 2}));
}

TEST(SlurmSelect, NodeRangeAimsAtItsMaximum) {
  const Cluster c = make_cluster(6, 8);
  const ClusterState s(c);
  const Allocation a = must_select(c, s, make_job({.ntasks = 8, .nodes_min = 2, .nodes_max = 4}));
  EXPECT_EQ(a.node_count(), 4);
  EXPECT_EQ(a.total_cores(), 8);
}

TEST(SlurmSelect, ContiguousNeedsOneSetThatHoldsTheJob) {
  const Cluster c = make_cluster(8, 8);
  ClusterState s(c);
  occupy(s, 2, 8);
  const Allocation a = must_select(c, s, make_job({.ntasks = 24, .nodes_min = 3, .contiguous = true}));
  EXPECT_EQ(nodes_of(a), (V{3, 4, 5}));
  occupy(s, 6, 8);  // now the largest run has 3 nodes
  EXPECT_FALSE(select_nodes(c, s, make_job({.ntasks = 32, .nodes_min = 4, .contiguous = true})));
  EXPECT_TRUE(select_nodes(c, s, make_job({.ntasks = 32, .nodes_min = 4})));
}

TEST(SlurmSelect, UsableMaskLimitsTheNodes) {
  const Cluster c = make_cluster(4, 8);
  const ClusterState s(c);
  const std::vector<char> mask{0, 1, 0, 1};
  SelectOptions o;
  o.usable = mask;
  const Allocation a = must_select(c, s, make_job({.ntasks = 16}), o);
  EXPECT_EQ(nodes_of(a), (V{1, 3}));
  EXPECT_FALSE(select_nodes(c, s, make_job({.ntasks = 17}), o));
}

TEST(SlurmSelect, PartitionNodesOnly) {
  Cluster c = make_cluster(4, 8);
  c.partitions.push_back({"left", {0, 1}, kNoTime, kNoTime, 1, true});
  c.partitions.push_back({"right", {2, 3}, kNoTime, kNoTime, 1, false});
  const ClusterState s(c);
  Job j = make_job({.ntasks = 8});
  j.partition = "right";
  EXPECT_EQ(nodes_of(must_select(c, s, j)), (V{2}));
}

TEST(SlurmSelect, MemoryOnlyWhenRequested) {
  Cluster c = make_cluster(2, 8);
  for (auto& n : c.nodes) n.memory_mb = 1000;
  ClusterState s(c);
  Allocation hog;
  hog.shares.push_back({0, 1, {}, 900});
  s.take(hog);
  Job small = make_job({.ntasks = 2});
  EXPECT_EQ(nodes_of(must_select(c, s, small)), (V{0}));  // memory ignored
  small.req.mem_per_node_mb = 500;
  const Allocation a = must_select(c, s, small);
  EXPECT_EQ(nodes_of(a), (V{1}));
  EXPECT_EQ(a.shares[0].mem_mb, 500);
}

TEST(SlurmSelect, BusyClusterCannotStartTheJob) {
  const Cluster c = make_cluster(2, 8);
  ClusterState s(c);
  occupy(s, 0, 8);
  EXPECT_FALSE(select_nodes(c, s, make_job({.ntasks = 9})));
}

// Leaves s0 = n0-n3, s1 = n4-n7, s2 = n8-n11; s3 joins s0 and s1; s4 joins s3 and s2.
Cluster tree_cluster() {
  Cluster c = make_cluster(12, 4);
  SwitchTree t;
  for (int leaf = 0; leaf < 3; ++leaf) {
    Switch s;
    s.name = "s" + std::to_string(leaf);
    for (int i = 0; i < 4; ++i) s.nodes.push_back(leaf * 4 + i);
    t.switches.push_back(s);
  }
  Switch mid;
  mid.name = "s3";
  mid.children = {0, 1};
  t.switches.push_back(mid);
  Switch top;
  top.name = "s4";
  top.children = {3, 2};
  t.switches.push_back(top);
  t.finalize(c.nodes.size());
  c.topology = t;
  return c;
}

// s0 keeps 1 free node (n3), s1 4 (n4-n7), s2 3 (n9-n11).
ClusterState tree_state(const Cluster& c) {
  ClusterState s(c);
  for (NodeIndex n : {0, 1, 2, 8}) occupy(s, n, 4);
  return s;
}

TEST(SlurmSelectTopology, TightestLeafThatHoldsTheJob) {
  const Cluster c = tree_cluster();
  const Allocation a = must_select(c, tree_state(c), make_job({.ntasks = 3, .nodes_min = 3}));
  EXPECT_EQ(nodes_of(a), (V{9, 10, 11}));
}

TEST(SlurmSelectTopology, SpillsToTheClosestLeaf) {
  const Cluster c = tree_cluster();
  // No leaf holds 5 nodes; s1 wins (its parent holds the job), then s0, two hops away,
  // beats s2, four hops away.
  const Allocation a = must_select(c, tree_state(c), make_job({.ntasks = 5, .nodes_min = 5}));
  EXPECT_EQ(nodes_of(a), (V{3, 4, 5, 6, 7}));
  EXPECT_EQ(c.topology->lowest_common_level(a.nodes()), 2);
}

TEST(SlurmSelectTopology, TreeAndFlatChooseDifferentNodes) {
  const Cluster c = tree_cluster();
  SelectOptions flat;
  flat.use_topology = false;
  // Flat: runs n3-n7 (20 CPUs) and n9-n11 (12 CPUs); the tighter run wins, then its
  // first node. Tree: s0 has the fewest free nodes and still fits, so n3.
  const Job one = make_job({.ntasks = 1, .nodes_min = 1});
  EXPECT_EQ(nodes_of(must_select(c, tree_state(c), one, flat)), (V{9}));
  EXPECT_EQ(nodes_of(must_select(c, tree_state(c), one)), (V{3}));
}

TEST(SlurmSelectTopology, ContiguousFallsBackToFlatBestFit) {
  const Cluster c = tree_cluster();
  const Allocation a =
      must_select(c, tree_state(c), make_job({.ntasks = 5, .nodes_min = 5, .contiguous = true}));
  EXPECT_EQ(nodes_of(a), (V{3, 4, 5, 6, 7}));
  EXPECT_FALSE(select_nodes(c, tree_state(c), make_job({.ntasks = 6, .nodes_min = 6, .contiguous = true})));
}

}  // namespace
}  // namespace hs::slurm

namespace hs::slurm {
namespace {

TEST(SlurmSelectTopology, LowestTopSwitchKeepsTheJobUnderOneMiddleSwitch) {
  // Leaves s0-s3 of 4 nodes; s4 = {s0, s1}, s5 = {s2, s3}, s6 = top. Free nodes: s0 2,
  // s1 2, s2 3, s3 0. A 4-node job: 22.05 (top = s6) starts with the tightest leaf that
  // fits... none fits 4, so it compares parents (s4 holds 4, s5 only 3): s0 or s1 first,
  // then the sibling; the lowest-switch rule picks s4 directly. Both stay under s4 here,
  // while a 5-node job needs s6 either way.
  Cluster c = testing::make_cluster(16, 2);
  testing::add_two_level_tree(c, 4);
  ClusterState s(c);
  for (NodeIndex n : {0, 1, 4, 5, 8, 12, 13, 14, 15}) testing::occupy(s, n, 2);
  SelectOptions lowest;
  lowest.lowest_top_switch = true;
  const Job four = testing::make_job({.ntasks = 4, .nodes_min = 4});
  const auto a22 = select_nodes(c, s, four);
  const auto a2x = select_nodes(c, s, four, lowest);
  ASSERT_TRUE(a22 && a2x);
  EXPECT_EQ(a22->nodes(), (std::vector<NodeIndex>{2, 3, 6, 7}));
  EXPECT_EQ(a2x->nodes(), (std::vector<NodeIndex>{2, 3, 6, 7}));
  // A 3-node job: 22.05 takes the tightest leaf that fits (s2, 3 free); so does 2.x
  // (lowest switch holding 3 nodes: leaf s2).
  const Job three = testing::make_job({.ntasks = 3, .nodes_min = 3});
  EXPECT_EQ(select_nodes(c, s, three)->nodes(), (std::vector<NodeIndex>{9, 10, 11}));
  EXPECT_EQ(select_nodes(c, s, three, lowest)->nodes(), (std::vector<NodeIndex>{9, 10, 11}));
  // A 4-core job on one node's worth of CPUs but any node count (-n 4): 22.05 starts
  // from the leaf with the fewest free nodes that fits one node (s0: 2) — and 2.x from
  // the lowest switch holding 4 CPUs: s0 too (2 nodes x 2 cores).
  const Job cores = testing::make_job({.ntasks = 4});
  EXPECT_EQ(select_nodes(c, s, cores)->nodes(), (std::vector<NodeIndex>{2, 3}));
  EXPECT_EQ(select_nodes(c, s, cores, lowest)->nodes(), (std::vector<NodeIndex>{2, 3}));
}

TEST(SlurmSelectTopology, RulesDifferWhenTheTightestLeafSitsUnderAFullerSwitch) {
  // Leaves s0..s3 as above. Free: s0 1 node (n3), s1 0, s2 2 (n10-11), s3 2 (n14-15).
  // A 3-node job: no leaf fits; at parent level s5 (4 free) fits, so 22.05 starts with
  // s2. For the last node s0 (1 free, 4 hops) and s3 (2 free, 2 hops) both fit; s3 is
  // closer but a looser fit, and 22.05 only lets a closer leaf win when its fit is not
  // worse, so s0 wins and the job spans the top switch. Slurm 2.x first restricts the job
  // to the lowest switch holding it (s5) and stays there.
  Cluster c = testing::make_cluster(16, 1);
  testing::add_two_level_tree(c, 4);
  ClusterState s(c);
  for (NodeIndex n : {0, 1, 2, 4, 5, 6, 7, 8, 9, 12, 13}) testing::occupy(s, n, 1);
  SelectOptions lowest;
  lowest.lowest_top_switch = true;
  const Job three = testing::make_job({.ntasks = 3, .nodes_min = 3});
  EXPECT_EQ(select_nodes(c, s, three)->nodes(), (std::vector<NodeIndex>{3, 10, 11}));
  EXPECT_EQ(select_nodes(c, s, three, lowest)->nodes(), (std::vector<NodeIndex>{10, 11, 14}));
}

// choose_nodes' retries for a whole-node job. Sets [0,1] (7+8), [3,4] (8+4), [6,7] (8+5):
// none holds three nodes, so the first evaluation takes [0,1] (most CPUs) and fails at
// node 0. The retries drop node 4 (count 4) and node 7 (count 5), which leave [0,1] the
// first pick, so they fail alike (their evaluations are skipped); dropping node 0 (count
// 7) leaves single full nodes: 1, 3 and 6.
TEST(SlurmSelect, WholeNodeJobRetriesUntilThePartNodesAreDropped) {
  const Cluster c = make_cluster(8, 8);
  ClusterState s(c);
  occupy(s, 0, 1), occupy(s, 2, 8), occupy(s, 4, 4), occupy(s, 5, 8), occupy(s, 7, 3);
  const Allocation a = must_select(c, s, make_job({.ntasks = 24, .nodes_min = 3}));
  EXPECT_EQ(nodes_of(a), (V{1, 3, 6}));
  EXPECT_EQ(cores_of(a), (C{8, 8, 8}));
  occupy(s, 6, 1);  // now only two full nodes: no retry can succeed
  EXPECT_FALSE(select_nodes(c, s, make_job({.ntasks = 24, .nodes_min = 3})).has_value());
}

// Whole-node jobs (choose_full_offers) on 8-core nodes, 3 nodes x 8 CPUs. (1) Sets [0,3]
// (8+8+4+8) and [5] (2): [0,3] holds the job; after n0 and n1 one node is still needed, so
// the part node n2 is skipped and n3 taken. (2) [0,1] (7+8), [3,6] (3+24), [8,9] (8+6):
// [3,6] holds the job but starts with a part node, so the first evaluation fails; the
// retry that drops n3 (count 3) takes n4-n6. (3) [0,1] (8+2), [3,4] (5+8), [6], [8]: none
// holds the job, so [3,4] (most CPUs) is picked and fails at n3, and so does the retry
// that drops n1; dropping n3 leaves four single nodes, taken in index order.
TEST(SlurmSelect, WholeNodeJobTakesFullNodesPastPartOnes) {
  const Cluster c = make_cluster(10, 8);
  const Job job = make_job({.ntasks = 24, .nodes_min = 3});
  ClusterState last_node(c);
  occupy(last_node, 2, 4), occupy(last_node, 4, 8), occupy(last_node, 5, 6);
  for (NodeIndex n : {6, 7, 8, 9}) occupy(last_node, n, 8);
  EXPECT_EQ(nodes_of(must_select(c, last_node, job)), (V{0, 1, 3}));
  ClusterState retry(c);
  occupy(retry, 0, 1), occupy(retry, 2, 8), occupy(retry, 3, 5), occupy(retry, 7, 8);
  occupy(retry, 9, 2);
  EXPECT_EQ(nodes_of(must_select(c, retry, job)), (V{4, 5, 6}));
  ClusterState spread(c);
  occupy(spread, 1, 6), occupy(spread, 2, 8), occupy(spread, 3, 3), occupy(spread, 5, 8);
  occupy(spread, 7, 8), occupy(spread, 9, 8);
  const Allocation a = must_select(c, spread, job);
  EXPECT_EQ(nodes_of(a), (V{0, 4, 6}));
  EXPECT_EQ(cores_of(a), (C{8, 8, 8}));
}

// Node Weight: the lower-weight run is filled first even when it comes later in 1-D order.
TEST(SlurmSelect, LowerWeightNodesFirst) {
  Cluster c = make_cluster(4, 8);
  c.nodes[0].weight = c.nodes[1].weight = 10;
  const Allocation a = must_select(c, ClusterState(c), make_job({.ntasks = 12}));
  EXPECT_EQ(nodes_of(a), (V{2, 3}));
  // The compact weights (SelectOptions::weights) give the same choice.
  const std::vector<std::int32_t> weights = node_weights(c);
  EXPECT_EQ(weights, (std::vector<std::int32_t>{10, 10, 1, 1}));
  const Allocation compact =
      must_select(c, ClusterState(c), make_job({.ntasks = 12}), {.weights = weights});
  EXPECT_EQ(nodes_of(compact), (V{2, 3}));
}

// -C/-x (the bound mask), -w (required nodes first) and --exclusive (idle nodes, whole).
TEST(SlurmSelect, NodeRulesAndExclusive) {
  Cluster c = make_cluster(4, 8);
  for (Node& n : c.nodes) n.features = {n.name == "n3" ? "fast" : "slow"};
  Job masked = make_job({.ntasks = 4});
  masked.req.edit_node_rules().constraint.features = {"fast"};
  ASSERT_FALSE(bind_to_cluster(c, masked).has_value());
  EXPECT_EQ(nodes_of(must_select(c, ClusterState(c), masked)), (V{2}));
  Job listed = make_job({.ntasks = 10});
  listed.req.edit_node_rules().nodelist = {"n4"};
  ASSERT_FALSE(bind_to_cluster(c, listed).has_value());
  const Allocation with_n4 = must_select(c, ClusterState(c), listed);
  EXPECT_EQ(nodes_of(with_n4), (V{0, 3}));  // n4 first, then the best set for the rest
  ClusterState busy(c);
  occupy(busy, 0, 1);
  Job whole = make_job({.ntasks = 2});
  whole.req.exclusive = true;
  ASSERT_FALSE(bind_to_cluster(c, whole).has_value());
  const Allocation a = must_select(c, busy, whole);
  EXPECT_EQ(nodes_of(a), (V{1}));  // n1 is in use: never shared
  EXPECT_EQ(cores_of(a), (C{8}));
  occupy(busy, 3, 1);
  listed.req.edit_node_rules().nodelist = {"n4"};
  EXPECT_FALSE(select_nodes(c, busy, [&] {
                 Job j = listed;
                 j.req.exclusive = true;
                 return j;
               }()).has_value());  // its -w node is busy
}

}  // namespace
}  // namespace hs::slurm

namespace hs::slurm {
namespace {

// -n T -c C --gpus-per-task=G as units (JobRequest::task_cores): cons_tres lays whole tasks
// on nodes, floor(min(free cores / C, free GPUs / G)) of them per node, each task's cores
// and GPUs on its node.
Job units_job(int tasks, int task_cores, int gpus_per_task) {
  Job j = testing::make_job({.ntasks = tasks * task_cores});
  j.req.task_cores = task_cores;
  if (gpus_per_task > 0) j.req.gres.push_back({"gpu", 0, gpus_per_task, gpus_per_task});
  return j;
}

std::vector<int> gpus_of(const Allocation& a) {
  std::vector<int> out;
  for (const NodeShare& s : a.shares) out.push_back(s.gres[0]);
  return out;
}

TEST(SlurmSelectUnits, GpusPerTaskLimitTheTasksOfANode) {
  const Cluster c = testing::make_cluster(4, 8, 2);
  const ClusterState s(c);
  // 5 tasks of 2 cores and 1 GPU: a node holds min(8/2, 2/1) = 2 tasks.
  const Allocation a = must_select(c, s, units_job(5, 2, 1));
  EXPECT_EQ(nodes_of(a), (V{0, 1, 2}));
  EXPECT_EQ(cores_of(a), (C{4, 4, 2}));
  EXPECT_EQ(gpus_of(a), (C{2, 2, 1}));
}

TEST(SlurmSelectUnits, PartlyBusyNodesTakeWholeTasksOnly) {
  const Cluster c = testing::make_cluster(3, 8, 2);
  ClusterState s(c);
  occupy(s, 0, 3, 0);  // 5 cores free: 1 task of 4 cores
  occupy(s, 1, 0, 2);  // no GPU free: no task
  const Allocation a = must_select(c, s, units_job(3, 4, 1));
  EXPECT_EQ(nodes_of(a), (V{0, 2}));
  EXPECT_EQ(cores_of(a), (C{4, 8}));
  EXPECT_EQ(gpus_of(a), (C{1, 2}));
  EXPECT_FALSE(select_nodes(c, s, units_job(4, 4, 1)).has_value());  // only 3 tasks fit
}

TEST(SlurmSelectUnits, CoresOnlyTasksKeepOneTaskForEveryNodeStillNeeded) {
  const Cluster c = testing::make_cluster(4, 8);
  const ClusterState s(c);
  Job j = units_job(6, 3, 0);  // 6 tasks of 3 cores on at least 3 nodes
  j.req.nodes_min = 3;
  j.req.nodes_max = 4;
  const Allocation a = must_select(c, s, j);
  ASSERT_GE(a.node_count(), 3);
  for (const NodeShare& sh : a.shares) EXPECT_EQ(sh.cores % 3, 0) << sh.node;
  EXPECT_EQ(a.total_cores(), 18);
}

}  // namespace
}  // namespace hs::slurm
