#include "report/report_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace hs::report {

namespace {

std::size_t repetitions(const ComparisonInput& in) {
  std::size_t r = 0;
  for (const SchedulerRuns& s : in.schedulers) r = std::max(r, s.run_dirs.size());
  return r;
}

std::string scheduler_list(const ComparisonInput& in) {
  std::string text;
  for (const SchedulerRuns& s : in.schedulers)
    text += (text.empty() ? "" : ", ") + s.scheduler + " (" + std::to_string(s.run_dirs.size()) +
            (s.run_dirs.size() == 1 ? " run)" : " runs)");
  return text;
}

std::string md_cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += '\\';
    out += c == '\n' ? ' ' : c;
  }
  return out;
}

std::string html_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string table_heading(const ReportContent& c) {
  return "Metrics: mean ± std over " + std::to_string(repetitions(c.input)) + " repetition(s)";
}

const char* kTableNote =
    "Every metric of summary.csv (definitions in docs/metrics.md): headline metrics first, in "
    "bold, the others folded below them. The std is the sample standard deviation over "
    "repetitions (0 with one repetition).";

}  // namespace

std::string format_number(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  if (v == std::floor(v) && std::fabs(v) < 1e15)
    std::snprintf(buf, sizeof buf, "%.0f", v);
  else if (std::fabs(v) >= 1e4)
    std::snprintf(buf, sizeof buf, "%.1f", v);
  else
    std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

// The std gets as many decimals as the mean shows, so both read at the same precision, and
// at least two significant digits (0.32 ± 0.019, not 0.32 ± 0.02).
std::string format_mean_std(double mean, double std) {
  const std::string m = format_number(mean);
  const std::size_t dot = m.find('.');
  if (m.find_first_of("en") != std::string::npos || !std::isfinite(std) || std < 0)
    return m + " ± " + format_number(std);
  int decimals = dot == std::string::npos ? 0 : static_cast<int>(m.size() - dot - 1);
  if (std > 0)
    decimals = std::max(decimals, std::min(12, 1 - static_cast<int>(std::floor(std::log10(std)))));
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, std);
  return m + " ± " + buf;
}

std::string metric_unit(const std::string& m) {
  auto starts = [&](const char* p) { return m.rfind(p, 0) == 0; };
  auto ends = [&](const std::string& x) {
    return m.size() >= x.size() && m.compare(m.size() - x.size(), x.size(), x) == 0;
  };
  if (m == "utilization" || ends("_utilization") || starts("load_ratio")) return "fraction";
  if (starts("wait") || starts("run_") || m == "span" || m == "theoretical_runtime") return "s";
  if (m == "first_submit" || m == "last_end") return "s since t=0";
  if (starts("slowdown") || starts("bounded_slowdown") || starts("user_bounded")) return "×";
  if (starts("queue_")) return "jobs waiting";
  if (m == "completed" || m == "killed" || m == "rejected" || m == "stalled") return "jobs";
  if (starts("fragmentation")) return "node blocks";
  if (starts("switch_level")) return "tree level";
  if (m == "user_fairness_jain") return "1 = even";
  return "";
}

std::string metric_label(const std::string& m) {
  if (m == "span") return "span = makespan (s)";
  const std::string unit = metric_unit(m);
  return unit.empty() ? m : m + " (" + unit + ")";
}

namespace {

const char* kPairedNote =
    "Each scheduler minus the first one, repetition by repetition (the same seed on both sides), "
    "with a 95 % Student-t confidence interval of the mean difference; 'significant' when the "
    "interval excludes 0.";

}  // namespace

std::string render_markdown(const ReportContent& c) {
  const ComparisonInput& in = c.input;
  std::ostringstream md;
  md << "# Scheduler comparison: " << in.title << "\n\n"
     << "| input | value |\n|---|---|\n"
     << "| cluster | " << md_cell(in.cluster_text) << " |\n"
     << "| workload | " << md_cell(in.workload_text) << " |\n"
     << "| schedulers | " << md_cell(scheduler_list(in)) << " |\n"
     << "| hetsched | " << md_cell(in.version) << " |\n\n"
     << "Command:\n\n```\n"
     << in.command << "\n```\n\n";
  md << "## " << table_heading(c) << "\n\n" << kTableNote << "\n\n| metric |";
  for (const SchedulerRuns& s : in.schedulers) md << ' ' << md_cell(s.scheduler) << " |";
  const std::string rule = [&] {
    std::string text = "\n|---|";
    for (std::size_t i = 0; i < in.schedulers.size(); ++i) text += "---:|";
    return text + "\n";
  }();
  md << rule;
  for (std::size_t r = 0; r < c.rows.size(); ++r) {
    const bool bold = r < c.headline_count;
    if (r == c.headline_count && r > 0) {  // the rest folded below the headline metrics
      md << "\n<details><summary>All other metrics (" << c.rows.size() - r
         << ")</summary>\n\n| metric |";
      for (const SchedulerRuns& s : in.schedulers) md << ' ' << md_cell(s.scheduler) << " |";
      md << rule;
    }
    const std::string label = metric_label(c.rows[r].metric);
    md << "| " << (bold ? "**" + label + "**" : label) << " |";
    for (std::size_t i = 0; i < c.rows[r].mean.size(); ++i)
      md << ' ' << format_mean_std(c.rows[r].mean[i], c.rows[r].std[i]) << " |";
    md << "\n";
  }
  if (c.headline_count > 0 && c.headline_count < c.rows.size()) md << "\n</details>\n";
  if (!c.missing_headline.empty()) {
    md << "\nHeadline metrics not measured in these runs:";
    for (const std::string& m : c.missing_headline) md << ' ' << m;
    md << ".\n";
  }
  if (!c.paired.empty()) {
    md << "\n## Against " << c.paired.front().baseline << "\n\n" << kPairedNote << "\n\n";
    for (const PairedDifference& d : c.paired) md << "- " << describe_difference(d) << "\n";
  }
  md << "\n## Plots\n\n";
  if (!c.plotter_note.empty()) md << "**" << c.plotter_note << "**\n\n";
  for (const PlotSection& p : c.plots) {
    md << "### " << p.spec.heading << "\n\n";
    if (!p.image.empty())
      md << "![" << p.spec.heading << "](" << p.image << ")\n\n";
    else if (!p.problem.empty())
      md << "*Not rendered: " << p.problem << "*\n\n";
    if (!p.spec.caption.empty()) md << p.spec.caption << "\n\n";
    for (const std::string& n : p.spec.notes) md << "*" << n << "*\n\n";
  }
  md << "## Run directories\n\n";
  for (const SchedulerRuns& s : in.schedulers) {
    md << "- " << s.scheduler << ":";
    for (const std::string& d : s.run_dirs) md << " `" << d << "`";
    md << "\n";
  }
  md << "\nData files and gnuplot scripts of every plot are in `plots/` "
        "(`cd plots && gnuplot usage.gp` redraws one).\n";
  return md.str();
}

std::string render_html(const ReportContent& c) {
  const ComparisonInput& in = c.input;
  std::ostringstream h;
  h << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>"
    << html_escape("Scheduler comparison: " + in.title) << "</title>\n<style>\n"
    << "body{font-family:sans-serif;max-width:1240px;margin:2em auto;padding:0 1em;color:#222}\n"
    << "table{border-collapse:collapse;margin:1em 0}\n"
    << "th,td{border:1px solid #ccc;padding:3px 9px}\n"
    << "td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
    << "tr.headline td{font-weight:bold;background:#f3f6fa}\n"
    << "pre{background:#f5f5f5;padding:.6em;overflow-x:auto}\n"
    << "img{max-width:100%;border:1px solid #ddd}\n.note{color:#555;font-style:italic}\n"
    << ".warn{color:#a00;font-weight:bold}\n</style>\n</head>\n<body>\n";
  h << "<h1>" << html_escape("Scheduler comparison: " + in.title) << "</h1>\n<table>\n"
    << "<tr><th>cluster</th><td>" << html_escape(in.cluster_text) << "</td></tr>\n"
    << "<tr><th>workload</th><td>" << html_escape(in.workload_text) << "</td></tr>\n"
    << "<tr><th>schedulers</th><td>" << html_escape(scheduler_list(in)) << "</td></tr>\n"
    << "<tr><th>hetsched</th><td>" << html_escape(in.version) << "</td></tr>\n"
    << "</table>\n<p>Command:</p>\n<pre>" << html_escape(in.command) << "</pre>\n";
  h << "<h2>" << html_escape(table_heading(c)) << "</h2>\n<p>" << html_escape(kTableNote)
    << "</p>\n<table>\n<tr><th>metric</th>";
  for (const SchedulerRuns& s : in.schedulers) h << "<th>" << html_escape(s.scheduler) << "</th>";
  h << "</tr>\n";
  for (std::size_t r = 0; r < c.rows.size(); ++r) {
    if (r == c.headline_count && r > 0) {
      h << "</table>\n<details><summary>All other metrics (" << c.rows.size() - r
        << ")</summary>\n<table>\n<tr><th>metric</th>";
      for (const SchedulerRuns& s : in.schedulers) h << "<th>" << html_escape(s.scheduler) << "</th>";
      h << "</tr>\n";
    }
    h << (r < c.headline_count ? "<tr class=\"headline\">" : "<tr>") << "<td>"
      << html_escape(metric_label(c.rows[r].metric)) << "</td>";
    for (std::size_t i = 0; i < c.rows[r].mean.size(); ++i)
      h << "<td class=\"num\">" << html_escape(format_mean_std(c.rows[r].mean[i], c.rows[r].std[i]))
        << "</td>";
    h << "</tr>\n";
  }
  h << "</table>\n";
  if (c.headline_count > 0 && c.headline_count < c.rows.size()) h << "</details>\n";
  if (!c.missing_headline.empty()) {
    h << "<p class=\"note\">Headline metrics not measured in these runs:";
    for (const std::string& m : c.missing_headline) h << ' ' << html_escape(m);
    h << ".</p>\n";
  }
  if (!c.paired.empty()) {
    h << "<h2>Against " << html_escape(c.paired.front().baseline) << "</h2>\n<p>"
      << html_escape(kPairedNote) << "</p>\n<ul>\n";
    for (const PairedDifference& d : c.paired)
      h << "<li>" << html_escape(describe_difference(d)) << "</li>\n";
    h << "</ul>\n";
  }
  h << "<h2>Plots</h2>\n";
  if (!c.plotter_note.empty()) h << "<p class=\"warn\">" << html_escape(c.plotter_note) << "</p>\n";
  for (const PlotSection& p : c.plots) {
    h << "<h3>" << html_escape(p.spec.heading) << "</h3>\n";
    if (!p.image.empty())
      h << "<p><img src=\"" << html_escape(p.image) << "\" alt=\"" << html_escape(p.spec.heading)
        << "\"></p>\n";
    else if (!p.problem.empty())
      h << "<p class=\"warn\">Not rendered: " << html_escape(p.problem) << "</p>\n";
    if (!p.spec.caption.empty()) h << "<p>" << html_escape(p.spec.caption) << "</p>\n";
    for (const std::string& n : p.spec.notes)
      h << "<p class=\"note\">" << html_escape(n) << "</p>\n";
  }
  h << "<h2>Run directories</h2>\n<ul>\n";
  for (const SchedulerRuns& s : in.schedulers) {
    h << "<li>" << html_escape(s.scheduler) << ":";
    for (const std::string& d : s.run_dirs) h << " <code>" << html_escape(d) << "</code>";
    h << "</li>\n";
  }
  h << "</ul>\n<p>Data files and gnuplot scripts of every plot are in <code>plots/</code>.</p>\n"
    << "</body>\n</html>\n";
  return h.str();
}

}  // namespace hs::report
