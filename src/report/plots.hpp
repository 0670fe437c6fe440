#pragma once
// The report's plots. Each writer leaves data files and `<id>.gp` in ctx.plots_dir and
// returns what the report shows about it; none runs gnuplot.
#include <vector>

#include "report/comparison_report.hpp"
#include "report/plot_common.hpp"
#include "report/run_files.hpp"

namespace hs::report {

// (1) Cores and each gres type in use over time, one line per scheduler (first run each).
PlotSpec write_usage_plot(const PlotContext& ctx, const std::vector<UsageFile>& runs,
                          const std::vector<double>& capacity);  // per column; may be empty

// (2) One nodes × time chart per scheduler (first run each); all share axes.
std::vector<PlotSpec> write_allocation_charts(const PlotContext& ctx,
                                              const std::vector<JobsFile>& runs,
                                              const ReportOptions& options);

// (3) Bars of the headline metrics with ± std error bars, one panel per metric.
PlotSpec write_headline_bars(const PlotContext& ctx, const std::vector<MetricRow>& headline);

// (5) Jobs waiting and running after each scheduling pass (first run each; queue.csv).
PlotSpec write_queue_plot(const PlotContext& ctx, const std::vector<UsageFile>& runs);

// (4) CDF of waiting times per scheduler, pooled over all its repetitions.
PlotSpec write_wait_cdf(const PlotContext& ctx, const std::vector<std::vector<JobsFile>>& runs);

}  // namespace hs::report
