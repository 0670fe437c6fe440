#pragma once
// A report per comparison of schedulers (docs/reports.md): the inputs and the command, a
// side-by-side table of mean ± std over repetitions for every summary.csv metric, and
// gnuplot images (utilization over time, nodes × time allocation charts, headline bars,
// waiting-time CDFs). The run directories are those metrics/outputs.hpp writes.
#include <string>
#include <vector>

namespace hs {

struct SchedulerRuns {
  std::string scheduler;
  std::vector<std::string> run_dirs;  // one dir per repetition, same seed order for every scheduler
};

struct ComparisonInput {
  std::string title;          // e.g. "esp-het on paper1024"
  std::string cluster_text;   // one-line cluster description
  std::string workload_text;  // workload spec and seeds
  std::string command;        // the command line that produced it
  std::string version;        // hetsched version and commit that produced it
  std::vector<SchedulerRuns> schedulers;
  std::vector<std::string> headline_metrics;  // summary.csv metric names to put first / chart
  // The cluster's total cores, then of each gres type (the usage plot's panels); drawn as
  // capacity lines. Empty: no lines.
  std::vector<double> capacity;
};

struct ReportFiles {
  std::string markdown;
  std::string html;
  std::vector<std::string> images;  // rendered PNGs only
};

// Knobs with defaults that suit the CLI; tests point `gnuplot` elsewhere.
struct ReportOptions {
  std::string gnuplot = "gnuplot";  // bare name (searched on PATH) or a path
  double plot_timeout_s = 120;      // per gnuplot invocation
  int chart_max_jobs = 4000;        // nodes × time chart: jobs drawn before the time axis is cut
  int chart_max_blocks = 30000;     // ... and rectangles (contiguous node blocks)
};

// Writes out_dir/report.md, out_dir/report.html and out_dir/plots/ (data, .gp scripts, PNGs).
// A missing or failing gnuplot never fails the call: the report says so. Bad run files
// raise InputError naming file, line, field and value.
ReportFiles write_comparison_report(const ComparisonInput& in, const std::string& out_dir);
ReportFiles write_comparison_report(const ComparisonInput& in, const std::string& out_dir,
                                    const ReportOptions& options);

// mean ± std over repetitions for every summary.csv metric, per scheduler, in summary.csv order
// (std is the sample standard deviation, n − 1; 0 for a single repetition).
struct MetricRow {
  std::string metric;
  std::vector<double> mean, std;
  std::vector<std::vector<double>> values;  // [scheduler][repetition], as read
};
std::vector<MetricRow> aggregate_summaries(const ComparisonInput& in);

}  // namespace hs
