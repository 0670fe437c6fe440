#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "solver/job_count_bounds.hpp"
#include "util/rng.hpp"

namespace hs::solver {
namespace {

// A problem of jobs with the given bid values (capacities play no part in the bounds);
// bids listed in `unusable` do not fit the empty cluster.
CompactProblem jobs_with_bids(const std::vector<std::vector<double>>& values,
                              const std::vector<std::int32_t>& unusable = {}) {
  CompactProblem p;
  p.jobs = static_cast<std::int32_t>(values.size());
  p.job_bid_begin.push_back(0);
  for (std::int32_t j = 0; j < p.jobs; ++j) {
    for (double v : values[j]) {
      p.job_bids.push_back(p.bid_count());
      p.job_of_bid.push_back(j);
      p.value.push_back(v);
      p.usable.push_back(1);
    }
    p.job_bid_begin.push_back(p.bid_count());
  }
  for (std::int32_t bid : unusable) p.usable[bid] = 0;
  return p;
}

TEST(JobCountBounds, MostJobsWithinABoundAddTheCheapestBidsUp) {
  // Cheapest bids 5, 1 and 3: one job costs at least 1, two at least 4, three 9.
  const JobCountBounds counts(jobs_with_bids({{5, 7}, {2, 1}, {3}}));
  EXPECT_EQ(counts.jobs(), 3);
  EXPECT_EQ(counts.most_within(0.5), 0);
  EXPECT_EQ(counts.most_within(1.0), 1);
  EXPECT_EQ(counts.most_within(3.9), 1);
  EXPECT_EQ(counts.most_within(4.0), 2);
  EXPECT_EQ(counts.most_within(8.9), 2);
  EXPECT_EQ(counts.most_within(9.0), 3);
  EXPECT_EQ(counts.most_within(1e9), 3);
}

TEST(JobCountBounds, FewestJobsAboveAValueAddTheDearestBidsUp) {
  // Dearest bids 7, 2 and 3: one job is worth at most 7, two 10, three 12.
  const JobCountBounds counts(jobs_with_bids({{5, 7}, {2, 1}, {3}}));
  EXPECT_EQ(counts.fewest_above(-1.0), 0);  // starting nothing is worth more than -1
  EXPECT_EQ(counts.fewest_above(0.0), 1);
  EXPECT_EQ(counts.fewest_above(6.9), 1);
  EXPECT_EQ(counts.fewest_above(7.0), 2);
  EXPECT_EQ(counts.fewest_above(11.9), 3);
  EXPECT_EQ(counts.fewest_above(12.0), 4);  // no choice is worth more: more than every job
}

TEST(JobCountBounds, BidsThatNeverFitAreLeftOut) {
  // Job 0's cheap bid and job 1's only bid never fit: job 0 costs 10, job 1 is not counted.
  const JobCountBounds counts(jobs_with_bids({{1, 10}, {2}, {4}}, {0, 2}));
  EXPECT_EQ(counts.jobs(), 2);
  EXPECT_EQ(counts.most_within(13.9), 1);
  EXPECT_EQ(counts.most_within(14.0), 2);
}

// On random jobs, every choice of at most one bid per job starts no more jobs than
// most_within(any higher value) and no fewer than fewest_above(any lower value). (At its
// own value the sums may differ in the last bit: the solver asks with its tolerance added.)
TEST(JobCountBounds, HoldForEveryChoiceOfRandomJobs) {
  Rng rng(20261129);
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<std::vector<double>> values(6);
    for (auto& bids : values) {
      const int n = 1 + static_cast<int>(rng.uniform_int(0, 1));
      for (int b = 0; b < n; ++b) bids.push_back(1.0 + 99.0 * rng.uniform01());
    }
    const CompactProblem p = jobs_with_bids(values);
    const JobCountBounds counts(p);
    std::vector<int> pick(values.size(), -1);  // odometer over "no bid" and each bid
    for (;;) {
      double value = 0.0;
      std::int32_t started = 0;
      for (std::size_t j = 0; j < values.size(); ++j) {
        if (pick[j] < 0) continue;
        value += values[j][static_cast<std::size_t>(pick[j])];
        ++started;
      }
      EXPECT_LE(started, counts.most_within(value + 1e-9)) << trial;
      EXPECT_GE(started, counts.fewest_above(value - 1e-9)) << trial;
      std::size_t j = 0;
      while (j < values.size() && ++pick[j] == static_cast<int>(values[j].size())) pick[j++] = -1;
      if (j == values.size()) break;
    }
  }
}

}  // namespace
}  // namespace hs::solver
