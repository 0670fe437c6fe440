#include "cli/repro_document.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

namespace hs::cli::repro {

namespace {

const std::set<std::string> kDirectionMetrics = {
    "utilization", "utilization_pct", "runtime_h", "wait_h", "slowdown", "fragmentation",
    "spread", "packing", "switch_level", "queue"};

std::string read_note(const std::string& dir, const std::string& name) {
  std::ifstream in(dir + "/" + name + ".md");
  if (!in) return "";
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

int decimals_of(const std::string& text) {
  const auto dot = text.find('.');
  return dot == std::string::npos ? 0 : static_cast<int>(text.size() - dot - 1);
}

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

struct RowKey {
  std::string row, machine, workload, scheduler;
  bool operator<(const RowKey& o) const {
    return std::tie(row, machine, workload, scheduler) <
           std::tie(o.row, o.machine, o.workload, o.scheduler);
  }
  bool operator==(const RowKey& o) const {
    return row == o.row && machine == o.machine && workload == o.workload &&
           scheduler == o.scheduler;
  }
};

// Our value of one published row's metric, if its group ran.
struct Ours {
  bool have = false;
  MeanStd value;
  int repeat = 0;
};

class TableView {
 public:
  TableView(const DocumentInput& in, const std::string& table) : in_(in), table_(table) {
    for (const auto& p : in.published)
      if (p.table == table) values_.push_back(&p);
  }

  Ours ours(const PublishedValue& p) const {
    const Experiment* e = experiment(p);
    if (!e) return {};
    const std::string& workload = workload_used(*e, in_.settings.quick);
    for (std::size_t g = 0; g < in_.groups.size(); ++g) {
      const RunGroup& group = in_.groups[g];
      const GroupResult& r = in_.results[g];
      if (group.cluster != e->cluster || group.workload != workload || !r.ran) continue;
      const auto s = r.metrics.find(e->scheduler_spec);
      const MetricMapping* m = find_metric(p.metric);
      if (s == r.metrics.end() || !m) return {};
      const auto f = s->second.find(m->field);
      if (f == s->second.end()) return {};
      return {true, {f->second.mean * m->scale, f->second.std * std::abs(m->scale)}, r.repeat};
    }
    return {};
  }

  const std::vector<const PublishedValue*>& values() const { return values_; }

  std::vector<std::size_t> groups_used() const {
    std::vector<std::size_t> out;
    for (std::size_t g = 0; g < in_.groups.size(); ++g)
      for (const auto& t : in_.groups[g].tables)
        if (t == table_) out.push_back(g);
    return out;
  }

 private:
  const Experiment* experiment(const PublishedValue& p) const {
    for (const auto& e : in_.experiments)
      if (e.table == p.table && e.machine == p.machine && e.workload == p.workload &&
          e.scheduler == p.scheduler)
        return &e;
    return nullptr;
  }

  const DocumentInput& in_;
  std::string table_;
  std::vector<const PublishedValue*> values_;
};

struct TableStats {
  std::size_t published = 0, compared = 0, close = 0;
  std::size_t directions = 0, directions_agree = 0;
  std::map<std::string, std::pair<std::size_t, std::size_t>> per_metric;  // agree, total
  std::size_t runs = 0, violations = 0, failed = 0;
  double wall = 0;
  int min_repeat = 0, max_repeat = 0;
};

std::string cell_text(const PublishedValue& p, const Ours& o, bool* large) {
  std::string text = p.text + " / ";
  if (!o.have) return text + "—";
  const int d = std::max(decimals_of(p.text), std::abs(o.value.mean) < 10 ? 2 : 0);
  std::string ours = fixed(o.value.mean, d);
  if (o.repeat > 1) ours += " ± " + fixed(o.value.std, d);
  *large = large_difference(p.metric, p.value, o.value.mean);
  return text + (*large ? "**" + ours + "**" : ours);
}

// Side-by-side markdown table: one line per published row, one column per metric.
std::string render_values(const TableView& view, TableStats& stats) {
  std::vector<std::string> metrics;
  for (const auto& m : metric_mappings())
    for (const auto* p : view.values())
      if (p->metric == m.metric) {
        metrics.push_back(m.metric);
        break;
      }
  std::vector<RowKey> rows;
  std::map<RowKey, std::map<std::string, const PublishedValue*>> cells;
  for (const auto* p : view.values()) {
    RowKey k{p->row, p->machine, p->workload, p->scheduler};
    if (!cells.count(k)) rows.push_back(k);
    cells[k][p->metric] = p;
  }
  std::ostringstream out;
  out << "| row | machine | workload | scheduler |";
  for (const auto& m : metrics) out << " " << find_metric(m)->heading << " |";
  out << "\n|---|---|---|---|";
  for (std::size_t i = 0; i < metrics.size(); ++i) out << "---|";
  out << "\n";
  for (const auto& k : rows) {
    out << "| " << k.row << " | " << k.machine << " | " << k.workload << " | " << k.scheduler
        << " |";
    for (const auto& m : metrics) {
      const auto it = cells[k].find(m);
      if (it == cells[k].end()) {
        out << " |";
        continue;
      }
      ++stats.published;
      bool large = false;
      const Ours o = view.ours(*it->second);
      out << " " << cell_text(*it->second, o, &large) << " |";
      if (o.have) {
        ++stats.compared;
        stats.close += !large;
      }
    }
    out << "\n";
  }
  return out.str();
}

// Does the sign of (scheduler − its baseline) agree between the document and us?
void count_directions(const TableView& view, TableStats& stats, std::ostringstream& detail) {
  std::map<std::tuple<std::string, std::string, std::string, std::string>,
           const PublishedValue*> index;
  for (const auto* p : view.values())
    index[{p->machine, p->workload, p->scheduler, p->metric}] = p;
  for (const auto* p : view.values()) {
    if (!kDirectionMetrics.count(p->metric)) continue;
    const std::string base = baseline_of(p->scheduler);
    if (base.empty()) continue;
    const auto b = index.find({p->machine, p->workload, base, p->metric});
    if (b == index.end()) continue;
    const double pub = p->value - b->second->value;
    if (pub == 0) continue;  // a published tie says nothing about direction
    const Ours o = view.ours(*p), ob = view.ours(*b->second);
    if (!o.have || !ob.have) continue;
    const double ours = o.value.mean - ob.value.mean;
    ++stats.directions;
    const bool agree = (pub > 0) == (ours > 0) && ours != 0;
    stats.directions_agree += agree;
    auto& tally = stats.per_metric[p->metric];
    tally.first += agree;
    ++tally.second;
    if (!agree)
      detail << p->machine << " " << p->workload << " " << p->metric << ": " << p->scheduler
             << " vs " << base << " published " << (pub > 0 ? "+" : "") << fixed(pub, 3)
             << ", ours " << (ours > 0 ? "+" : "") << fixed(ours, 3) << "; ";
  }
}

std::string render_setup(const DocumentInput& in, const TableView& view, TableStats& stats) {
  std::ostringstream out;
  for (std::size_t g : view.groups_used()) {
    const RunGroup& group = in.groups[g];
    const GroupResult& r = in.results[g];
    out << "- `" << group.workload << "` on `" << group.cluster << "`: ";
    if (r.skipped) {
      out << "**not run** in this reproduction (time budget); to run it:\n  `" << r.command
          << "`\n";
      continue;
    }
    if (!r.ran) {
      out << "**did not run**: " << r.error << "\n";
      continue;
    }
    stats.runs += r.runs;
    stats.violations += r.violations;
    stats.failed += r.failed_runs;
    stats.wall += r.wall_seconds;
    stats.min_repeat = stats.min_repeat ? std::min(stats.min_repeat, r.repeat) : r.repeat;
    stats.max_repeat = std::max(stats.max_repeat, r.repeat);
    char wall[32];
    std::snprintf(wall, sizeof wall, "%.1f", r.wall_seconds);
    out << r.jobs << " jobs, " << group.schedulers.size() - r.missing.size()
        << " scheduler(s) x " << r.repeat
        << " repetition(s), " << r.violations << " checker violation(s), " << wall
        << " s wall";
    if (!r.missing.empty()) {
      out << "; **not run** in this reproduction (time budget):";
      for (const auto& m : r.missing) out << " `" << m << "`";
    }
    out << "\n  `" << r.command << "`\n";
  }
  return out.str();
}

std::string per_metric_text(const TableStats& s) {
  if (s.per_metric.empty()) return "";
  std::string text = " (";
  for (const auto& [metric, tally] : s.per_metric)
    text += (text.size() > 2 ? ", " : "") + find_metric(metric)->heading + " " +
            std::to_string(tally.first) + "/" + std::to_string(tally.second);
  return text + ")";
}

std::string repeat_text(const TableStats& s) {
  if (!s.max_repeat) return "—";
  if (s.min_repeat == s.max_repeat) return std::to_string(s.max_repeat);
  return std::to_string(s.min_repeat) + "–" + std::to_string(s.max_repeat);
}

}  // namespace

bool large_difference(const std::string& metric, double published, double ours) {
  if (metric == "utilization") return std::abs(ours - published) > 0.05;
  if (metric == "utilization_pct") return std::abs(ours - published) > 5;
  const double rel = metric == "runtime_h" || metric == "theo_runtime_h" ? 0.10 : 0.25;
  const double scale = std::max(std::abs(published), 1e-9);
  return std::abs(ours - published) / scale > rel;
}

std::string baseline_of(const std::string& scheduler) {
  const auto plus = scheduler.find('+');
  if (plus != std::string::npos) {
    const auto second = scheduler.find('+', plus + 1);
    const std::string alloc = scheduler.substr(plus + 1, second - plus - 1);
    if (alloc == "ff") return "";
    return scheduler.substr(0, plus) + "+ff" +
           (second == std::string::npos ? "" : scheduler.substr(second));
  }
  if (scheduler.rfind("backfill", 0) == 0) return "";
  if (scheduler.find("-multifactor") != std::string::npos) return "backfill-multifactor";
  if (scheduler.find("-basic") != std::string::npos) return "backfill-basic";
  return "backfill";
}

std::string render_document(const DocumentInput& in) {
  std::ostringstream body, overview;
  overview << "| table | repetitions | runs | checker violations | published numbers | "
              "compared | within tolerance | direction vs baseline agrees | wall (s) |\n"
              "|---|---|---|---|---|---|---|---|---|\n";
  double compute = 0;
  for (const auto& r : in.results) compute += r.wall_seconds;
  for (const auto& id : in.tables) {
    const TableInfo* info = find_table(id);
    const TableView view(in, id);
    TableStats stats;
    const std::string setup = render_setup(in, view, stats);
    const std::string values = render_values(view, stats);
    std::ostringstream mismatches;
    count_directions(view, stats, mismatches);
    body << "## " << info->source << ": " << info->title << " (`" << id << "`)\n\n"
         << "Runs (seeds " << in.settings.seed << ".. per repetition; every cell is "
         << "`published / ours`, ours as mean ± std over repetitions, **bold** where the "
         << "difference is large):\n\n"
         << (view.groups_used().size() > 2
                 ? "<details><summary>" + std::to_string(view.groups_used().size()) +
                       " comparisons and their commands</summary>\n\n" + setup +
                       "\n</details>\n"
                 : setup)
         << "\nChecker violations: " << stats.violations << " in " << stats.runs
         << " runs" << (stats.failed ? " (" + std::to_string(stats.failed) + " runs failed)" : "")
         << ".\n\n" << values << "\n"
         << "Within tolerance: " << stats.close << " of " << stats.compared
         << " compared numbers. Direction against the baseline (" << "sign of scheduler − "
         << "baseline for utilization, run time, wait, slowdown, fragmentation, spread, packing, "
         << "switch level, queue size) agrees in " << stats.directions_agree << " of "
         << stats.directions << " published comparisons" << per_metric_text(stats) << ".\n\n";
    if (!mismatches.str().empty())
      body << "<details><summary>Comparisons whose direction differs</summary>\n\n"
           << mismatches.str() << "\n\n</details>\n\n";
    const std::string note = read_note(in.notes_dir, id);
    body << "### Why the numbers differ\n\n"
         << (note.empty() ? "(no note written for this table)\n" : note) << "\n";
    char wall[32];
    std::snprintf(wall, sizeof wall, "%.0f", stats.wall);
    overview << "| " << info->source << " | " << repeat_text(stats) << " | " << stats.runs
             << " | " << stats.violations << " | " << stats.published << " | "
             << stats.compared << " | " << stats.close << " | " << stats.directions_agree
             << " / " << stats.directions << " | " << wall << " |\n";
  }
  std::ostringstream doc;
  char times[160];
  std::snprintf(times, sizeof times,
                "Wall time: %.0f s for this invocation; %.0f s of comparison runs in total "
                "(%.1f min).",
                in.wall_seconds, compute, compute / 60);
  doc << "# Reproduction of the published results\n\n"
      << "Generated by `" << in.command << "` (this document is that command's output; "
      << "do not edit it by hand — edit repro/notes/ and rerun).\n"
      << (in.settings.quick ? "\n**Quick mode**: a tiny subset on reduced workloads, one "
                              "repetition — the numbers are not comparable with the documents.\n"
                            : "")
      << "\n" << times << "\n\n" << overview.str() << "\n"
      << "Tolerance: utilization within 5 points, run times within 10 %, every other measure "
         "within 25 % of the published value.\n\n"
      << read_note(in.notes_dir, "general") << "\n" << body.str() << "\n"
      << read_note(in.notes_dir, "method");
  return doc.str();
}

}  // namespace hs::cli::repro
