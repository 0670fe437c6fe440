#include "sim/invariant_checker.hpp"

#include <algorithm>
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
    if (!rec.alloc.shares.empty()) out.push_back(label(job) + "rejected but holds an allocation");
    return;
  }
  if (rec.start < job.submit)
    out.push_back(label(job) + "starts at " + std::to_string(rec.start) + " before submit " +
                  std::to_string(job.submit));
  if (auto bad = allocation_violates_request(cluster, job, rec.alloc))
    out.push_back(label(job) + "allocation violates the request: " + *bad);
  const Time actual = actual_run_time(job, rec.alloc);
  const bool killed = actual > job.req.time_limit;
  const Time expected_end = rec.start + (killed ? job.req.time_limit : actual);
  if (rec.end != expected_end)
    out.push_back(label(job) + "ends at " + std::to_string(rec.end) + ", expected " +
                  std::to_string(expected_end));
  if (killed != (rec.status == JobStatus::Killed))
    out.push_back(label(job) + (killed ? "should be Killed" : "should be Completed"));
}

// One change of a node's usage: +share at a start, -share at an end.
struct UsageStep {
  Time time;
  int sign;  // -1 releases sort before +1 takes at the same time
  const NodeShare* share;
};

// Usage steps grouped by node (a counting sort), each node's steps in time order.
std::vector<std::vector<UsageStep>> steps_by_node(const Cluster& cluster,
                                                  const SimResult& result) {
  std::vector<std::vector<UsageStep>> by_node(cluster.nodes.size());
  for (const JobRecord& rec : result.records) {
    if (!ran(rec) || rec.end <= rec.start) continue;  // zero-length jobs hold nothing
    for (const NodeShare& s : rec.alloc.shares) {
      if (s.node < 0 || s.node >= cluster.node_count()) continue;  // reported per record
      by_node[s.node].push_back({rec.start, +1, &s});
      by_node[s.node].push_back({rec.end, -1, &s});
    }
  }
  for (auto& steps : by_node)
    std::sort(steps.begin(), steps.end(), [](const UsageStep& a, const UsageStep& b) {
      return std::tie(a.time, a.sign) < std::tie(b.time, b.sign);
    });
  return by_node;
}

void check_node(const Node& n, const std::vector<UsageStep>& steps,
                std::vector<std::string>& out) {
  std::int64_t cores = 0, mem = 0;
  std::array<std::int64_t, kMaxGresTypes> gres{};
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const UsageStep& st = steps[i];
    cores += st.sign * st.share->cores;
    mem += st.sign * st.share->mem_mb;
    for (int t = 0; t < kMaxGresTypes; ++t) gres[t] += st.sign * st.share->gres[t];
    if (i + 1 < steps.size() && steps[i + 1].time == st.time) continue;  // finish the instant
    bool over = cores > n.cores || (n.memory_mb > 0 && mem > n.memory_mb);
    for (int t = 0; t < kMaxGresTypes; ++t) over = over || gres[t] > n.gres[t];
    if (over)
      out.push_back("node " + n.name + " over capacity at t=" + std::to_string(st.time) +
                    " (" + std::to_string(cores) + " cores used)");
  }
}

void check_capacity(const Cluster& cluster, const SimResult& result,
                    std::vector<std::string>& out) {
  const auto by_node = steps_by_node(cluster, result);
  for (std::size_t n = 0; n < by_node.size(); ++n) check_node(cluster.nodes[n], by_node[n], out);
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
