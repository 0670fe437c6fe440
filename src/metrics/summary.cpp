#include "metrics/summary.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "metrics/job_metrics.hpp"
#include "metrics/usage.hpp"

namespace hs {

namespace {

double ratio(double num, double den) { return den > 0 ? num / den : 0.0; }

void count_statuses(const Workload& workload, const SimResult& result, Summary& s) {
  s.jobs = static_cast<std::int64_t>(workload.jobs.size());
  for (const JobRecord& r : result.records) {
    switch (r.status) {
      case JobStatus::Completed: ++s.completed; break;
      case JobStatus::Killed: ++s.killed; break;
      case JobStatus::Rejected: ++s.rejected; break;
      case JobStatus::Stalled: ++s.stalled; break;
    }
  }
  s.passes = result.passes;
}

void time_frame(const Workload& workload, const SimResult& result, Summary& s) {
  bool any = false;
  for (std::size_t j = 0; j < workload.jobs.size(); ++j) {
    if (!job_ran(result.records[j])) continue;
    s.first_submit = any ? std::min(s.first_submit, workload.jobs[j].submit)
                         : workload.jobs[j].submit;
    s.last_end = any ? std::max(s.last_end, result.records[j].end) : result.records[j].end;
    any = true;
  }
  s.span = any ? s.last_end - s.first_submit : 0;
}

// T_theo and allocated resource-seconds summed job by job.
void utilization(const Cluster& cluster, const Workload& workload, const SimResult& result,
                 Summary& s) {
  s.total_cores = cluster.total_cores();
  double work = 0, core_seconds = 0;
  std::vector<double> gres_seconds(cluster.gres_types.size(), 0.0);
  for (std::size_t j = 0; j < workload.jobs.size(); ++j) {
    const JobRecord& r = result.records[j];
    if (!job_ran(r)) continue;
    const Job& job = workload.jobs[j];
    const double held = static_cast<double>(r.end - r.start);
    work += static_cast<double>(std::min(job.run_time, job.req.time_limit)) * job.req.ntasks;
    std::int64_t cores = 0;  // as held: whole cores where a node's CPUs are threads
    r.alloc.for_each_share([&](const NodeShare& share) { cores += cluster.nodes[share.node].held_cores(share.cores); });
    core_seconds += held * static_cast<double>(cores);
    for (std::size_t t = 0; t < gres_seconds.size(); ++t)
      gres_seconds[t] += held * static_cast<double>(r.alloc.total_gres(static_cast<int>(t)));
  }
  const double span = static_cast<double>(s.span);
  s.theoretical_runtime = ratio(work, static_cast<double>(s.total_cores));
  s.utilization = ratio(s.theoretical_runtime, span);
  s.core_utilization = ratio(core_seconds, static_cast<double>(s.total_cores) * span);
  for (std::size_t t = 0; t < gres_seconds.size(); ++t) {
    const std::int64_t total = cluster.total_gres(static_cast<int>(t));
    s.gres_names.push_back(cluster.gres_types[t]);
    s.gres_totals.push_back(total);
    s.gres_utilization.push_back(ratio(gres_seconds[t], static_cast<double>(total) * span));
  }
}

void load_ratios(const Cluster& cluster, const SimResult& result, Summary& s) {
  const UsageIntegral used =
      integrate_usage(usage_series(cluster, result), s.first_submit, s.last_end);
  const double span = static_cast<double>(s.span);
  s.load_ratio_cores = ratio(used.cores, static_cast<double>(s.total_cores) * span);
  for (std::size_t t = 0; t < s.gres_totals.size(); ++t)
    s.load_ratio_gres.push_back(ratio(used.gres[t], static_cast<double>(s.gres_totals[t]) * span));
  std::int64_t total_mem = 0;
  for (const Node& n : cluster.nodes) total_mem += n.memory_mb;
  if (total_mem > 0) s.load_ratio_mem = ratio(used.mem_mb, static_cast<double>(total_mem) * span);
}

void per_job(const Cluster& cluster, const Workload& workload, const SimResult& result,
             Summary& s) {
  std::vector<double> wait, run, slow, bounded, packing, frag, spr, level;
  const MinNodesPossible min_nodes(cluster);
  for (std::size_t j = 0; j < workload.jobs.size(); ++j) {
    const JobRecord& r = result.records[j];
    if (!job_ran(r)) continue;
    const Job& job = workload.jobs[j];
    const JobTiming t = job_timing(job, r);
    wait.push_back(static_cast<double>(t.wait));
    run.push_back(static_cast<double>(t.run));
    slow.push_back(t.slowdown);
    bounded.push_back(t.bounded_slowdown);
    const Allocation alloc = r.alloc.unpack();
    if (auto p = packing_factor(min_nodes, job, alloc)) packing.push_back(*p);
    frag.push_back(fragmentation(alloc));
    spr.push_back(spread(alloc));
    if (cluster.topology) {
      const std::vector<NodeIndex> nodes = alloc.nodes();
      level.push_back(cluster.topology->lowest_common_level(nodes));
    }
  }
  s.wait = describe(wait);
  s.run = describe(run);
  s.slowdown = describe(slow);
  s.bounded_slowdown = describe(bounded);
  s.packing_factor = describe(packing);
  s.fragmentation = describe(frag);
  s.spread = describe(spr);
  if (cluster.topology) s.switch_level = describe(level);
}

// Each sample's pending count holds from its pass until the next pass (or the span's end).
void queue_stats(const SimResult& result, Summary& s) {
  if (result.queue.empty()) return;
  double sum = 0, weighted = 0;
  for (std::size_t i = 0; i < result.queue.size(); ++i) {
    const QueueSample& q = result.queue[i];
    sum += q.pending;
    s.queue_max = std::max<std::int64_t>(s.queue_max, q.pending);
    const Time until = i + 1 < result.queue.size() ? result.queue[i + 1].time : s.last_end;
    const Time from = std::max(q.time, s.first_submit);
    if (until > from) weighted += static_cast<double>(q.pending) * static_cast<double>(until - from);
  }
  s.queue_mean = sum / static_cast<double>(result.queue.size());
  s.queue_time_mean = ratio(weighted, static_cast<double>(s.span));
}

// with_tail: also the maximum and the 50th, 95th and 99th percentiles.
void add_stat(std::vector<SummaryField>& f, const std::string& name, const Stat& st,
              bool with_tail) {
  f.push_back({name + "_mean", st.mean, false});
  f.push_back({name + "_std", st.std, false});
  if (!with_tail) return;
  f.push_back({name + "_max", st.max, false});
  f.push_back({name + "_p50", st.p50, false});
  f.push_back({name + "_p95", st.p95, false});
  f.push_back({name + "_p99", st.p99, false});
}

void add_fairness(std::vector<SummaryField>& f, const Fairness& fair) {
  f.push_back({"users", static_cast<double>(fair.users), true});
  f.push_back({"user_fairness_jain", fair.user_jain, false});
  f.push_back({"user_bounded_slowdown_worst", fair.user_worst_bsld, false});
  for (const JobClassStat& c : fair.classes) {
    f.push_back({"jobs_" + c.name, static_cast<double>(c.jobs), true});
    f.push_back({"wait_mean_" + c.name, c.wait_mean, false});
    f.push_back({"bounded_slowdown_mean_" + c.name, c.bounded_slowdown_mean, false});
  }
}

std::string format_value(const SummaryField& f) {
  char buf[64];
  if (f.integer)
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(std::llround(f.value)));
  else
    std::snprintf(buf, sizeof buf, "%.4f", f.value);
  return buf;
}

}  // namespace

Stat describe(const std::vector<double>& values) {
  Stat st;
  st.count = static_cast<std::int64_t>(values.size());
  if (values.empty()) return st;
  double sum = 0;
  st.min = st.max = values.front();
  for (double v : values) {
    sum += v;
    st.min = std::min(st.min, v);
    st.max = std::max(st.max, v);
  }
  st.mean = sum / static_cast<double>(values.size());
  std::vector<double> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  // Nearest rank: the smallest value with at least p % of the values at or below it.
  auto rank = [&](double p) {
    const auto k = static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(sorted.size())));
    return sorted[std::max<std::size_t>(k, 1) - 1];
  };
  st.p50 = rank(50);
  st.p95 = rank(95);
  st.p99 = rank(99);
  double sq = 0;
  for (double v : values) sq += (v - st.mean) * (v - st.mean);
  st.std = std::sqrt(sq / static_cast<double>(values.size()));
  return st;
}

Summary summarize(const Cluster& cluster, const Workload& workload, const SimResult& result) {
  Summary s;
  count_statuses(workload, result, s);
  time_frame(workload, result, s);
  utilization(cluster, workload, result, s);
  load_ratios(cluster, result, s);
  per_job(cluster, workload, result, s);
  s.fairness = measure_fairness(cluster, workload, result);
  queue_stats(result, s);
  return s;
}

std::vector<SummaryField> summary_fields(const Summary& s) {
  std::vector<SummaryField> f;
  auto count = [&](const std::string& name, std::int64_t v) {
    f.push_back({name, static_cast<double>(v), true});
  };
  count("jobs", s.jobs);
  count("completed", s.completed);
  count("killed", s.killed);
  count("rejected", s.rejected);
  count("stalled", s.stalled);
  count("first_submit", s.first_submit);
  count("last_end", s.last_end);
  count("span", s.span);
  f.push_back({"theoretical_runtime", s.theoretical_runtime, false});
  f.push_back({"utilization", s.utilization, false});
  f.push_back({"core_utilization", s.core_utilization, false});
  for (std::size_t t = 0; t < s.gres_names.size(); ++t)
    f.push_back({s.gres_names[t] + "_utilization", s.gres_utilization[t], false});
  f.push_back({"load_ratio_cores", s.load_ratio_cores, false});
  for (std::size_t t = 0; t < s.gres_names.size(); ++t)
    f.push_back({"load_ratio_" + s.gres_names[t], s.load_ratio_gres[t], false});
  if (s.load_ratio_mem) f.push_back({"load_ratio_mem", *s.load_ratio_mem, false});
  add_stat(f, "wait", s.wait, true);
  add_stat(f, "run", s.run, false);
  add_stat(f, "slowdown", s.slowdown, true);
  add_stat(f, "bounded_slowdown", s.bounded_slowdown, true);
  add_stat(f, "packing_factor", s.packing_factor, false);
  add_stat(f, "fragmentation", s.fragmentation, false);
  add_stat(f, "spread", s.spread, false);
  if (s.switch_level) add_stat(f, "switch_level", *s.switch_level, false);
  add_fairness(f, s.fairness);
  count("passes", s.passes);
  f.push_back({"queue_mean", s.queue_mean, false});
  count("queue_max", s.queue_max);
  f.push_back({"queue_time_mean", s.queue_time_mean, false});
  return f;
}

void print_summary(const Summary& summary, std::ostream& out) {
  const std::vector<SummaryField> fields = summary_fields(summary);
  std::size_t name_width = 6, value_width = 5;
  std::vector<std::string> values;
  for (const SummaryField& f : fields) {
    values.push_back(format_value(f));
    name_width = std::max(name_width, f.name.size());
    value_width = std::max(value_width, values.back().size());
  }
  char line[256];
  std::snprintf(line, sizeof line, "%-*s  %*s\n", static_cast<int>(name_width), "metric",
                static_cast<int>(value_width), "value");
  out << line;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    std::snprintf(line, sizeof line, "%-*s  %*s\n", static_cast<int>(name_width),
                  fields[i].name.c_str(), static_cast<int>(value_width), values[i].c_str());
    out << line;
  }
}

}  // namespace hs
