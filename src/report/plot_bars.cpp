// Plot (3): one small bar panel per headline metric, a bar per scheduler with the std over
// repetitions as an error bar.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "report/plots.hpp"
#include "report/report_text.hpp"

namespace hs::report {

namespace {

std::uint32_t rgb_of(const std::string& hex) {
  return static_cast<std::uint32_t>(std::stoul(hex.substr(1), nullptr, 16));
}

// A double-quoted label for a gnuplot data file (which has no escape for '"').
std::string data_label(std::string text) {
  std::replace(text.begin(), text.end(), '"', '\'');
  return '"' + text + '"';
}

}  // namespace

PlotSpec write_headline_bars(const PlotContext& ctx, const std::vector<MetricRow>& headline) {
  PlotSpec spec{"headline", "Headline metrics", "", {}};
  std::ostringstream data;
  data << "# one block per metric: index scheduler mean std rgb label\n";
  for (const MetricRow& row : headline) {
    data << "# " << row.metric << "\n";
    for (std::size_t i = 0; i < row.mean.size(); ++i)
      data << i << ' ' << data_label(ctx.schedulers[i]) << ' ' << data_number(row.mean[i]) << ' '
           << data_number(row.std[i]) << ' ' << rgb_of(scheduler_colour(i)) << ' '
           << data_label(format_number(row.mean[i])) << '\n';
    data << "\n\n";
  }
  write_text_file(plot_path(ctx, "headline.dat"), data.str());

  const int n = static_cast<int>(headline.size());
  const int cols = std::min(3, std::max(1, n));
  const int rows = (n + cols - 1) / cols;
  std::ostringstream gp;
  gp << gp_png_header(spec.id, 380 * cols, 300 * std::max(1, rows));
  gp << "set multiplot layout " << std::max(1, rows) << "," << cols << "\n"
     << "set style fill solid 0.85 border lc rgb '#333333'\nset boxwidth 0.6\n"
     << "set grid ytics\nset xtics rotate by -30 left nomirror\nset key off\n"
     << "set xrange [-0.6:" << data_number(static_cast<double>(ctx.schedulers.size()) - 0.4)
     << "]\n"
     << "set bmargin 5\n";
  for (int k = 0; k < n; ++k) {
    bool non_negative = true;
    for (std::size_t i = 0; i < headline[k].mean.size(); ++i)
      non_negative = non_negative && headline[k].mean[i] - headline[k].std[i] >= 0;
    const std::string unit = metric_unit(headline[k].metric);
    // A fraction's axis ends at 1 (labels of tall bars go inside them), others get headroom.
    const bool fraction = unit == "fraction" || unit == "1 = even";
    gp << "set title " << gp_quote(headline[k].metric) << "\n"
       << "set ylabel " << gp_quote(unit) << "\n"
       << (fraction       ? "set yrange [0:1]\nset offsets 0,0,0,0\n"
           : non_negative ? "set yrange [0:*]\nset offsets 0,0,graph 0.12,0\n"
                          : "set autoscale y\nset offsets 0,0,graph 0.12,0\n")
       << "plot " << gp_quote("headline.dat") << " index " << k
       << " using 1:3:4:5:xtic(2) with boxerrorbars lc rgb variable, \\\n     "
       << gp_quote("headline.dat") << " index " << k
       << (fraction ? " using 1:($3+$4 > 0.9 ? $3 - 0.08 : $3 + $4):6"
                    : " using 1:($3+$4):6")
       << " with labels offset 0,0.7 font ',9'\n";
  }
  gp << "unset multiplot\n";
  write_text_file(plot_path(ctx, spec.id + ".gp"), gp.str());
  spec.caption =
      "Mean of each headline metric over the repetitions, one bar per scheduler, with the "
      "standard deviation over repetitions as error bars. Read the metric's direction from its "
      "name: utilization is better high; waits, slowdowns, packing factor, fragmentation, spread "
      "and queue lengths are better low.";
  return spec;
}

}  // namespace hs::report
