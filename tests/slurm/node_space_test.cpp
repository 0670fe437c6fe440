#include <gtest/gtest.h>

#include "policy/slurm/node_space.hpp"
#include "policy/slurm/slurm_scheduler.hpp"
#include "util/error.hpp"

namespace hs::slurm {
namespace {

NodeBits bits(int n, std::initializer_list<int> on) {
  NodeBits b(n);
  for (int i : on) b.set(i);
  return b;
}

TEST(SlurmNodeSpace, ReservationRemovesWholeNodesOverItsInterval) {
  NodeSpace space;
  space.reset(0, 1000, 4);
  space.reserve(100, 300, bits(4, {1, 2}));
  EXPECT_EQ(space.slot_count(), 3u);
  NodeBits out;
  Time later = 0;
  const NodeBits all(4, true);
  space.usable_during(0, 50, all, out, later);  // before the reservation
  EXPECT_EQ(out.count(), 4);
  space.usable_during(0, 100, all, out, later);  // a slot starting exactly at the end counts
  EXPECT_EQ(out.count(), 2);
  EXPECT_EQ(later, 300);                         // nodes 1 and 2 come back at 300
  space.usable_during(300, 900, all, out, later);
  EXPECT_EQ(out.count(), 4);
  EXPECT_TRUE(space.overlaps(bits(4, {2}), 200, 400));
  EXPECT_FALSE(space.overlaps(bits(4, {0, 3}), 200, 400));
  EXPECT_FALSE(space.overlaps(bits(4, {2}), 300, 400));
}

TEST(SlurmNodeSpace, NodeBitsCountAcrossWords) {
  NodeBits b(130, true);
  EXPECT_EQ(b.count(), 130);
  b.reset(64);
  EXPECT_FALSE(b.test(64));
  EXPECT_EQ(b.count(), 129);
}

TEST(SlurmOptions, EveryOptionIsDocumentedAndChecked) {
  Params p = Params::parse("mode=easy,priority=multifactor,bf_window=60", "<test>");
  const SlurmConfig c = slurm_config_from(p);
  EXPECT_EQ(c.mode, BackfillMode::Easy);
  EXPECT_EQ(c.backfill.reserve_depth, 1);
  EXPECT_EQ(c.backfill.window, 3600);
  EXPECT_EQ(c.priority, PriorityType::Multifactor);
  EXPECT_EQ(c.multifactor.weight_age, 10080);
  EXPECT_GE(p.docs().size(), 17u);
  Params bad = Params::parse("mode=aggressive", "<test>");
  EXPECT_THROW(slurm_config_from(bad), InputError);
  Params unknown = Params::parse("bf_windw=60", "<test>");
  slurm_config_from(unknown);
  EXPECT_THROW(unknown.reject_unused("slurm"), InputError);
}

}  // namespace
}  // namespace hs::slurm
