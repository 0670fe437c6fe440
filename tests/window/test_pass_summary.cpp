#include <gtest/gtest.h>

#include "policy/window/pass_summary.hpp"

namespace hs::window {
namespace {

PassStats solved(int jobs, int bids, double seconds) {
  PassStats p;
  p.window = jobs;
  p.bids = bids;
  p.solves = 1;
  p.solve_seconds = seconds;
  return p;
}

TEST(PassSummary, CountsSizesPercentilesAndFailures) {
  std::vector<PassStats> passes;
  for (int i = 1; i <= 100; ++i) passes.push_back(solved(10, 100, i * 1e-3));
  PassStats skipped;
  skipped.repeated = true;
  passes.push_back(skipped);
  passes.push_back(PassStats{});  // no bid fitted: the solver was not called
  PassStats bad = solved(30, 400, 0.5);
  bad.timed_out = true;
  bad.fallback = true;
  bad.rejected_proposals = 2;
  bad.first_problem = std::make_shared<const std::string>("node 3 over its cores");
  passes.push_back(bad);
  const PassSummary s = summarize_passes(passes);
  EXPECT_EQ(s.passes, 103);
  EXPECT_EQ(s.solved, 101);
  EXPECT_EQ(s.repeated, 1);
  EXPECT_DOUBLE_EQ(s.mean_window, (100 * 10 + 30) / 101.0);
  EXPECT_DOUBLE_EQ(s.mean_bids, (100 * 100 + 400) / 101.0);
  EXPECT_DOUBLE_EQ(s.solve_p50_s, 0.051);
  EXPECT_DOUBLE_EQ(s.solve_p99_s, 0.100);
  EXPECT_DOUBLE_EQ(s.solve_max_s, 0.5);
  EXPECT_EQ(s.timeouts, 1);
  EXPECT_EQ(s.fallbacks, 1);
  EXPECT_EQ(s.rejected_proposals, 2);
  EXPECT_EQ(s.first_problem, "node 3 over its cores");
}

TEST(PassSummary, GapToTheSolversBound) {
  std::vector<PassStats> passes;
  for (int i = 0; i < 20; ++i) {
    PassStats p = solved(10, 100, 1e-3);
    p.objective = 100.0;
    p.bound = 100.0 + i;  // gaps 0, 1/101, ..., 19/119
    p.proven = i == 0;
    passes.push_back(p);
  }
  PassStats empty_bound = solved(1, 1, 1e-3);  // objective 0, bound 0.5: gap 0.5 / 1
  empty_bound.bound = 0.5;
  passes.push_back(empty_bound);
  const PassSummary s = summarize_passes(passes);
  EXPECT_EQ(s.proven, 1);
  EXPECT_DOUBLE_EQ(s.gap_p50, 10.0 / 110.0);
  EXPECT_DOUBLE_EQ(s.gap_p95, 19.0 / 119.0);
  EXPECT_DOUBLE_EQ(s.gap_max, 0.5);
  PassStats better_than_bound;  // a rounding-level excess never counts as a negative gap
  better_than_bound.objective = 10.000001;
  better_than_bound.bound = 10.0;
  EXPECT_EQ(bound_gap(better_than_bound), 0.0);
}

TEST(PassSummary, EmptyRun) {
  const PassSummary s = summarize_passes({});
  EXPECT_EQ(s.passes, 0);
  EXPECT_EQ(s.solve_p99_s, 0.0);
}

}  // namespace
}  // namespace hs::window
