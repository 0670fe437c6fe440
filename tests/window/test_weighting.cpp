#include <gtest/gtest.h>

#include "model/job_nodes.hpp"
#include "model/request_fit.hpp"
#include "policy/window/auction_bids.hpp"
#include "window_test_support.hpp"

namespace hs {
namespace {

using test::JobSpec;

// 3 x 4 cores with the middle node busy: J1 (8 cores) can only combine the two outer
// nodesets (class C, low F); J2 (4 cores, lower priority) has class A bids. The two exclude
// each other. The documents' alpha weight lets J2's preference outweigh the priority
// difference of 1; the lexicographic weight keeps the higher priority first. Both without the
// starvation guard, as in the documents (the guard would hold J1's placement).
Decisions one_pass(const std::string& options) {
  const Cluster cluster = test::uniform_cluster(3, 4, 0);
  Workload w = test::make_workload({JobSpec{.ntasks = 8}, JobSpec{.ntasks = 4}});
  bind_workload(cluster, w);
  ClusterState free(cluster);
  Allocation busy;
  busy.shares.push_back(NodeShare{1, 4, {}, 0});
  free.take(busy);
  Params params = Params::parse(options, "<test>");
  auto s = make_window_scheduler("aucsched1", params);
  std::vector<JobRef> pending{0, 1};
  SystemView view;
  view.cluster = &cluster;
  view.workload = &w;
  view.free = &free;
  view.pending = pending;
  return s->decide(view, {});
}

TEST(Weighting, AlphaCanInvertPriorityOrder) {
  const Decisions d = one_pass("slurm_bids=false,solver=exhaustive,starvation=none");
  ASSERT_EQ(d.starts.size(), 1u);
  EXPECT_EQ(d.starts[0].job, 1);
}

TEST(Weighting, LexicographicKeepsPrioritySumFirst) {
  const Decisions d =
      one_pass("slurm_bids=false,solver=exhaustive,weighting=lexicographic,starvation=none");
  ASSERT_EQ(d.starts.size(), 1u);
  EXPECT_EQ(d.starts[0].job, 0);
  EXPECT_EQ(d.starts[0].alloc.nodes(), (std::vector<NodeIndex>{0, 2}));
}

// Slurm bids are computed in window order on a state updated with earlier Slurm bids.
TEST(SlurmBids, FollowTheWindowWithStateUpdated) {
  const Cluster cluster = test::uniform_cluster(4, 8, 2);
  Workload w = test::make_workload({JobSpec{.ntasks = 16}, JobSpec{.ntasks = 16},
                                    JobSpec{.ntasks = 16}});
  bind_workload(cluster, w);
  const ClusterState state(cluster);
  std::vector<window::WindowJob> window;
  std::vector<const Job*> jobs;
  std::vector<std::vector<char>> masks;
  for (JobRef j = 0; j < 3; ++j) {
    window.push_back(window::describe(w.jobs[j], j, 10 - j));
    jobs.push_back(&w.jobs[j]);
    masks.push_back(hs::job_node_mask(cluster, w.jobs[j]));
  }
  window::AuctionConfig config;
  config.slurm_bids = true;
  window::AuctionInput in{&cluster, &state, window, jobs, masks};
  const auto bids = window::generate_auction_bids(in, config);
  std::vector<const window::Candidate*> slurm;
  for (const auto& b : bids)
    if (b.cls == window::BidClass::Slurm) slurm.push_back(&b);
  ASSERT_EQ(slurm.size(), 2u);  // the third job no longer fits after the first two
  EXPECT_EQ(slurm[0]->slot, 0);
  EXPECT_EQ(slurm[1]->slot, 1);
  for (NodeIndex a : slurm[0]->nodes)
    for (NodeIndex b : slurm[1]->nodes) EXPECT_NE(a, b);
  EXPECT_DOUBLE_EQ(slurm[0]->preference, 1.0);
}

}  // namespace
}  // namespace hs
