// aggregate_summaries: mean and sample standard deviation of each summary.csv metric over a
// scheduler's repetitions. Every file must list the same metrics (identical inputs do).
#include <cmath>
#include <filesystem>

#include "report/comparison_report.hpp"
#include "report/run_files.hpp"
#include "util/error.hpp"

namespace hs {

namespace {

std::string summary_path(const std::string& run_dir) {
  return (std::filesystem::path(run_dir) / "summary.csv").string();
}

void check_same_metrics(const report::SummaryFile& ref, const report::SummaryFile& s) {
  for (std::size_t i = 0; i < std::max(ref.metrics.size(), s.metrics.size()); ++i) {
    if (i < ref.metrics.size() && i < s.metrics.size() && ref.metrics[i] == s.metrics[i]) continue;
    const bool missing = i >= s.metrics.size();
    throw InputError({s.file, static_cast<long>(i) + 2}, "metric",
                     missing ? ref.metrics[i] : s.metrics[i],
                     missing ? "missing here but listed in " + ref.file
                             : "differs from the metric list of " + ref.file);
  }
}

void validate(const ComparisonInput& in) {
  if (in.schedulers.empty())
    throw InputError({"<comparison>", 0}, "schedulers", "", "no scheduler to report on");
  for (const SchedulerRuns& s : in.schedulers)
    if (s.run_dirs.empty())
      throw InputError({"<comparison>", 0}, "run_dirs", s.scheduler, "scheduler has no runs");
}

}  // namespace

std::vector<MetricRow> aggregate_summaries(const ComparisonInput& in) {
  validate(in);
  std::vector<std::vector<report::SummaryFile>> files;  // [scheduler][repetition]
  for (const SchedulerRuns& s : in.schedulers) {
    files.emplace_back();
    for (const std::string& dir : s.run_dirs) {
      files.back().push_back(report::read_summary_file(summary_path(dir)));
      check_same_metrics(files.front().front(), files.back().back());
    }
  }
  std::vector<MetricRow> rows;
  const report::SummaryFile& ref = files.front().front();
  for (std::size_t m = 0; m < ref.metrics.size(); ++m) {
    MetricRow row{ref.metrics[m], {}, {}, {}};
    for (const auto& reps : files) {
      double sum = 0;
      bool all_equal = true;
      row.values.emplace_back();
      for (const auto& f : reps) {
        row.values.back().push_back(f.values[m]);
        sum += f.values[m];
        all_equal = all_equal && f.values[m] == reps.front().values[m];
      }
      const double n = static_cast<double>(reps.size());
      // Equal values give exactly that mean and 0, not rounding noise.
      const double mean = all_equal ? reps.front().values[m] : sum / n;
      double sq = 0;
      for (const auto& f : reps) sq += (f.values[m] - mean) * (f.values[m] - mean);
      row.mean.push_back(mean);
      row.std.push_back(reps.size() > 1 && !all_equal ? std::sqrt(sq / (n - 1)) : 0.0);
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace hs
