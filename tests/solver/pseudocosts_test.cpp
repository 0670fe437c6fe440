#include "solver/pseudocosts.hpp"

#include <gtest/gtest.h>

namespace hs::solver {
namespace {

TEST(Pseudocosts, EstimateIsTheMeanLossPerUnitOfChange) {
  Pseudocosts costs(3);
  costs.record(0, false, 2.0, 0.5);  // 4 per unit down
  costs.record(0, false, 6.0, 0.75);  // 8 per unit down
  costs.record(0, true, 3.0, 0.25);  // 4 per unit up
  EXPECT_DOUBLE_EQ(costs.estimate(0, false, 0.5), 3.0);  // mean 6 × 0.5
  EXPECT_DOUBLE_EQ(costs.estimate(0, true, 0.5), 2.0);   // 4 × 0.5
}

TEST(Pseudocosts, UnseenColumnsBorrowTheMeanOfAllSeenThatWay) {
  Pseudocosts costs(3);
  EXPECT_DOUBLE_EQ(costs.estimate(2, true, 0.25), 0.75);  // nothing seen: 1 per unit
  costs.record(0, true, 1.0, 0.5);  // 2 per unit up
  costs.record(1, true, 2.0, 0.0);  // 2 per unit up
  EXPECT_DOUBLE_EQ(costs.estimate(2, true, 0.25), 1.5);
  EXPECT_DOUBLE_EQ(costs.estimate(2, false, 0.25), 0.25);  // still nothing seen down
}

TEST(Pseudocosts, NegativeLossesCountAsNothingAndNoChangeIsNotRecorded) {
  Pseudocosts costs(2);
  costs.record(0, false, -5.0, 0.5);
  costs.record(0, false, 1.0, 0.0);  // the column did not move: no record
  EXPECT_DOUBLE_EQ(costs.estimate(0, false, 0.5), 0.0);
  EXPECT_FALSE(costs.reliable(0, 2));
}

TEST(Pseudocosts, ReliableOnceSeenEnoughTimesBothWays) {
  Pseudocosts costs(1);
  for (int i = 0; i < 3; ++i) costs.record(0, false, 1.0, 0.5);
  costs.record(0, true, 1.0, 0.5);
  EXPECT_TRUE(costs.reliable(0, 1));
  EXPECT_FALSE(costs.reliable(0, 2));
  costs.record(0, true, 1.0, 0.5);
  EXPECT_TRUE(costs.reliable(0, 2));
}

}  // namespace
}  // namespace hs::solver
