#include <gtest/gtest.h>

#include "policy/window/nodesets.hpp"

namespace hs::window {
namespace {

struct Expected {
  int first, last, cores;
};

// Thesis Fig. 4.4 (1-based node numbers in the figure, 0-based here).
TEST(Nodesets, ThesisFigure44) {
  const std::vector<std::int32_t> cores{4, 8, 2, 4, 0, 4, 1, 2, 2, 2, 0, 4};
  const std::vector<std::int32_t> gpus{1, 2, 2, 0, 0, 2, 2, 1, 1, 0, 0, 1};
  const NodeFreeView view{cores, gpus};
  const std::vector<std::vector<Expected>> expected{
      {{1, 4, 18}, {6, 10, 11}, {12, 12, 4}},
      {{1, 3, 14}, {6, 9, 9}, {12, 12, 4}},
      {{2, 3, 10}, {6, 7, 5}},
  };
  for (int g = 0; g <= 2; ++g) {
    const auto sets = build_nodesets(view, g);
    ASSERT_EQ(sets.size(), expected[g].size()) << "g=" << g;
    for (std::size_t k = 0; k < sets.size(); ++k) {
      EXPECT_EQ(sets[k].first + 1, expected[g][k].first) << "g=" << g << " k=" << k;
      EXPECT_EQ(sets[k].last + 1, expected[g][k].last) << "g=" << g << " k=" << k;
      EXPECT_EQ(sets[k].cores, expected[g][k].cores) << "g=" << g << " k=" << k;
      EXPECT_EQ(sets[k].gres, g);
    }
  }
  EXPECT_TRUE(build_nodesets(view, 3).empty());
}

TEST(Nodesets, RunsBreakAtIndexGapsAndKeepGroup) {
  const std::vector<std::int32_t> cores(10, 2);
  const std::vector<NodeIndex> candidates{0, 1, 2, 5, 6, 9};
  const auto sets = build_runs(candidates, [](NodeIndex n) { return n != 6; }, cores, 0, 7);
  ASSERT_EQ(sets.size(), 3u);
  EXPECT_EQ(sets[0].first, 0);
  EXPECT_EQ(sets[0].last, 2);
  EXPECT_EQ(sets[0].cores, 6);
  EXPECT_EQ(sets[1].first, 5);
  EXPECT_EQ(sets[1].last, 5);
  EXPECT_EQ(sets[2].first, 9);
  EXPECT_EQ(sets[2].group, 7);
}

}  // namespace
}  // namespace hs::window
