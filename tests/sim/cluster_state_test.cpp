// ClusterState's change log: which nodes changed after a mark, and when that is no longer
// known (the window schedulers' free arrays follow it instead of comparing every node).
#include <gtest/gtest.h>

#include <algorithm>

#include "sim/cluster_state.hpp"
#include "sim/node_change_log.hpp"
#include "sim_fixtures.hpp"

namespace hs {
namespace {

Allocation cores_on(std::initializer_list<NodeIndex> nodes) {
  Allocation a;
  for (NodeIndex n : nodes) a.shares.push_back({.node = n, .cores = 1});
  return a;
}

std::vector<NodeIndex> sorted_unique(std::vector<NodeIndex> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

TEST(ClusterStateChanges, NamesTheNodesChangedAfterTheMark) {
  const Cluster c = testing::make_cluster(6, 4, 0);
  ClusterState s(c);
  s.take(cores_on({0}));  // before the mark: not reported
  const ClusterState::ChangeMark mark = s.change_mark();
  const Allocation a = cores_on({1, 3});
  s.take(a);
  s.release(a);
  s.take(cores_on({4}));
  std::vector<NodeIndex> nodes;
  ASSERT_TRUE(s.changed_since(mark, nodes));
  EXPECT_EQ(sorted_unique(nodes), (std::vector<NodeIndex>{1, 3, 4}));
}

TEST(ClusterStateChanges, UnknownAfterTooManyChangesOrAWholeAssignment) {
  const Cluster c = testing::make_cluster(2, 4, 0);
  ClusterState s(c);
  const ClusterState::ChangeMark mark = s.change_mark();
  const Allocation a = cores_on({1});
  for (std::uint64_t k = 0; k <= NodeChangeLog::kSize; ++k) k % 2 ? s.release(a) : s.take(a);
  std::vector<NodeIndex> nodes;
  EXPECT_FALSE(s.changed_since(mark, nodes));

  ClusterState t(c);
  const ClusterState::ChangeMark before = t.change_mark();
  t = s;  // a new history: earlier marks no longer apply
  EXPECT_FALSE(t.changed_since(before, nodes));
  const ClusterState::ChangeMark after = t.change_mark();
  EXPECT_TRUE(t.changed_since(after, nodes));
}

}  // namespace
}  // namespace hs
