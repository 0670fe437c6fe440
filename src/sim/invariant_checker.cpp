#include "sim/invariant_checker.hpp"

#include <algorithm>
#include <array>
#include <tuple>

#include "model/request_fit.hpp"
#include "sim/moldable.hpp"

namespace hs {

namespace {

bool ran(const JobRecord& r) {
  return r.status == JobStatus::Completed || r.status == JobStatus::Killed;
}

std::string label(const Job& job) { return "job " + std::to_string(job.id) + ": "; }

void check_record(const Cluster& cluster, const Job& job, const JobRecord& rec,
                  std::vector<std::string>& out) {
  if (rec.status == JobStatus::Stalled) {
    out.push_back(label(job) + "stalled (" + rec.reason + ")");
    return;
  }
  if (rec.status == JobStatus::Rejected) {
    if (rec.reason.empty()) out.push_back(label(job) + "rejected without a reason");
    if (!rec.alloc.empty()) out.push_back(label(job) + "rejected but holds an allocation");
    return;
  }
  if (rec.start < job.submit)
    out.push_back(label(job) + "starts at " + std::to_string(rec.start) + " before submit " +
                  std::to_string(job.submit));
  const Allocation alloc = rec.alloc.unpack();
  if (auto bad = allocation_violates_request(cluster, job, alloc))
    out.push_back(label(job) + "allocation violates the request: " + *bad);
  const RunEnd e = run_end(job, alloc, rec.start, rec.start_ms, rec.end_latency_ms,
                           rec.kill_after_limit_ms);
  if (rec.end != e.end)
    out.push_back(label(job) + "ends at " + std::to_string(rec.end) + ", expected " +
                  std::to_string(e.end));
  if (e.killed != (rec.status == JobStatus::Killed))
    out.push_back(label(job) + (e.killed ? "should be Killed" : "should be Completed"));
}

// A record's start (+1) or end (-1); at one instant ends are applied before starts, but
// every node is checked only once the whole instant is applied.
struct Change {
  Time time;
  int sign;
  std::size_t record;
  bool operator<(const Change& o) const {
    return std::tie(time, sign, record) < std::tie(o.time, o.sign, o.record);
  }
};

// Zero-length jobs hold nothing.
bool holds_nodes(const JobRecord& rec) { return ran(rec) && rec.end > rec.start; }

// Shares on other nodes are reported per record.
bool on_cluster(const Cluster& cluster, const NodeShare& s) {
  return s.node >= 0 && s.node < cluster.node_count();
}

std::vector<Change> changes_of(const SimResult& result) {
  std::vector<Change> changes;
  for (std::size_t j = 0; j < result.records.size(); ++j) {
    const JobRecord& rec = result.records[j];
    if (!holds_nodes(rec)) continue;
    changes.push_back({rec.start, +1, j});
    changes.push_back({rec.end, -1, j});
  }
  std::sort(changes.begin(), changes.end());
  return changes;
}

// What every node holds at the current instant of the sweep.
struct NodeUsage {
  std::int64_t cores = 0;
  std::int64_t mem_mb = 0;
  std::array<std::int64_t, kMaxGresTypes> gres{};

  void apply(const Node& n, const NodeShare& s, int sign) {
    cores += sign * n.held_cores(s.cores);  // whole cores where CPUs are threads
    mem_mb += sign * s.mem_mb;
    for (int t = 0; t < kMaxGresTypes; ++t) gres[t] += sign * s.gres[t];
  }
  bool over(const Node& n) const {
    bool over = cores > n.cores || (n.memory_mb > 0 && mem_mb > n.memory_mb);
    for (int t = 0; t < kMaxGresTypes; ++t) over = over || gres[t] > n.gres[t];
    return over;
  }
};

struct Overload {
  NodeIndex node;
  Time time;
  std::int64_t cores;
  bool operator<(const Overload& o) const {
    return std::tie(node, time) < std::tie(o.node, o.time);
  }
};

// One sweep over the starts and ends in time order, with every node's usage kept as it goes:
// memory in nodes, not in shares held over the run. A node changed at an instant is checked
// once the instant is over; overloads are reported node by node, in time order.
void check_capacity(const Cluster& cluster, const SimResult& result,
                    std::vector<std::string>& out) {
  const std::vector<Change> changes = changes_of(result);
  std::vector<NodeUsage> usage(cluster.nodes.size());
  std::vector<std::size_t> last_touched(cluster.nodes.size(), changes.size());
  std::vector<NodeIndex> touched;
  std::vector<Overload> overloads;
  for (std::size_t i = 0; i < changes.size();) {
    const std::size_t instant = i;
    touched.clear();
    for (; i < changes.size() && changes[i].time == changes[instant].time; ++i) {
      result.records[changes[i].record].alloc.for_each_share([&](const NodeShare& s) {
        if (!on_cluster(cluster, s)) return;
        const auto n = static_cast<std::size_t>(s.node);
        usage[n].apply(cluster.nodes[n], s, changes[i].sign);
        if (last_touched[n] != instant) touched.push_back(s.node);
        last_touched[n] = instant;
      });
    }
    for (NodeIndex node : touched) {
      const auto n = static_cast<std::size_t>(node);
      if (usage[n].over(cluster.nodes[n]))
        overloads.push_back({node, changes[instant].time, usage[n].cores});
    }
  }
  std::sort(overloads.begin(), overloads.end());
  for (const Overload& o : overloads)
    out.push_back("node " + cluster.nodes[static_cast<std::size_t>(o.node)].name +
                  " over capacity at t=" + std::to_string(o.time) + " (" +
                  std::to_string(o.cores) + " cores used)");
}

}  // namespace

CheckReport check_run(const Cluster& cluster, const Workload& workload, const SimResult& result) {
  CheckReport report;
  if (result.records.size() != workload.jobs.size()) {
    report.violations.push_back("result has " + std::to_string(result.records.size()) +
                                " records for " + std::to_string(workload.jobs.size()) + " jobs");
    return report;
  }
  for (std::size_t j = 0; j < workload.jobs.size(); ++j)
    check_record(cluster, workload.jobs[j], result.records[j], report.violations);
  check_capacity(cluster, result, report.violations);
  return report;
}

}  // namespace hs
