#include "report/paired.hpp"

#include <gtest/gtest.h>

#include "report/report_text.hpp"

namespace hs::report {
namespace {

MetricRow row(const std::string& metric, std::vector<std::vector<double>> values) {
  MetricRow r;
  r.metric = metric;
  r.values = std::move(values);
  return r;
}

const std::vector<std::string> kNames = {"backfill", "aucsched2"};

TEST(Paired, StudentQuantiles) {
  EXPECT_DOUBLE_EQ(t_quantile_975(1), 12.706);
  EXPECT_DOUBLE_EQ(t_quantile_975(4), 2.776);
  EXPECT_DOUBLE_EQ(t_quantile_975(30), 2.042);
  EXPECT_NEAR(t_quantile_975(60), 2.000, 0.002);
  EXPECT_NEAR(t_quantile_975(120), 1.980, 0.002);
}

TEST(Paired, IntervalOfPerSeedDifferences) {
  // Differences 1, 1, 1.5: mean 7/6, sd sqrt(1/12), se sqrt(1/36) = 1/6, t(2) = 4.303.
  const auto d = paired_differences({row("wait_mean", {{1, 2, 3}, {2, 3, 4.5}})}, kNames,
                                    {"wait_mean"});
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].pairs, 3u);
  EXPECT_NEAR(d[0].mean, 7.0 / 6, 1e-12);
  EXPECT_NEAR(d[0].low, 7.0 / 6 - 4.303 / 6, 1e-12);
  EXPECT_NEAR(d[0].high, 7.0 / 6 + 4.303 / 6, 1e-12);
  EXPECT_NE(describe_difference(d[0]).find("significantly higher"), std::string::npos);
}

TEST(Paired, IntervalContainingZeroIsNotSignificant) {
  const auto d =
      paired_differences({row("wait_mean", {{1, 2, 3}, {2, 1, 3.5}})}, kNames, {"wait_mean"});
  ASSERT_EQ(d.size(), 1u);
  EXPECT_LT(d[0].low, 0);
  EXPECT_GT(d[0].high, 0);
  EXPECT_NE(describe_difference(d[0]).find("not significant"), std::string::npos);
}

TEST(Paired, IdenticalRepetitionsAndSingleRunsGiveNoInterval) {
  const auto same = paired_differences({row("wait_mean", {{5, 5, 5}, {7, 7, 7}})}, kNames,
                                       {"wait_mean"});
  EXPECT_TRUE(same[0].identical_repetitions);
  EXPECT_NE(describe_difference(same[0]).find("repetitions are identical"), std::string::npos);
  const auto equal =
      paired_differences({row("gpu_utilization", {{0, 0}, {0, 0}})}, kNames, {"gpu_utilization"});
  EXPECT_NE(describe_difference(equal[0]).find("equal in every repetition"), std::string::npos);
  const auto one = paired_differences({row("wait_mean", {{5}, {7}})}, kNames, {"wait_mean"});
  EXPECT_NE(describe_difference(one[0]).find("one repetition"), std::string::npos);
}

TEST(Paired, OnlyTheAskedMetricsAgainstTheFirstScheduler) {
  const std::vector<std::string> three = {"a", "b", "c"};
  const auto d = paired_differences(
      {row("x", {{1, 2}, {2, 3}, {3, 5}}), row("y", {{1, 1}, {1, 1}, {1, 1}})}, three, {"x", "z"});
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].scheduler, "b");
  EXPECT_EQ(d[1].scheduler, "c");
  EXPECT_EQ(d[1].baseline, "a");
  EXPECT_DOUBLE_EQ(d[1].mean, 2.5);
}

TEST(MetricUnits, NamedForTheHeadlineMetrics) {
  EXPECT_EQ(metric_unit("wait_mean"), "s");
  EXPECT_EQ(metric_unit("wait_p95"), "s");
  EXPECT_EQ(metric_unit("utilization"), "fraction");
  EXPECT_EQ(metric_unit("gpu_utilization"), "fraction");
  EXPECT_EQ(metric_unit("bounded_slowdown_p99"), "×");
  EXPECT_EQ(metric_unit("last_end"), "s since t=0");
  EXPECT_EQ(metric_unit("packing_factor_mean"), "");
}

}  // namespace
}  // namespace hs::report
