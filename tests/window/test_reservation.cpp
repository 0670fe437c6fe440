#include <gtest/gtest.h>

#include "policy/window/reservation.hpp"
#include "window_test_support.hpp"

namespace hs::window {
namespace {

using test::JobSpec;

struct Busy {
  Cluster cluster = test::uniform_cluster(2, 4, 0);
  ClusterState free{cluster};
  Allocation a, b;
  std::vector<RunningJob> running;
  Workload w;
  Busy() {
    a.shares.push_back(NodeShare{0, 4, {}, 0});
    b.shares.push_back(NodeShare{1, 4, {}, 0});
    free.take(a);
    free.take(b);
    running = {RunningJob{0, 0, 100, &a}, RunningJob{1, 0, 200, &b}};
  }
  SystemView view(Time now) {
    SystemView v;
    v.now = now;
    v.cluster = &cluster;
    v.workload = &w;
    v.free = &free;
    v.running = running;
    return v;
  }
};

TEST(Reservation, StartsWhenEnoughRunningJobsReachTheirLimits) {
  Busy s;
  Job small = test::make_job(1, JobSpec{.ntasks = 4});
  Job big = test::make_job(2, JobSpec{.ntasks = 8});
  const auto r4 = plan_reservation(s.view(10), describe(small, 0, 5), 0, {});
  ASSERT_TRUE(r4.has_value());
  EXPECT_EQ(r4->start, 100);
  EXPECT_EQ(r4->spare.cores[0] + r4->spare.cores[1], 0);  // node 0 reserved, node 1 still busy
  const auto r8 = plan_reservation(s.view(10), describe(big, 0, 5), 0, {});
  ASSERT_TRUE(r8.has_value());
  EXPECT_EQ(r8->start, 200);
  Job huge = test::make_job(3, JobSpec{.ntasks = 9});
  EXPECT_FALSE(plan_reservation(s.view(10), describe(huge, 0, 5), 0, {}).has_value());
}

TEST(Reservation, OnlyJobsRunningPastTheStartHoldResources) {
  Reservation r;
  r.slot = 0;
  r.start = 100;
  WindowJob any;
  EXPECT_FALSE(overlaps_reservation(r, any, 0, 10, 1000));  // the protected job itself
  EXPECT_FALSE(overlaps_reservation(r, any, 1, 10, 90));    // ends by the start
  EXPECT_TRUE(overlaps_reservation(r, any, 1, 10, 91));
}

}  // namespace
}  // namespace hs::window

#include "policy/window/switch_level.hpp"
#include "util/rng.hpp"

namespace hs::window {
namespace {

// Three levels: 4 leaves of 4 nodes, two level-2 switches, one top; plus 2 nodes without a
// switch. The fast lifting agrees with the model's scan on random node sets.
TEST(SwitchLevel, AgreesWithTheModelsScan) {
  SwitchTree t;
  for (int l = 0; l < 4; ++l)
    t.switches.push_back(Switch{"leaf" + std::to_string(l), 1, -1, {}, {4 * l, 4 * l + 1, 4 * l + 2, 4 * l + 3}});
  t.switches.push_back(Switch{"mid0", 2, -1, {0, 1}, {}});
  t.switches.push_back(Switch{"mid1", 2, -1, {2, 3}, {}});
  t.switches.push_back(Switch{"top", 3, -1, {4, 5}, {}});
  t.finalize(18);
  Rng rng(7);
  for (int k = 0; k < 500; ++k) {
    std::vector<NodeIndex> nodes;
    for (NodeIndex n = 0; n < 18; ++n)
      if (rng.bernoulli(0.15)) nodes.push_back(n);
    EXPECT_EQ(common_switch_level(t, nodes), t.lowest_common_level(nodes));
  }
  const std::vector<NodeIndex> same_leaf{4, 6};
  EXPECT_EQ(common_switch_level(t, same_leaf), 1);
  const std::vector<NodeIndex> across{1, 13};
  EXPECT_EQ(common_switch_level(t, across), 3);
}

}  // namespace
}  // namespace hs::window
