#include "model/packed_allocation.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>

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

TEST(PackedAllocation, RunsOfEqualSharesOnConsecutiveNodesUnpackNodeByNode) {
  Allocation a;
  for (NodeIndex n = 10; n < 5000; ++n) a.shares.push_back(share(n, 4));  // one long run
  a.shares.push_back(share(5000, 3));                                    // cores differ
  a.shares.push_back(share(5002, 3));                                    // a gap
  a.shares.push_back(share(5003, 3, {0, 2}));                            // gres differ
  a.shares.push_back(share(5004, 3, {0, 2}));
  a.shares.push_back(share(5005, 3, {0, 2}, 64));                        // memory differs
  a.shares.push_back(share(5006, 3, {0, 2}, 64));
  a.shares.push_back(share(5007, 3, {0, 2}, 64));
  const PackedAllocation packed(a);
  EXPECT_EQ(packed.unpack(), a);
  EXPECT_EQ(packed.node_count(), a.node_count());
  EXPECT_EQ(packed.nodes(), a.nodes());
  EXPECT_EQ(packed.total_cores(), a.total_cores());
  EXPECT_EQ(packed.total_gres(1), a.total_gres(1));
}

TEST(PackedAllocation, RandomAllocationsRoundTrip) {
  std::mt19937 rng(59);
  for (int trial = 0; trial < 200; ++trial) {
    Allocation a;
    NodeIndex node = static_cast<NodeIndex>(rng() % 3);
    const int shares = static_cast<int>(rng() % 40);
    for (int i = 0; i < shares; ++i) {
      GresCounts gres{};
      gres[rng() % kMaxGresTypes] = static_cast<std::int32_t>(rng() % 2);
      a.shares.push_back(share(node, static_cast<std::int32_t>(1 + rng() % 2), gres,
                               static_cast<std::int64_t>(rng() % 2) << 33));
      node += static_cast<NodeIndex>(1 + rng() % 2 * (rng() % 3));
    }
    EXPECT_EQ(PackedAllocation(a).unpack(), a) << "trial " << trial;
  }
}

TEST(PackedAllocation, ARunDiffersFromTheSameNodesHeldDifferently) {
  const Allocation run{{share(1, 4), share(2, 4), share(3, 4)}};
  const Allocation split{{share(1, 4), share(2, 4), share(3, 5)}};
  const Allocation shorter{{share(1, 4), share(2, 4)}};
  EXPECT_NE(PackedAllocation(run), PackedAllocation(split));
  EXPECT_NE(PackedAllocation(run), PackedAllocation(shorter));
  EXPECT_EQ(PackedAllocation(run), PackedAllocation(Allocation{run}));
}

}  // namespace
}  // namespace hs
