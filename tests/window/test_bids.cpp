#include <gtest/gtest.h>

#include "policy/window/auction_bids.hpp"
#include "model/request_fit.hpp"
#include "policy/window/preference.hpp"
#include "window_test_support.hpp"

namespace hs::window {
namespace {

using test::JobSpec;

struct Fixture {
  Cluster cluster;
  ClusterState state;
  FreeArrays free;
  explicit Fixture(int nodes, int cores, int gpus)
      : cluster(test::uniform_cluster(nodes, cores, gpus)),
        state(cluster),
        free(FreeArrays::from(cluster, state)) {}
  std::vector<Candidate> bids(const JobSpec& spec, AuctionConfig config = {}, int budget = 15) {
    Job job = test::make_job(1, spec);
    bind_to_cluster(cluster, job);
    const WindowJob w = describe(job, 0, 10);
    std::vector<Candidate> out;
    generate_job_bids(cluster, free, w, 0, {}, config, budget, out);
    return out;
  }
};

std::vector<NodeIndex> nodes_of(const Candidate& c) { return c.nodes; }

TEST(Bids, ClassesAandBForCoresOnlyJob) {
  Fixture f(8, 4, 2);
  const auto bids = f.bids(JobSpec{.ntasks = 6});
  ASSERT_EQ(bids.size(), 4u);
  EXPECT_EQ(bids[0].cls, BidClass::A);
  EXPECT_EQ(nodes_of(bids[0]), (std::vector<NodeIndex>{0, 1}));
  EXPECT_EQ(bids[0].cores, (std::vector<std::int32_t>{4, 2}));
  EXPECT_EQ(bids[1].cls, BidClass::A);
  EXPECT_EQ(nodes_of(bids[1]), (std::vector<NodeIndex>{6, 7}));
  EXPECT_EQ(bids[1].cores, (std::vector<std::int32_t>{2, 4}));
  EXPECT_EQ(bids[2].cls, BidClass::B);
  EXPECT_EQ(nodes_of(bids[2]), (std::vector<NodeIndex>{2, 3}));
  EXPECT_EQ(bids[3].cls, BidClass::B);
  EXPECT_EQ(nodes_of(bids[3]), (std::vector<NodeIndex>{4, 5}));
  for (const auto& b : bids) EXPECT_EQ(b.total_cores(), 6);
}

TEST(Bids, WholeNodesetSpreadBidForCoresOnlyJob) {
  Fixture f(4, 8, 2);
  const auto bids = f.bids(JobSpec{.ntasks = 16});
  // A start {0,1}, A end {2,3}, and the whole nodeset with 4 cores on each node.
  ASSERT_EQ(bids.size(), 3u);
  EXPECT_EQ(bids[2].cls, BidClass::A);
  EXPECT_EQ(bids[2].cores, (std::vector<std::int32_t>{4, 4, 4, 4}));
}

TEST(Bids, ClassCCombinesNodesetsUnlessContiguous) {
  Fixture f(8, 4, 2);
  f.free.cores[3] = 0;  // nodesets {0..2} (12 cores) and {4..7} (16 cores)
  const auto bids = f.bids(JobSpec{.ntasks = 14});
  // A from each end of {4..7} (the partly used node differs), then C over both nodesets.
  ASSERT_EQ(bids.size(), 3u);
  EXPECT_EQ(bids[0].cls, BidClass::A);
  EXPECT_EQ(nodes_of(bids[0]), (std::vector<NodeIndex>{4, 5, 6, 7}));
  EXPECT_EQ(bids[0].cores, (std::vector<std::int32_t>{4, 4, 4, 2}));
  EXPECT_EQ(bids[1].cls, BidClass::A);
  EXPECT_EQ(bids[1].cores, (std::vector<std::int32_t>{2, 4, 4, 4}));
  EXPECT_EQ(bids[2].cls, BidClass::C);
  EXPECT_EQ(nodes_of(bids[2]), (std::vector<NodeIndex>{0, 1, 2, 4}));
  EXPECT_EQ(bids[2].nodesets, 2);
  EXPECT_EQ(bids[2].total_cores(), 14);

  const auto contiguous = f.bids(JobSpec{.ntasks = 14, .contiguous = true});
  ASSERT_EQ(contiguous.size(), 2u);
  for (const auto& b : contiguous) EXPECT_EQ(b.cls, BidClass::A);
}

TEST(Bids, NodeCountJobsGetExactNodesEvenCoresAndGres) {
  Fixture f(8, 8, 2);
  f.free.gres[0][0] = 1;  // node 0 cannot give 2 GPUs: nodeset at g=2 is {1..7}
  const auto bids = f.bids(JobSpec{.ntasks = 6, .nodes = 2, .gpus = 2});
  ASSERT_FALSE(bids.empty());
  for (const auto& b : bids) {
    EXPECT_EQ(b.nodes.size(), 2u);
    EXPECT_EQ(b.cores, (std::vector<std::int32_t>{3, 3}));
    EXPECT_EQ(b.gres_per_node, 2);
    EXPECT_NE(b.nodes.front(), 0);
  }
  EXPECT_EQ(nodes_of(bids[0]), (std::vector<NodeIndex>{1, 2}));
  EXPECT_EQ(nodes_of(bids[1]), (std::vector<NodeIndex>{6, 7}));
}

TEST(Bids, CoresPerNodeJobsTakeExactlyThatManyCores) {
  Fixture f(6, 8, 2);
  f.free.cores[1] = 2;  // too few for 4 per node
  const auto bids = f.bids(JobSpec{.ntasks = 8, .cpn = 4});
  ASSERT_FALSE(bids.empty());
  for (const auto& b : bids) {
    EXPECT_EQ(b.cores, (std::vector<std::int32_t>{4, 4}));
    for (NodeIndex n : b.nodes) EXPECT_NE(n, 1);
  }
}

TEST(Bids, GresRangesProduceBidsForEveryCountInRange) {
  Fixture f(6, 8, 3);
  AuctionConfig ranges;
  ranges.gres_ranges = true;
  ranges.table = PreferenceTable::Aucsched2;
  const auto bids = f.bids(JobSpec{.ntasks = 4, .nodes = 2, .gpus = 1, .gpus_max = 3}, ranges);
  std::set<std::int32_t> seen;
  for (const auto& b : bids) {
    EXPECT_GE(b.gres_per_node, 1);
    EXPECT_LE(b.gres_per_node, 3);
    seen.insert(b.gres_per_node);
  }
  EXPECT_EQ(seen, (std::set<std::int32_t>{1, 2, 3}));
  // More GPUs per node, higher preference (k4 term) for the same class and node count.
  EXPECT_EQ(bids[0].gres_per_node, 3);
  AuctionConfig fixed;
  for (const auto& b : f.bids(JobSpec{.ntasks = 4, .nodes = 2, .gpus = 1, .gpus_max = 3}, fixed))
    EXPECT_EQ(b.gres_per_node, 1);
}

TEST(Bids, PerJobBudgetIsRespected) {
  Fixture f(64, 4, 0);
  EXPECT_EQ(f.bids(JobSpec{.ntasks = 4}, {}, 5).size(), 5u);
}

TEST(Bids, SwitchNodesetsNeverCrossLeafSwitches) {
  Fixture f(8, 4, 0);
  SwitchTree t;
  Switch a{"s1", 1, -1, {}, {0, 1, 2, 3}};
  Switch b{"s2", 1, -1, {}, {4, 5, 6, 7}};
  Switch top{"top", 2, -1, {0, 1}, {}};
  t.switches = {a, b, top};
  t.finalize(8);
  f.cluster.topology = t;
  AuctionConfig sw;
  sw.per_switch = true;
  const auto bids = f.bids(JobSpec{.ntasks = 8}, sw);
  for (const auto& b : bids)
    if (b.cls != BidClass::C) {
      const bool left = b.nodes.back() <= 3, right = b.nodes.front() >= 4;
      EXPECT_TRUE(left || right);
    }
}

// Eq. 4.12 with Table 4.4, and eq. 5.7 with Table 5.2, on hand-computed values.
TEST(Preference, Table44Values) {
  WindowJob t1;
  t1.type = JobType::CoresOnly;
  Candidate c;
  c.nodes = {0, 1};
  c.cls = BidClass::A;
  EXPECT_DOUBLE_EQ(preference(PreferenceTable::Aucsched1, t1, c, 8, 2), 1 - 0.25 * 2 / 9.0);
  c.cls = BidClass::B;
  EXPECT_DOUBLE_EQ(preference(PreferenceTable::Aucsched1, t1, c, 8, 2), 0.75 - 0.25 * 2 / 9.0);
  c.cls = BidClass::C;
  c.nodesets = 2;
  EXPECT_DOUBLE_EQ(preference(PreferenceTable::Aucsched1, t1, c, 8, 2),
                   0.5 - 0.25 * 2 / 9.0 - 0.25 * 2 / 3.0);
  WindowJob t2;
  t2.type = JobType::NodesAndCores;
  c.cls = BidClass::A;
  EXPECT_DOUBLE_EQ(preference(PreferenceTable::Aucsched1, t2, c, 8, 2), 1.0);
  c.cls = BidClass::C;
  EXPECT_DOUBLE_EQ(preference(PreferenceTable::Aucsched1, t2, c, 8, 2), 0.5 - 0.5 * 2 / 3.0);
  c.cls = BidClass::Slurm;
  EXPECT_DOUBLE_EQ(preference(PreferenceTable::Aucsched1, t2, c, 8, 2), 1.0);
}

TEST(Preference, RangesOfTable44HoldForCoresOnlyJobs) {
  WindowJob t1;
  t1.type = JobType::CoresOnly;
  for (int nodes = 1; nodes <= 100; nodes += 9) {
    Candidate c;
    c.nodes.assign(nodes, 0);
    c.cls = BidClass::A;
    const double a = preference(PreferenceTable::Aucsched1, t1, c, 100, 10);
    c.cls = BidClass::B;
    const double b = preference(PreferenceTable::Aucsched1, t1, c, 100, 10);
    c.cls = BidClass::C;
    c.nodesets = 3;
    const double cc = preference(PreferenceTable::Aucsched1, t1, c, 100, 10);
    EXPECT_GT(a, 0.75);
    EXPECT_LE(a, 1.0);
    EXPECT_GT(b, 0.5);
    EXPECT_LT(b, 0.75);
    EXPECT_GT(cc, 0.0);
    EXPECT_LT(cc, 0.5);
  }
}

TEST(Preference, Table52AddsGresTerm) {
  WindowJob t3;
  t3.type = JobType::CoresPerNode;
  t3.gres_min = 1;
  t3.gres_max = 3;
  Candidate c;
  c.nodes = {0, 1};
  c.cls = BidClass::C;
  c.nodesets = 2;
  c.gres_per_node = 2;
  EXPECT_DOUBLE_EQ(preference(PreferenceTable::Aucsched2, t3, c, 8, 4),
                   1 - 0.4 - 0.1 * 2 / 5.0 + 0.1 * 3 / 4.0);
}

}  // namespace
}  // namespace hs::window
