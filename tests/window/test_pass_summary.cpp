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
  bad.first_problem = "node 3 over its cores";
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

TEST(PassSummary, EmptyRun) {
  const PassSummary s = summarize_passes({});
  EXPECT_EQ(s.passes, 0);
  EXPECT_EQ(s.solve_p99_s, 0.0);
}

}  // namespace
}  // namespace hs::window
