#pragma once
// The report's content, independent of its format, and its Markdown and HTML renderings.
#include <string>
#include <vector>

#include "report/comparison_report.hpp"
#include "report/paired.hpp"
#include "report/plot_common.hpp"

namespace hs::report {

struct PlotSection {
  PlotSpec spec;
  std::string image;    // relative to the report, e.g. "plots/usage.png"; empty if not rendered
  std::string problem;  // why it was not rendered
};

struct ReportContent {
  ComparisonInput input;
  std::vector<MetricRow> rows;                // headline metrics first
  std::size_t headline_count = 0;             // how many of `rows` are headline metrics
  std::vector<std::string> missing_headline;  // asked for but not in summary.csv
  std::vector<PairedDifference> paired;       // headline metrics against the first scheduler
  std::string plotter_note;                   // e.g. gnuplot missing; empty when all is well
  std::vector<PlotSection> plots;
};

// "0.9012 ± 0.0031": numbers as the tables show them.
std::string format_number(double v);
std::string format_mean_std(double mean, double std);

// The unit a summary.csv metric is measured in ("s", "fraction", ...); empty when unitless.
std::string metric_unit(const std::string& metric);
// The metric as the tables name it: "wait_mean (s)", "span = makespan (s)".
std::string metric_label(const std::string& metric);

std::string render_markdown(const ReportContent& c);
std::string render_html(const ReportContent& c);

}  // namespace hs::report
