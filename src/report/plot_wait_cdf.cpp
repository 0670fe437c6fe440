// Plot (4): empirical CDF of the waiting time (submit -> start) of the jobs that ran,
// pooled over a scheduler's repetitions. Very long lists are thinned to evenly spaced ranks.
#include <algorithm>
#include <sstream>

#include "report/plots.hpp"

namespace hs::report {

namespace {

constexpr std::size_t kMaxPoints = 2000;

std::string cdf_text(std::vector<std::int64_t> waits) {
  std::sort(waits.begin(), waits.end());
  std::ostringstream out;
  out << "# wait_s fraction_of_jobs_started_by_then\n";
  if (waits.empty()) return out.str();
  const std::size_t n = waits.size();
  const std::size_t points = std::min(n, kMaxPoints);
  out << data_number(static_cast<double>(waits.front())) << " 0\n";
  for (std::size_t k = 0; k < points; ++k) {
    const std::size_t rank = (k + 1) * n / points;  // 1..n, the last one always n
    out << data_number(static_cast<double>(waits[rank - 1])) << ' '
        << data_number(static_cast<double>(rank) / static_cast<double>(n)) << '\n';
  }
  return out.str();
}

}  // namespace

PlotSpec write_wait_cdf(const PlotContext& ctx, const std::vector<std::vector<JobsFile>>& runs) {
  PlotSpec spec{"wait_cdf", "Waiting-time distribution", "", {}};
  std::vector<std::vector<std::int64_t>> waits(runs.size());
  std::int64_t max_wait = 0, not_run = 0;
  for (std::size_t i = 0; i < runs.size(); ++i)
    for (const JobsFile& f : runs[i]) {
      not_run += f.not_run;
      for (const JobRun& j : f.ran) {
        waits[i].push_back(j.wait);
        max_wait = std::max(max_wait, j.wait);
      }
    }
  const TimeUnit unit = time_unit_for(static_cast<double>(max_wait));
  std::string curves;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const std::string data = "wait_cdf_" + ctx.stems[i] + ".dat";
    write_text_file(plot_path(ctx, data), cdf_text(waits[i]));
    curves += (i ? ", \\\n     " : "") + gp_series(data, !waits[i].empty(), "(X($1)):2") +
              " with steps lw " + data_number(std::max(1.2, 3.0 - 0.5 * static_cast<double>(i))) +
              " lc rgb " + gp_quote(scheduler_colour(i)) + " title " +
              gp_quote(ctx.schedulers[i] + " (" + std::to_string(waits[i].size()) + " jobs)");
  }
  std::ostringstream gp;
  gp << gp_png_header(spec.id, 1300, 560);
  gp << "set multiplot layout 1,2 title "
     << gp_quote("Waiting time of the jobs that ran (all repetitions)") << "\n"
     << "set ylabel " << gp_quote("fraction of jobs started within that wait") << "\n"
     << "set yrange [0:1.02]\nset grid\nset key right bottom\n"
     << "set xlabel " << gp_quote("wait (" + unit.name + ")") << "\nset xrange [0:*]\n"
     << "X(s) = s / " << data_number(unit.seconds) << "\nplot " << curves << "\n"
     << "set xlabel " << gp_quote("wait, log scale (waits under 1 s drawn at 1 s)") << "\n"
     << "set logscale x\nset xrange [1:*]\nset key left top\n"
     << "set xtics (\"1 s\" 1, \"10 s\" 10, \"1 min\" 60, \"10 min\" 600, \"1 h\" 3600, "
        "\"10 h\" 36000, \"1 day\" 86400, \"10 days\" 864000, \"100 days\" 8640000)\n"
     << "X(s) = s < 1 ? 1 : s\nplot " << curves << "\nunset multiplot\n";
  write_text_file(plot_path(ctx, spec.id + ".gp"), gp.str());
  spec.caption =
      "For each waiting time on the x axis, the fraction of jobs that started within it, on a "
      "linear axis (left) and a logarithmic one (right, which separates short waits). A curve "
      "further up and to the left is better; on the left panel, where a curve meets the y axis "
      "is the share of jobs that started at once.";
  if (not_run > 0)
    spec.notes.push_back(std::to_string(not_run) +
                         " rejected or stalled job records (over all runs) have no wait and are "
                         "not in the curves.");
  return spec;
}

}  // namespace hs::report
