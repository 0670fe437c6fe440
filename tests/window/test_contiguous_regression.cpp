// Regression: AUCSCHED3 built nodesets only under leaf switches, so a --contiguous job wider
// than one leaf never got a bid and it (and every job behind it) stalled. These tests fail
// on that code.
#include <gtest/gtest.h>

#include "model/request_fit.hpp"
#include "policy/window/auction_bids.hpp"
#include "policy/window/switch_level.hpp"
#include "window_test_support.hpp"

namespace hs::window {
namespace {

using test::JobSpec;

// Leaves of `per_leaf` nodes; `leaves_per_mid` leaves under each level-2 switch (0 = the
// leaves hang directly under one top switch). Covers the first `covered` nodes only.
Cluster tree_cluster(int nodes, int per_leaf, int leaves_per_mid, int covered) {
  Cluster c = test::uniform_cluster(nodes, 4, 0);
  SwitchTree t;
  std::vector<std::int32_t> leaves;
  for (int first = 0; first < covered; first += per_leaf) {
    Switch s{"leaf" + std::to_string(first), 1, -1, {}, {}};
    for (int n = first; n < first + per_leaf && n < covered; ++n) s.nodes.push_back(n);
    leaves.push_back(static_cast<std::int32_t>(t.switches.size()));
    t.switches.push_back(s);
  }
  std::vector<std::int32_t> tops = leaves;
  if (leaves_per_mid > 0) {
    tops.clear();
    for (std::size_t k = 0; k < leaves.size(); k += leaves_per_mid) {
      Switch mid{"mid" + std::to_string(k), 2, -1, {}, {}};
      for (std::size_t m = k; m < k + leaves_per_mid && m < leaves.size(); ++m)
        mid.children.push_back(leaves[m]);
      tops.push_back(static_cast<std::int32_t>(t.switches.size()));
      t.switches.push_back(mid);
    }
  }
  if (tops.size() > 1) t.switches.push_back(Switch{"top", 3, -1, tops, {}});
  t.finalize(nodes);
  c.topology = t;
  return c;
}

std::vector<Candidate> aucsched3_bids(const Cluster& cluster, const JobSpec& spec) {
  ClusterState state(cluster);
  const FreeArrays free = FreeArrays::from(cluster, state);
  Job job = test::make_job(1, spec);
  bind_to_cluster(cluster, job);
  const WindowJob w = describe(job, 0, 10);
  AuctionConfig config;
  config.per_switch = true;
  config.gres_ranges = true;
  config.table = PreferenceTable::Aucsched2;
  std::vector<Candidate> out;
  generate_job_bids(cluster, free, w, 0, {}, config, 15, out);
  return out;
}

bool consecutive(const std::vector<NodeIndex>& nodes) {
  for (std::size_t k = 1; k < nodes.size(); ++k)
    if (nodes[k] != nodes[k - 1] + 1) return false;
  return !nodes.empty();
}

const JobSpec kSixNodeContiguous{.ntasks = 24, .nodes = 6, .contiguous = true};

TEST(Aucsched3RegressionContiguousWiderThanLeaf, BidsComeFromTheTopSwitchRuns) {
  const Cluster cluster = tree_cluster(8, 4, 0, 8);  // 2 leaves x 4 nodes, one top switch
  const auto bids = aucsched3_bids(cluster, kSixNodeContiguous);
  ASSERT_FALSE(bids.empty());
  for (const auto& b : bids) {
    EXPECT_EQ(b.nodes.size(), 6u);
    EXPECT_TRUE(consecutive(b.nodes));
    EXPECT_EQ(b.total_cores(), 24);
    EXPECT_EQ(common_switch_level(*cluster.topology, b.nodes), 2);
  }
}

TEST(Aucsched3RegressionContiguousWiderThanLeaf, ClimbsOnlyAsHighAsNeeded) {
  // 4 leaves x 2 nodes, two level-2 switches of 4 nodes, a level-3 top: a 3-node contiguous
  // job must stay under one level-2 switch (nodes 3 and 4 are only joined at level 3).
  const Cluster cluster = tree_cluster(8, 2, 2, 8);
  const auto bids = aucsched3_bids(cluster, JobSpec{.ntasks = 12, .nodes = 3, .contiguous = true});
  ASSERT_FALSE(bids.empty());
  for (const auto& b : bids) {
    EXPECT_TRUE(consecutive(b.nodes));
    EXPECT_EQ(common_switch_level(*cluster.topology, b.nodes), 2);
  }
}

TEST(Aucsched3RegressionContiguousWiderThanLeaf, FallsBackToTheFlatOrder) {
  // Only nodes 0-3 hang under a switch; a 6-node contiguous run must cross into the rest.
  const Cluster cluster = tree_cluster(8, 4, 0, 4);
  const auto bids = aucsched3_bids(cluster, kSixNodeContiguous);
  ASSERT_FALSE(bids.empty());
  for (const auto& b : bids) EXPECT_TRUE(consecutive(b.nodes));
}

class WideContiguousJob : public ::testing::TestWithParam<const char*> {};

TEST_P(WideContiguousJob, StartsAtOnceAndUnblocksTheQueue) {
  const Cluster cluster = tree_cluster(8, 4, 0, 8);
  JobSpec wide = kSixNodeContiguous;
  const Workload w = test::make_workload({wide, JobSpec{.ntasks = 2, .submit = 1}});
  const auto run = test::run_window(cluster, w, GetParam());
  EXPECT_TRUE(run.check.ok()) << (run.check.ok() ? "" : run.check.violations.front());
  ASSERT_EQ(run.result.records.size(), 2u);
  EXPECT_EQ(run.result.records[0].start, 0);
  EXPECT_TRUE(consecutive(run.result.records[0].alloc.nodes()));
  EXPECT_GE(run.result.records[1].start, 0);
}

INSTANTIATE_TEST_SUITE_P(Window, WideContiguousJob,
                         ::testing::Values("ipsched", "aucsched1", "aucsched2", "aucsched3"));

}  // namespace
}  // namespace hs::window
