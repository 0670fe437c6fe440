#include "metrics/usage.hpp"

#include "metrics/job_metrics.hpp"

#include <algorithm>

namespace hs {

namespace {

struct Change {
  Time time;
  int sign;
  const PackedAllocation* alloc;
};

void apply(const Cluster& cluster, UsagePoint& p, const Change& c) {
  c.alloc->for_each_share([&](const NodeShare& s) {
    p.cores += c.sign * cluster.nodes[s.node].held_cores(s.cores);
    p.mem_mb += c.sign * s.mem_mb;
    for (int t = 0; t < kMaxGresTypes; ++t) p.gres[t] += c.sign * s.gres[t];
  });
}

}  // namespace

std::vector<UsagePoint> usage_series(const Cluster& cluster, const SimResult& result) {
  std::vector<Change> changes;
  for (const JobRecord& r : result.records) {
    const bool ran = job_ran(r);
    if (!ran || r.end <= r.start) continue;
    changes.push_back({r.start, +1, &r.alloc});
    changes.push_back({r.end, -1, &r.alloc});
  }
  std::sort(changes.begin(), changes.end(),
            [](const Change& a, const Change& b) { return a.time < b.time; });
  std::vector<UsagePoint> series;
  UsagePoint current;
  for (std::size_t i = 0; i < changes.size(); ++i) {
    apply(cluster, current, changes[i]);
    if (i + 1 < changes.size() && changes[i + 1].time == changes[i].time) continue;
    current.time = changes[i].time;
    series.push_back(current);
  }
  return series;
}

UsageIntegral integrate_usage(const std::vector<UsagePoint>& series, Time from, Time to) {
  UsageIntegral sum;
  for (std::size_t i = 0; i + 1 < series.size(); ++i) {
    const Time a = std::max(series[i].time, from);
    const Time b = std::min(series[i + 1].time, to);
    if (b <= a) continue;
    const double width = static_cast<double>(b - a);
    sum.cores += width * static_cast<double>(series[i].cores);
    sum.mem_mb += width * static_cast<double>(series[i].mem_mb);
    for (int t = 0; t < kMaxGresTypes; ++t)
      sum.gres[t] += width * static_cast<double>(series[i].gres[t]);
  }
  return sum;
}

}  // namespace hs
