#include <gtest/gtest.h>

#include "solver/compact_problem.hpp"
#include "solver/random_instances.hpp"

namespace hs::solver {
namespace {

TEST(RandomInstances, AreWellFormedAndRealistic) {
  RandomWindowSpec spec;
  spec.nodes = 256;
  spec.jobs = 60;
  spec.max_bids_per_job = 15;
  spec.seed = 7;
  const WindowProblem p = make_random_window(spec);
  EXPECT_FALSE(find_problem_defect(p));
  EXPECT_EQ(p.job_count, 60);
  EXPECT_EQ(p.dims, 2);
  std::vector<int> bids_per_job(p.job_count, 0);
  for (const Bid& bid : p.bids) {
    ++bids_per_job[bid.job];
    ASSERT_FALSE(bid.uses.empty());
    for (std::size_t k = 1; k < bid.uses.size(); ++k)  // contiguous node range
      EXPECT_EQ(bid.uses[k].node, bid.uses[k - 1].node + 1);
    for (const NodeUse& use : bid.uses) {  // every bid fits the free capacity on its own
      EXPECT_LE(use.amount[0], p.cap(use.node, 0));
      EXPECT_LE(use.amount[1], p.cap(use.node, 1));
      EXPECT_GE(use.amount[0], 1);
    }
  }
  int jobs_with_bids = 0;
  for (int count : bids_per_job) {
    EXPECT_LE(count, 15);
    jobs_with_bids += count > 0;
  }
  EXPECT_GT(jobs_with_bids, 40);
  std::int64_t partly_used = 0;
  for (std::int32_t n = 0; n < p.node_count; ++n) partly_used += p.cap(n, 0) < 12;
  EXPECT_GT(partly_used, 64);
  EXPECT_LT(partly_used, 192);
}

TEST(RandomInstances, SameSeedSameInstanceOtherSeedOtherInstance) {
  RandomWindowSpec spec;
  spec.seed = 11;
  const WindowProblem a = make_random_window(spec), b = make_random_window(spec);
  spec.seed = 12;
  const WindowProblem c = make_random_window(spec);
  ASSERT_EQ(a.bids.size(), b.bids.size());
  for (std::size_t i = 0; i < a.bids.size(); ++i) {
    EXPECT_EQ(a.bids[i].value, b.bids[i].value);
    EXPECT_EQ(a.bids[i].uses.front().node, b.bids[i].uses.front().node);
  }
  EXPECT_EQ(a.capacity, b.capacity);
  EXPECT_NE(a.capacity, c.capacity);
}

TEST(RandomInstances, ValueIsPriorityPlusScaledPreference) {
  RandomWindowSpec spec;
  spec.seed = 3;
  const WindowProblem p = make_random_window(spec);
  // priority = 1000 + 10 (J - j) + noise in [0, 9]; alpha = lowest priority / (bids + 1).
  const double max_alpha = (1000.0 + 10.0 + 9.0) / (static_cast<double>(p.bids.size()) + 1.0);
  for (const Bid& bid : p.bids) {
    const double base = 1000.0 + 10.0 * (spec.jobs - bid.job);
    EXPECT_GE(bid.value, base);
    EXPECT_LE(bid.value, base + 9.0 + max_alpha);
  }
}

}  // namespace
}  // namespace hs::solver
