#include "report/comparison_report.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "report/gnuplot_runner.hpp"
#include "report/report_text.hpp"
#include "report_fixtures.hpp"
#include "util/error.hpp"

namespace hs {
namespace {

namespace fs = std::filesystem;
using report_test::fresh_dir;
using report_test::make_runs;

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// summary.csv read independently of the report's reader: metric -> value.
std::vector<std::pair<std::string, double>> summary_by_hand(const std::string& dir) {
  std::ifstream in(dir + "/summary.csv");
  std::string line;
  std::getline(in, line);
  std::vector<std::pair<std::string, double>> out;
  while (std::getline(in, line)) {
    const auto comma = line.find(',');
    out.push_back({line.substr(0, comma), std::stod(line.substr(comma + 1))});
  }
  return out;
}

TEST(AggregateSummaries, MeanAndSampleStdMatchTheSummaryFiles) {
  const ComparisonInput in = make_runs(fresh_dir("aggregate"), 3);
  const std::vector<MetricRow> rows = aggregate_summaries(in);
  const auto first = summary_by_hand(in.schedulers[0].run_dirs[0]);
  ASSERT_EQ(rows.size(), first.size());
  for (std::size_t s = 0; s < in.schedulers.size(); ++s) {
    std::vector<std::vector<std::pair<std::string, double>>> reps;
    for (const std::string& d : in.schedulers[s].run_dirs) reps.push_back(summary_by_hand(d));
    for (std::size_t m = 0; m < rows.size(); ++m) {
      EXPECT_EQ(rows[m].metric, first[m].first);
      const double a = reps[0][m].second, b = reps[1][m].second, c = reps[2][m].second;
      const double mean = (a + b + c) / 3;
      const double std = std::sqrt(
          ((a - mean) * (a - mean) + (b - mean) * (b - mean) + (c - mean) * (c - mean)) / 2);
      EXPECT_NEAR(rows[m].mean[s], mean, 1e-9 * (1 + std::fabs(mean))) << rows[m].metric;
      EXPECT_NEAR(rows[m].std[s], std, 1e-9 * (1 + std)) << rows[m].metric;
    }
  }
  // The runs really differ: the repetitions stretch run times, so spans differ.
  const auto span =
      std::find_if(rows.begin(), rows.end(), [](auto& r) { return r.metric == "span"; });
  ASSERT_NE(span, rows.end());
  EXPECT_GT(span->std[0], 0);
  EXPECT_EQ(rows[0].metric, "jobs");
  EXPECT_EQ(rows[0].mean[0], 10);
  EXPECT_EQ(rows[0].std[1], 0);
}

TEST(AggregateSummaries, SingleRepetitionHasZeroStd) {
  const ComparisonInput in = make_runs(fresh_dir("single"), 1);
  for (const MetricRow& r : aggregate_summaries(in)) {
    EXPECT_EQ(r.std[0], 0);
    EXPECT_EQ(r.std[1], 0);
  }
}

TEST(ComparisonReport, TablesHoldTheAggregatesHeadlineFirst) {
  const std::string root = fresh_dir("tables");
  const ComparisonInput in = make_runs(root, 2);
  ReportOptions opt;
  opt.gnuplot = "/nonexistent/gnuplot";  // tables only; plots are tested separately
  const ReportFiles files = write_comparison_report(in, root + "/out", opt);
  const std::string md = slurp(files.markdown), html = slurp(files.html);
  ASSERT_FALSE(md.empty());
  ASSERT_FALSE(html.empty());
  EXPECT_NE(md.find("| metric | first-fit | last-fit |"), std::string::npos);
  EXPECT_NE(md.find("report_test --fake"), std::string::npos);
  EXPECT_NE(md.find("4 nodes x (4 cores, 2 gpu)"), std::string::npos);
  const std::vector<MetricRow> rows = aggregate_summaries(in);
  for (const MetricRow& r : rows) {
    std::string cells;
    for (std::size_t s = 0; s < 2; ++s)
      cells += " " + report::format_mean_std(r.mean[s], r.std[s]) + " |";
    const bool headline =
        r.metric == "utilization" || r.metric == "wait_mean" || r.metric == "gpu_utilization";
    const std::string label = report::metric_label(r.metric);
    const std::string name = headline ? "**" + label + "**" : label;
    EXPECT_NE(md.find("| " + name + " |" + cells + "\n"), std::string::npos) << r.metric;
    EXPECT_NE(html.find(">" + report::format_mean_std(r.mean[0], r.std[0]) + "<"),
              std::string::npos);
  }
  // Headline metrics lead the table in the order asked; the unknown one is reported.
  const auto pos = [&](const std::string& s) { return md.find(s); };
  EXPECT_LT(pos("| **utilization (fraction)** |"), pos("| **wait_mean (s)** |"));
  EXPECT_LT(pos("| **wait_mean (s)** |"), pos("| **gpu_utilization (fraction)** |"));
  EXPECT_LT(pos("| **gpu_utilization (fraction)** |"), pos("| jobs |"));
  EXPECT_NE(md.find("not measured in these runs: no_such_metric."), std::string::npos);
  EXPECT_NE(md.find("| jobs | 10 ± 0 | 10 ± 0 |"), std::string::npos);
  // No plotter: the report says so, lists no image, but the scripts are there.
  EXPECT_TRUE(files.images.empty());
  EXPECT_NE(md.find("gnuplot was not found"), std::string::npos);
  EXPECT_NE(html.find("gnuplot was not found"), std::string::npos);
  for (const char* f : {"usage.gp", "wait_cdf.gp", "queue.gp", "queue_last-fit.dat", "headline.gp",
                        "allocations_first-fit.gp", "allocations_last-fit.gp",
                        "usage_first-fit.dat", "headline.dat"})
    EXPECT_TRUE(fs::exists(root + "/out/plots/" + f)) << f;
}

TEST(ComparisonReport, NumbersFormatAsTheTablesShowThem) {
  EXPECT_EQ(report::format_mean_std(10, 0), "10 ± 0");
  EXPECT_EQ(report::format_number(0.90123), "0.9012");
  EXPECT_EQ(report::format_number(12345.25), "12345.2");
  EXPECT_EQ(report::format_number(2.5), "2.5");
  EXPECT_EQ(report::format_mean_std(0.81543, 0.019271), "0.8154 ± 0.0193");
  EXPECT_EQ(report::format_mean_std(7681, 406.04), "7681 ± 406");
  EXPECT_EQ(report::format_mean_std(22558.33, 106.07), "22558.3 ± 106.1");
  EXPECT_EQ(report::format_mean_std(458, 0.25), "458 ± 0.25");
  EXPECT_EQ(report::format_mean_std(0.32, 0.019271), "0.32 ± 0.019");
  EXPECT_EQ(report::format_mean_std(0.5, 3e-9), "0.5 ± 0.0000000030");
}

TEST(ComparisonReport, OutputIsByteIdenticalAcrossRuns) {
  const std::string root = fresh_dir("determinism");
  const ComparisonInput in = make_runs(root, 2);
  write_comparison_report(in, root + "/a");
  write_comparison_report(in, root + "/b");
  std::size_t compared = 0;
  for (const auto& e : fs::recursive_directory_iterator(root + "/a")) {
    if (!e.is_regular_file()) continue;
    const fs::path rel = fs::relative(e.path(), root + "/a");
    ASSERT_TRUE(fs::exists(fs::path(root + "/b") / rel)) << rel;
    EXPECT_EQ(slurp(e.path()), slurp((fs::path(root + "/b") / rel).string())) << rel;
    ++compared;
  }
  EXPECT_GE(compared, 12u);
}

TEST(ComparisonReport, RendersEveryPlotWhenGnuplotExists) {
  if (report::find_program("gnuplot").empty()) GTEST_SKIP() << "gnuplot not installed";
  const std::string root = fresh_dir("plots");
  const ReportFiles files = write_comparison_report(make_runs(root, 2), root + "/out");
  // Headline bars, usage, wait CDF, queue, and one allocation chart per scheduler.
  ASSERT_EQ(files.images.size(), 6u);
  for (const std::string& png : files.images) {
    const std::string bytes = slurp(png);
    ASSERT_GT(bytes.size(), 2000u) << png;
    EXPECT_EQ(bytes.substr(1, 3), "PNG") << png;
  }
  const std::string md = slurp(files.markdown);
  EXPECT_NE(md.find("![Resources in use over time](plots/usage.png)"), std::string::npos);
  EXPECT_EQ(md.find("Not rendered"), std::string::npos);
  EXPECT_EQ(md.find("gnuplot was not found"), std::string::npos);
}

TEST(ComparisonReport, FailingPlotterIsReportedNotThrown) {
  const std::string root = fresh_dir("failing");
  const std::string fake = root + "/fake-gnuplot";
  {
    std::ofstream f(fake);
    f << "#!/bin/sh\necho 'fake plotter refuses' >&2\nexit 3\n";
  }
  fs::permissions(fake, fs::perms::owner_all);
  ReportOptions opt;
  opt.gnuplot = fake;
  const ReportFiles files = write_comparison_report(make_runs(root, 1), root + "/out", opt);
  EXPECT_TRUE(files.images.empty());
  const std::string md = slurp(files.markdown);
  EXPECT_NE(md.find("Not rendered: gnuplot exited with status 3: fake plotter refuses"),
            std::string::npos);
}

TEST(ComparisonReport, HangingPlotterIsKilledAtTheTimeout) {
  const std::string root = fresh_dir("hanging");
  const std::string fake = root + "/slow-gnuplot";
  {
    std::ofstream f(fake);
    f << "#!/bin/sh\nexec sleep 30\n";
  }
  fs::permissions(fake, fs::perms::owner_all);
  const report::PlotRun run = report::run_gnuplot(fake, root, "none.gp", 0.2);
  EXPECT_FALSE(run.ok);
  EXPECT_EQ(run.message, "gnuplot timed out after 0.2 s");
}

TEST(ComparisonReport, LargeTracesCutTheChartTimeAxis) {
  const std::string root = fresh_dir("cut");
  ReportOptions opt;
  opt.gnuplot = "/nonexistent/gnuplot";
  opt.chart_max_jobs = 4;
  const ReportFiles files = write_comparison_report(make_runs(root, 1), root + "/out", opt);
  EXPECT_NE(slurp(files.markdown).find("too large to draw whole"), std::string::npos);
  // Only jobs starting before the cut are drawn: at most 4 jobs' rectangles per chart.
  std::ifstream data(root + "/out/plots/allocations_first-fit.dat");
  std::string line;
  std::set<std::string> starts;
  int rects = 0;
  while (std::getline(data, line))
    if (line[0] != '#') ++rects;
  EXPECT_GT(rects, 0);
  EXPECT_LE(rects, 4 * 4);
}

// Long usage series are averaged into time buckets; the averaging keeps the time integral.
TEST(ComparisonReport, BucketedUsageKeepsTheResourceSeconds) {
  const std::string root = fresh_dir("buckets");
  const ComparisonInput in = make_runs(root, 1);
  std::ofstream usage(in.schedulers[0].run_dirs[0] + "/usage.csv");
  usage << "time,used_cores,used_gpu,used_mem_mb\n";
  double core_seconds = 0;
  const int points = 3001;
  for (int i = 0; i < points; ++i) {
    const int cores = i + 1 == points ? 0 : (i * 7) % 16, step = 5 + i % 7;
    usage << i * 10 + (i > 0 ? step : 0) << ',' << cores << ",0,0\n";
  }
  usage.close();
  // Recompute the exact integral from the file as written.
  {
    std::ifstream in_file(in.schedulers[0].run_dirs[0] + "/usage.csv");
    std::string line;
    std::getline(in_file, line);
    std::vector<std::pair<double, double>> rows;
    while (std::getline(in_file, line))
      rows.push_back({std::stod(line), std::stod(line.substr(line.find(',') + 1))});
    for (std::size_t i = 0; i + 1 < rows.size(); ++i)
      core_seconds += rows[i].second * (rows[i + 1].first - rows[i].first);
  }
  ReportOptions opt;
  opt.gnuplot = "/nonexistent/gnuplot";
  const ReportFiles files = write_comparison_report(in, root + "/out", opt);
  EXPECT_NE(slurp(files.markdown).find("averaged over 600 equal time buckets"), std::string::npos);
  std::ifstream data(root + "/out/plots/usage_first-fit.dat");
  std::string header, line;
  std::getline(data, header);
  EXPECT_NE(header.find("time_h"), std::string::npos);  // 30000 s shown in hours
  std::vector<std::pair<double, double>> rows;
  while (std::getline(data, line)) {
    std::istringstream fields(line);
    double t, c, g;
    fields >> t >> c >> g;
    rows.push_back({t * 3600, c});
  }
  ASSERT_EQ(rows.size(), 601u);
  double bucketed = 0;
  for (std::size_t i = 0; i + 1 < rows.size(); ++i)
    bucketed += rows[i].second * (rows[i + 1].first - rows[i].first);
  EXPECT_NEAR(bucketed, core_seconds, 1e-6 * core_seconds);
}

// Nothing ran (every job asks more cores than the cluster has): still a complete report.
TEST(ComparisonReport, RunsWhereNoJobRanStillGiveAReport) {
  const std::string root = fresh_dir("nothing_ran");
  const Cluster cluster = report_test::tiny_cluster();
  ComparisonInput in;
  in.title = "impossible";
  in.headline_metrics = {"utilization"};
  for (const char* name : {"a \"quoted\" name", "it's"}) {
    report_test::FirstFit policy(false);
    Workload w = report_test::tiny_workload(0);
    for (Job& j : w.jobs) j.req.ntasks = 100;
    bind_workload(cluster, w);
    const SimResult result = simulate(cluster, w, policy, {});
    const std::string dir = root + "/runs/" + std::to_string(in.schedulers.size());
    write_run_outputs(dir, cluster, w, result, summarize(cluster, w, result));
    in.schedulers.push_back({name, {dir}});
  }
  const ReportFiles files = write_comparison_report(in, root + "/out");
  const std::string md = slurp(files.markdown);
  EXPECT_NE(md.find("| rejected (jobs) | 10 ± 0 | 10 ± 0 |"), std::string::npos);
  EXPECT_NE(md.find("20 rejected or stalled job records"), std::string::npos);
  if (!report::find_program("gnuplot").empty()) {
    EXPECT_EQ(md.find("Not rendered"), std::string::npos) << md;
    EXPECT_EQ(files.images.size(), 6u);
  }
}

TEST(ComparisonReport, RejectsEmptyInput) {
  ComparisonInput in;
  EXPECT_THROW(aggregate_summaries(in), InputError);
  in.schedulers.push_back({"x", {}});
  EXPECT_THROW(aggregate_summaries(in), InputError);
}

}  // namespace
}  // namespace hs
