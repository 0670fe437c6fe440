// Plot (4): empirical CDF of the waiting time (submit -> start) of the jobs that ran,
// pooled over a scheduler's repetitions. Very long lists are thinned to evenly spaced ranks.
#include <algorithm>
#include <sstream>

#include "report/plots.hpp"

namespace hs::report {

namespace {

constexpr std::size_t kMaxPoints = 2000;

std::string cdf_text(std::vector<std::int64_t> waits, const TimeUnit& unit) {
  std::sort(waits.begin(), waits.end());
  std::ostringstream out;
  out << "# wait_" << unit.name << " fraction_of_jobs_started_by_then\n";
  if (waits.empty()) return out.str();
  const std::size_t n = waits.size();
  const std::size_t points = std::min(n, kMaxPoints);
  out << data_number(static_cast<double>(waits.front()) / unit.seconds) << " 0\n";
  for (std::size_t k = 0; k < points; ++k) {
    const std::size_t rank = (k + 1) * n / points;  // 1..n, the last one always n
    out << data_number(static_cast<double>(waits[rank - 1]) / unit.seconds) << ' '
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
  std::ostringstream gp;
  gp << gp_png_header(spec.id, 1000, 560);
  gp << "set title " << gp_quote("Waiting time of the jobs that ran (all repetitions)") << "\n"
     << "set xlabel " << gp_quote("wait (" + unit.name + ")") << "\n"
     << "set ylabel " << gp_quote("fraction of jobs started within that wait") << "\n"
     << "set yrange [0:1.02]\nset xrange [0:*]\nset grid\nset key right bottom\nplot ";
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const std::string data = "wait_cdf_" + ctx.stems[i] + ".dat";
    write_text_file(plot_path(ctx, data), cdf_text(waits[i], unit));
    gp << (i ? ", \\\n     " : "") << gp_quote(data) << " using 1:2 with steps lw 2 lc rgb "
       << gp_quote(scheduler_colour(i)) << " title "
       << gp_quote(ctx.schedulers[i] + " (" + std::to_string(waits[i].size()) + " jobs)");
  }
  gp << "\n";
  write_text_file(plot_path(ctx, spec.id + ".gp"), gp.str());
  spec.caption =
      "For each waiting time on the x axis, the fraction of jobs that started within it. A curve "
      "further up and to the left is better; where it meets the y axis is the share of jobs that "
      "started at once.";
  if (not_run > 0)
    spec.notes.push_back(std::to_string(not_run) +
                         " rejected or stalled job records (over all runs) have no wait and are "
                         "not in the curves.");
  return spec;
}

}  // namespace hs::report
