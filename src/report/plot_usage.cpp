// Plot (1): resources in use over time, and (5) the queue length over time. Long series are
// averaged into time buckets so the data files stay small; the step shape of short series is kept
// exactly.
#include <algorithm>
#include <sstream>

#include "report/plots.hpp"
#include "util/error.hpp"

namespace hs::report {

namespace {

constexpr std::size_t kMaxPoints = 2000;
constexpr std::size_t kBuckets = 600;

struct Series {
  std::vector<double> time;
  std::vector<std::vector<double>> used;  // [resource][point]
};

// Time-weighted mean of each resource over equal buckets of [first, last] time.
Series bucket_average(const UsageFile& u) {
  Series s;
  const double t0 = static_cast<double>(u.time.front()), t1 = static_cast<double>(u.time.back());
  const double width = std::max(1e-9, (t1 - t0) / kBuckets);
  s.used.assign(u.used.size(), std::vector<double>(kBuckets, 0.0));
  auto bucket_of = [&](double t) {
    return std::min(kBuckets - 1, static_cast<std::size_t>((t - t0) / width));
  };
  for (std::size_t i = 0; i + 1 < u.time.size(); ++i) {
    const double a = static_cast<double>(u.time[i]), b = static_cast<double>(u.time[i + 1]);
    for (std::size_t k = bucket_of(a); k <= bucket_of(b) && k < kBuckets; ++k) {
      const double lo = t0 + width * static_cast<double>(k), hi = lo + width;
      const double overlap = std::min(b, hi) - std::max(a, lo);
      if (overlap <= 0) continue;
      for (std::size_t r = 0; r < u.used.size(); ++r)
        s.used[r][k] += u.used[r][i] * overlap / width;
    }
  }
  for (std::size_t k = 0; k < kBuckets; ++k) s.time.push_back(t0 + width * static_cast<double>(k));
  s.time.push_back(t1);
  for (auto& r : s.used) r.push_back(0.0);
  return s;
}

Series exact(const UsageFile& u) {
  Series s;
  for (std::int64_t t : u.time) s.time.push_back(static_cast<double>(t));
  s.used = u.used;
  return s;
}

std::string data_text(const Series& s, const TimeUnit& unit) {
  std::ostringstream out;
  out << "# time_" << unit.name;
  out << " then one column per resource\n";
  for (std::size_t i = 0; i < s.time.size(); ++i) {
    out << data_number(s.time[i] / unit.seconds);
    for (const auto& r : s.used) out << ' ' << data_number(r[i]);
    out << '\n';
  }
  return out.str();
}

// Earlier lines are drawn wider so identical series stay visible under later ones.
std::string line_width(std::size_t i) {
  return data_number(std::max(1.0, 2.4 - 0.4 * static_cast<double>(i)));
}

// Stacked panels (one per series column), one step line per scheduler, shared time axis.
struct StepPlot {
  std::string id, heading, title, file_prefix;
  std::vector<std::string> y_labels;  // one per column
  std::vector<double> capacity;       // per column, drawn as a dashed line; empty: none
};

PlotSpec write_step_panels(const PlotContext& ctx, const std::vector<UsageFile>& runs,
                           const StepPlot& plot) {
  PlotSpec spec{plot.id, plot.heading, "", {}};
  double t_min = 0, t_max = 0;
  bool any = false, bucketed = false;
  for (const UsageFile& u : runs) {
    if (u.resources != runs.front().resources)
      throw InputError({u.file, 1}, "header", u.resources.back(),
                       "columns differ from those of " + runs.front().file);
    if (u.time.empty()) continue;
    t_min = any ? std::min<double>(t_min, u.time.front()) : u.time.front();
    t_max = any ? std::max<double>(t_max, u.time.back()) : u.time.back();
    any = true;
  }
  const TimeUnit unit = time_unit_for(t_max - t_min);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const UsageFile& u = runs[i];
    const bool big = u.time.size() > kMaxPoints;
    bucketed = bucketed || big;
    const Series s = u.time.empty() ? Series{{}, u.used} : big ? bucket_average(u) : exact(u);
    write_text_file(plot_path(ctx, plot.file_prefix + ctx.stems[i] + ".dat"), data_text(s, unit));
  }
  const std::size_t panels = plot.y_labels.size();
  std::ostringstream gp;
  gp << gp_png_header(spec.id, 1100, 260 * static_cast<int>(panels) + 80);
  gp << "set multiplot layout " << panels << ",1\n"
     << "set grid\nset key outside right top vertical\nset offsets 0,0,graph 0.05,0\n"
     << (any ? "set yrange [0:*]\n" : "set yrange [0:1]\n");  // all-NaN cannot autoscale
  if (any)                                                    // a fixed range must not be empty
    gp << "set xrange [" << data_number(t_min / unit.seconds) << ":"
       << data_number(std::max(t_max, t_min + 1) / unit.seconds) << "]\n";
  for (std::size_t r = 0; r < panels; ++r) {
    gp << "set ylabel " << gp_quote(plot.y_labels[r]) << "\n"
       << "set xlabel " << gp_quote(r + 1 == panels ? "time (" + unit.name + ")" : "") << "\n"
       << (r == 0 ? "set title " + gp_quote(plot.title) : std::string("unset title")) << "\nplot ";
    for (std::size_t i = 0; i < runs.size(); ++i)
      gp << (i ? ", \\\n     " : "")
         << gp_series(plot.file_prefix + ctx.stems[i] + ".dat", !runs[i].time.empty(),
                      "1:" + std::to_string(r + 2))
         << " with steps lw " << line_width(i) << " lc rgb " << gp_quote(scheduler_colour(i))
         << " title " << gp_quote(ctx.schedulers[i]);
    if (r < plot.capacity.size() && plot.capacity[r] > 0)
      gp << ", \\\n     " << data_number(plot.capacity[r])
         << " with lines dt 2 lw 1.5 lc rgb '#000000' title 'capacity'";
    gp << "\n";
  }
  gp << "unset multiplot\n";
  write_text_file(plot_path(ctx, spec.id + ".gp"), gp.str());
  if (bucketed)
    spec.notes.push_back("Long series were averaged over " + std::to_string(kBuckets) +
                         " equal time buckets (time-weighted) to keep the plot readable.");
  return spec;
}

}  // namespace

PlotSpec write_usage_plot(const PlotContext& ctx, const std::vector<UsageFile>& runs,
                          const std::vector<double>& capacity) {
  StepPlot plot{"usage",
                "Resources in use over time",
                "Resources in use (first repetition of each scheduler)",
                "usage_",
                {},
                capacity};
  for (const std::string& r : runs.front().resources) plot.y_labels.push_back(r + " in use");
  PlotSpec spec = write_step_panels(ctx, runs, plot);
  spec.caption =
      "Cores and each generic resource held by running jobs, one line per scheduler, from the "
      "first repetition's usage.csv. The dashed line is the cluster's capacity: a line on it "
      "means the resource is fully allocated; gaps between schedulers show who keeps the "
      "machine busier.";
  return spec;
}

PlotSpec write_queue_plot(const PlotContext& ctx, const std::vector<UsageFile>& runs) {
  StepPlot plot{"queue",
                "Queue length over time",
                "Jobs waiting and running after each scheduling pass (first repetition)",
                "queue_",
                {"jobs waiting", "jobs running"},
                {}};
  PlotSpec spec = write_step_panels(ctx, runs, plot);
  spec.caption =
      "Pending and running job counts after each scheduling pass, from the first repetition's "
      "queue.csv; each value holds until the next pass. A scheduler that drains the queue "
      "sooner keeps the upper line lower.";
  return spec;
}

}  // namespace hs::report
