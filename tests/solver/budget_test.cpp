// The solvers' budget: the effort limit, and the part of it handed to a search on its behalf.
#include <gtest/gtest.h>

#include "solver/budget.hpp"

namespace hs::solver {
namespace {

TEST(Budget, APartHasItsOwnLimitAndNoClockWhenTheWholeHasNone) {
  Budget whole(1000, 0.0);
  whole.effort() += 400;
  Budget part = whole.part(300);
  EXPECT_EQ(part.limit(), 300);
  EXPECT_EQ(part.spent(), 0);
  EXPECT_TRUE(part.affordable(300));
  EXPECT_FALSE(part.affordable(301));
  part.effort() += 300;
  EXPECT_TRUE(part.exhausted());
  EXPECT_EQ(whole.spent(), 400) << "what a part spends is the caller's to add";
}

TEST(Budget, APartEndsWhenTheWholesClockDoes) {
  Budget spent_clock(1000, 1e-9);
  while (!spent_clock.exhausted()) {
  }
  Budget part = spent_clock.part(1000);
  EXPECT_TRUE(part.exhausted()) << "a part of a budget out of time is out of time too";
  Budget roomy(1000, 3600.0);
  EXPECT_FALSE(roomy.part(1000).exhausted());
}

}  // namespace
}  // namespace hs::solver
