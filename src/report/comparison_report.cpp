// write_comparison_report: reads the run directories, orders the metric table, writes the
// plots' data and scripts, renders them with gnuplot when it is there, and writes the report.
#include "report/comparison_report.hpp"

#include <algorithm>
#include <filesystem>

#include "report/gnuplot_runner.hpp"
#include "report/plots.hpp"
#include "report/report_text.hpp"
#include "util/error.hpp"

namespace hs {

namespace fs = std::filesystem;

namespace {

using report::PlotSection;
using report::ReportContent;

// Headline metrics first (in the order asked), then the others in summary.csv order.
void order_rows(const ComparisonInput& in, std::vector<MetricRow> all, ReportContent& c) {
  std::vector<bool> taken(all.size(), false);
  for (const std::string& h : in.headline_metrics) {
    auto it =
        std::find_if(all.begin(), all.end(), [&](const MetricRow& r) { return r.metric == h; });
    if (it == all.end()) {
      c.missing_headline.push_back(h);
    } else if (!taken[it - all.begin()]) {
      taken[it - all.begin()] = true;
      c.rows.push_back(*it);
    }
  }
  c.headline_count = c.rows.size();
  for (std::size_t i = 0; i < all.size(); ++i)
    if (!taken[i]) c.rows.push_back(all[i]);
}

std::string in_dir(const std::string& dir, const std::string& file) {
  return (fs::path(dir) / file).string();
}

std::vector<report::PlotSpec> write_plot_files(const ComparisonInput& in, const ReportContent& c,
                                               const report::PlotContext& ctx,
                                               const ReportOptions& options) {
  std::vector<report::UsageFile> usage, queue;
  std::vector<std::vector<report::JobsFile>> jobs;
  for (const SchedulerRuns& s : in.schedulers) {
    usage.push_back(report::read_usage_file(in_dir(s.run_dirs.front(), "usage.csv")));
    queue.push_back(report::read_queue_file(in_dir(s.run_dirs.front(), "queue.csv")));
    jobs.emplace_back();
    for (const std::string& d : s.run_dirs)
      jobs.back().push_back(report::read_jobs_file(in_dir(d, "jobs.csv")));
  }
  std::vector<report::JobsFile> first;
  for (const auto& reps : jobs) first.push_back(reps.front());
  std::vector<report::PlotSpec> specs;
  if (c.headline_count > 0)
    specs.push_back(report::write_headline_bars(
        ctx, std::vector<MetricRow>(c.rows.begin(), c.rows.begin() + c.headline_count)));
  specs.push_back(report::write_usage_plot(ctx, usage, in.capacity));
  specs.push_back(report::write_wait_cdf(ctx, jobs));
  specs.push_back(report::write_queue_plot(ctx, queue));
  for (auto& s : report::write_allocation_charts(ctx, first, options))
    specs.push_back(std::move(s));
  return specs;
}

// Renders each script; a missing plotter or a failed plot is recorded, never thrown.
void render_plots(const std::vector<report::PlotSpec>& specs, const report::PlotContext& ctx,
                  const ReportOptions& options, ReportContent& c) {
  const std::string gnuplot = report::find_program(options.gnuplot);
  if (gnuplot.empty())
    c.plotter_note = "gnuplot was not found ('" + options.gnuplot +
                     "'), so no image was rendered. Each plot's data and gnuplot script are in "
                     "plots/; install gnuplot and run `gnuplot <plot>.gp` there to draw them.";
  for (const report::PlotSpec& spec : specs) {
    PlotSection section{spec, "", ""};
    const std::string png = in_dir(ctx.plots_dir, spec.id + ".png");
    std::error_code ec;
    fs::remove(png, ec);  // never show a stale image from an earlier report
    if (!gnuplot.empty()) {
      const report::PlotRun run =
          report::run_gnuplot(gnuplot, ctx.plots_dir, spec.id + ".gp", options.plot_timeout_s);
      const bool drawn = fs::exists(png, ec) && fs::file_size(png, ec) > 0;
      if (run.ok && drawn)
        section.image = "plots/" + spec.id + ".png";
      else
        section.problem = run.ok ? "gnuplot produced no image" : run.message;
    } else {
      section.problem = "gnuplot not available";
    }
    c.plots.push_back(std::move(section));
  }
}

}  // namespace

ReportFiles write_comparison_report(const ComparisonInput& in, const std::string& out_dir) {
  return write_comparison_report(in, out_dir, ReportOptions{});
}

ReportFiles write_comparison_report(const ComparisonInput& in, const std::string& out_dir,
                                    const ReportOptions& options) {
  ReportContent content;
  content.input = in;
  order_rows(in, aggregate_summaries(in), content);
  std::vector<std::string> names;
  for (const SchedulerRuns& s : in.schedulers) names.push_back(s.scheduler);
  content.paired = report::paired_differences(content.rows, names, in.headline_metrics);

  report::PlotContext ctx;
  ctx.plots_dir = in_dir(out_dir, "plots");
  std::error_code ec;
  fs::create_directories(ctx.plots_dir, ec);
  if (ec) throw InputError({out_dir, 0}, "output directory", ctx.plots_dir, ec.message());
  for (const SchedulerRuns& s : in.schedulers) ctx.schedulers.push_back(s.scheduler);
  ctx.stems = report::file_stems(ctx.schedulers);

  render_plots(write_plot_files(in, content, ctx, options), ctx, options, content);

  ReportFiles files{in_dir(out_dir, "report.md"), in_dir(out_dir, "report.html"), {}};
  report::write_text_file(files.markdown, report::render_markdown(content));
  report::write_text_file(files.html, report::render_html(content));
  for (const PlotSection& p : content.plots)
    if (!p.image.empty()) files.images.push_back(in_dir(out_dir, p.image));
  return files;
}

}  // namespace hs
