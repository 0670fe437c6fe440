#include "report/paired.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "report/report_text.hpp"

namespace hs::report {

namespace {

bool all_equal(const std::vector<double>& v) {
  return std::all_of(v.begin(), v.end(), [&](double x) { return x == v.front(); });
}

PairedDifference pair_up(const MetricRow& row, std::size_t s, const std::vector<std::string>& names) {
  PairedDifference d{row.metric, names[s], names[0], 0, 0, 0, 0, false};
  const std::vector<double>& a = row.values[s];
  const std::vector<double>& b = row.values[0];
  d.pairs = std::min(a.size(), b.size());
  if (d.pairs == 0) return d;
  std::vector<double> diff(d.pairs);
  for (std::size_t i = 0; i < d.pairs; ++i) diff[i] = a[i] - b[i];
  double sum = 0;
  for (double x : diff) sum += x;
  d.mean = sum / static_cast<double>(d.pairs);
  d.identical_repetitions = d.pairs > 1 && all_equal(a) && all_equal(b);
  d.low = d.high = d.mean;
  if (d.pairs < 2) return d;
  double sq = 0;
  for (double x : diff) sq += (x - d.mean) * (x - d.mean);
  const double se = std::sqrt(sq / static_cast<double>(d.pairs - 1) / static_cast<double>(d.pairs));
  d.low = d.mean - t_quantile_975(d.pairs - 1) * se;
  d.high = d.mean + t_quantile_975(d.pairs - 1) * se;
  return d;
}

}  // namespace

double t_quantile_975(std::size_t df) {
  static constexpr std::array<double, 30> kTable = {
      12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
      2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
      2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
  if (df == 0) return INFINITY;
  if (df <= kTable.size()) return kTable[df - 1];
  return 1.96 + 2.46 / static_cast<double>(df);  // within 0.001 of the exact value beyond 30
}

std::vector<PairedDifference> paired_differences(const std::vector<MetricRow>& rows,
                                                 const std::vector<std::string>& schedulers,
                                                 const std::vector<std::string>& metrics) {
  std::vector<PairedDifference> out;
  for (const std::string& m : metrics) {
    const auto row = std::find_if(rows.begin(), rows.end(),
                                  [&](const MetricRow& r) { return r.metric == m; });
    if (row == rows.end() || row->values.size() != schedulers.size()) continue;
    for (std::size_t s = 1; s < schedulers.size(); ++s) out.push_back(pair_up(*row, s, schedulers));
  }
  return out;
}

std::string describe_difference(const PairedDifference& d) {
  const std::string unit = metric_unit(d.metric);
  const std::string in_unit =
      unit.empty() || unit[0] == '1' ? "" : unit == "s since t=0" ? " s" : " " + unit;
  std::string text = d.scheduler + " − " + d.baseline + " on " + d.metric + ": " +
                     format_number(d.mean) + in_unit;
  if (d.pairs < 2) return text + " (one repetition: no interval; repeat with several seeds).";
  if (d.identical_repetitions && d.mean == 0) return text + ", equal in every repetition.";
  if (d.identical_repetitions)
    return text + " in every repetition (the repetitions are identical, e.g. a fixed job file: " +
           "they add no evidence, so no interval is given).";
  text += " (95 % CI " + format_number(d.low) + " to " + format_number(d.high) + ", " +
          std::to_string(d.pairs) + " pairs): ";
  if (d.low > 0) return text + "significantly higher.";
  if (d.high < 0) return text + "significantly lower.";
  return text + "not significant (the interval contains 0).";
}

}  // namespace hs::report
