#include "model/packed_allocation.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

namespace hs {
namespace {

NodeShare share(NodeIndex node, std::int32_t cores, GresCounts gres = {}, std::int64_t mem = 0) {
  return NodeShare{node, cores, gres, mem};
}

TEST(PackedAllocation, UnpacksToTheSameSharesInTheSameOrder) {
  GresCounts all{};
  for (int t = 0; t < kMaxGresTypes; ++t) all[t] = 100 * (t + 1);
  GresCounts last{};
  last[kMaxGresTypes - 1] = std::numeric_limits<std::int32_t>::max();
  Allocation a;
  a.shares = {share(7, 1),
              share(3, 12, {0, 4}),
              share(0, 64, all, 1),
              share(5, 0, last, std::numeric_limits<std::int64_t>::max()),
              share(2, 8, {}, std::int64_t{1} << 40),
              share(9, 2, {}, std::int64_t{0xFFFFFFFF})};
  const PackedAllocation packed(a);
  EXPECT_EQ(packed.unpack(), a);
  EXPECT_EQ(packed.node_count(), 6);
  EXPECT_EQ(packed.nodes(), a.nodes());
  EXPECT_EQ(packed.total_cores(), a.total_cores());
  for (int t = 0; t < kMaxGresTypes; ++t) EXPECT_EQ(packed.total_gres(t), a.total_gres(t));
}

TEST(PackedAllocation, AnEmptyAllocationStaysEmpty) {
  const PackedAllocation packed{Allocation{}};
  EXPECT_TRUE(packed.empty());
  EXPECT_EQ(packed.unpack(), Allocation{});
  EXPECT_EQ(packed, PackedAllocation{});
  EXPECT_FALSE(PackedAllocation(Allocation{{share(0, 1)}}).empty());
}

TEST(PackedAllocation, EqualExactlyWhenTheAllocationsAre) {
  const Allocation a{{share(1, 4, {1}), share(2, 4, {}, 500)}};
  Allocation b = a;
  EXPECT_EQ(PackedAllocation(a), PackedAllocation(b));
  b.shares[1].mem_mb = 501;
  EXPECT_NE(PackedAllocation(a), PackedAllocation(b));
  b = a;
  b.shares[0].gres[1] = 1;
  EXPECT_NE(PackedAllocation(a), PackedAllocation(b));
}

}  // namespace
}  // namespace hs
