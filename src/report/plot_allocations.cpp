// Plot (2): nodes × time charts. Node positions come from the natural order of every node
// name the charted runs use (the cluster itself is not in the run files). Each job draws
// one rectangle per contiguous block of node positions, coloured by the resource class it
// asked for; shades alternate between jobs so neighbours stay distinguishable.
#include <algorithm>
#include <map>
#include <sstream>

#include "report/plots.hpp"
#include "report/report_text.hpp"
#include "util/natural_sort.hpp"

namespace hs::report {

namespace {

// Class 0 = cores only; class 1 + t = uses gres type t (first type it holds).
const char* kShades[][3] = {{"#4C78A8", "#6F94C2", "#2F5D8C"},   // cores only: blues
                            {"#E4572E", "#F08A4B", "#B83A1B"},   // first gres type: oranges
                            {"#3C9D5D", "#6CC08B", "#23703F"},   // second: greens
                            {"#8E5EA2", "#B38BC6", "#6A3D80"},   // third: purples
                            {"#8C6D31", "#BD9E5A", "#5E4A1F"}};  // fourth: browns

// Thin white borders separate neighbouring jobs; on dense charts they would only add noise.
constexpr std::size_t kBorderedJobs = 1500;

int job_class(const JobRun& job) {
  for (std::size_t t = 0; t < job.gres.size() && t < 4; ++t)
    if (job.gres[t] > 0) return 1 + static_cast<int>(t);
  return 0;
}

std::uint32_t hex_colour(const char* hex) {
  return static_cast<std::uint32_t>(std::stoul(std::string(hex + 1), nullptr, 16));
}

std::map<std::string, int, bool (*)(const std::string&, const std::string&)> node_positions(
    const std::vector<JobsFile>& runs) {
  auto less = +[](const std::string& a, const std::string& b) { return natural_less(a, b); };
  std::map<std::string, int, bool (*)(const std::string&, const std::string&)> pos(less);
  for (const JobsFile& f : runs)
    for (const JobRun& j : f.ran)
      for (const NodeUse& n : j.nodes) pos.emplace(n.node, 0);
  int i = 0;
  for (auto& [name, p] : pos) p = i++;
  return pos;
}

// Runs of consecutive positions, as [first, last] pairs.
std::vector<std::pair<int, int>> blocks(std::vector<int> positions) {
  std::sort(positions.begin(), positions.end());
  std::vector<std::pair<int, int>> out;
  for (int p : positions) {
    if (!out.empty() && p <= out.back().second + 1)
      out.back().second = std::max(out.back().second, p);
    else
      out.push_back({p, p});
  }
  return out;
}

struct Drawn {
  std::vector<const JobRun*> jobs;  // sorted by (start, id)
  std::size_t kept = 0;             // prefix within the caps
  std::int64_t cut = -1;            // start of the first job left out; -1 when all fit
};

template <class Pos>
Drawn choose_jobs(const JobsFile& f, const Pos& pos, const ReportOptions& opt) {
  Drawn d;
  for (const JobRun& j : f.ran) d.jobs.push_back(&j);
  std::sort(d.jobs.begin(), d.jobs.end(), [](const JobRun* a, const JobRun* b) {
    return a->start != b->start ? a->start < b->start : a->id < b->id;
  });
  std::size_t rects = 0;
  for (; d.kept < d.jobs.size(); ++d.kept) {
    std::vector<int> p;
    for (const NodeUse& n : d.jobs[d.kept]->nodes) p.push_back(pos.at(n.node));
    rects += blocks(p).size();
    if (static_cast<int>(d.kept) >= opt.chart_max_jobs ||
        rects > static_cast<std::size_t>(opt.chart_max_blocks)) {
      d.cut = d.jobs[d.kept]->start;
      break;
    }
  }
  return d;
}

template <class Pos>
std::string rectangles(const Drawn& d, const Pos& pos, std::int64_t x_end, const TimeUnit& unit) {
  std::ostringstream out;
  out << "# x y x_low x_high y_low y_high rgb   (time in " << unit.name << ", y = node position)\n";
  for (std::size_t i = 0; i < d.jobs.size(); ++i) {
    const JobRun& j = *d.jobs[i];
    if (j.start >= x_end) break;
    const std::int64_t end = std::min(j.end, x_end);
    const std::uint32_t rgb = hex_colour(kShades[job_class(j)][j.id % 3]);
    std::vector<int> p;
    for (const NodeUse& n : j.nodes) p.push_back(pos.at(n.node));
    const double x0 = static_cast<double>(j.start) / unit.seconds;
    const double x1 = static_cast<double>(end) / unit.seconds;
    for (const auto& [a, b] : blocks(p))
      out << data_number((x0 + x1) / 2) << ' ' << data_number((a + b) / 2.0) << ' '
          << data_number(x0) << ' ' << data_number(x1) << ' ' << data_number(a - 0.5) << ' '
          << data_number(b + 0.5) << ' ' << rgb << '\n';
  }
  return out.str();
}

std::string chart_script(const std::string& id, const std::string& scheduler,
                         const std::string& data, const std::vector<std::string>& gres_names,
                         double x0, double x1, int nodes, const TimeUnit& unit, bool thin_borders) {
  std::ostringstream gp;
  gp << gp_png_header(id, 1200, 720);
  gp << "set title " << gp_quote("Allocations of " + scheduler + " (first repetition)") << "\n"
     << "set xlabel " << gp_quote("time (" + unit.name + ")") << "\n"
     << "set ylabel " << gp_quote("node position in 1-D order") << "\n"
     << "set xrange [" << data_number(x0) << ":" << data_number(x1) << "]\n"
     << "set yrange [-0.5:" << data_number(std::max(1, nodes) - 0.5) << "]\n"
     << (nodes == 0 ? "set label 'no job ran' at graph 0.5,0.5 center\n" : "")
     << (nodes > 0 && nodes <= 40 ? "set ytics 1\n" : "")  // one tic per node on small clusters
     << "set key outside right top vertical\nset grid front\n"
     << (thin_borders ? "set style fill transparent solid 0.75 border lc rgb '#60FFFFFF'\n"
                      : "set style fill transparent solid 0.75 noborder\n")
     << "plot " << gp_series(data, nodes > 0, "1:2:3:4:5:6:7")
     << " with boxxyerror lc rgb variable notitle";
  std::vector<std::string> labels = {"cores only"};
  for (const std::string& g : gres_names) labels.push_back("uses " + g);
  for (std::size_t c = 0; c < labels.size() && c < 5; ++c)
    gp << ", \\\n     NaN with boxes fs solid 0.75 lc rgb " << gp_quote(kShades[c][0]) << " title "
       << gp_quote(labels[c]);
  gp << "\n";
  return gp.str();
}

}  // namespace

std::vector<PlotSpec> write_allocation_charts(const PlotContext& ctx,
                                              const std::vector<JobsFile>& runs,
                                              const ReportOptions& options) {
  const auto pos = node_positions(runs);
  std::vector<Drawn> drawn;
  std::int64_t t0 = 0, t1 = 0, cut = -1;
  bool any = false;
  for (const JobsFile& f : runs) {
    drawn.push_back(choose_jobs(f, pos, options));
    if (drawn.back().cut >= 0) cut = cut < 0 ? drawn.back().cut : std::min(cut, drawn.back().cut);
    for (const JobRun& j : f.ran) {
      t0 = any ? std::min(t0, j.start) : j.start;
      t1 = any ? std::max(t1, j.end) : j.end;
      any = true;
    }
  }
  const std::int64_t x_end = cut >= 0 ? cut : t1;
  const TimeUnit unit = time_unit_for(static_cast<double>(x_end - t0));
  std::vector<PlotSpec> specs;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    PlotSpec spec{"allocations_" + ctx.stems[i], "Allocations: " + ctx.schedulers[i], "", {}};
    const std::string data = spec.id + ".dat";
    write_text_file(plot_path(ctx, data), rectangles(drawn[i], pos, x_end, unit));
    write_text_file(plot_path(ctx, spec.id + ".gp"),
                    chart_script(spec.id, ctx.schedulers[i], data, runs[i].gres_names,
                                 static_cast<double>(t0) / unit.seconds,
                                 static_cast<double>(std::max(x_end, t0 + 1)) / unit.seconds,
                                 static_cast<int>(pos.size()), unit,
                                 drawn[i].kept <= kBorderedJobs && drawn[i].cut < 0));
    if (i == 0)
      spec.caption =  // said once, under the first chart
          "Each rectangle is one job on one contiguous block of nodes, from its start to its end; "
          "a job split over several blocks draws several rectangles. Blue: cores only; warm "
          "colours: jobs holding generic resources. Jobs sharing nodes overlap, so mixed shades "
          "mark nodes used by several jobs at once.";
    if (i == 0 && cut >= 0)
      spec.notes.push_back("The trace is too large to draw whole: the time axis stops at " +
                           format_number(static_cast<double>(cut) / unit.seconds) + " " +
                           unit.name + ", where one of the runs exceeds " +
                           std::to_string(options.chart_max_jobs) + " jobs or " +
                           std::to_string(options.chart_max_blocks) +
                           " rectangles; the same window is shown for every scheduler.");
    if (i == 0)
      spec.notes.push_back("Node positions are the natural order of the " +
                           std::to_string(pos.size()) +
                           " node names these runs used; nodes never allocated are not shown.");
    specs.push_back(std::move(spec));
  }
  return specs;
}

}  // namespace hs::report
