#include "sim/invariant_checker.hpp"

#include <algorithm>
#include <span>
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

// One change of a node's usage: +share at a start, -share at an end.
struct UsageStep {
  Time time;
  int sign;  // -1 releases sort before +1 takes at the same time
  NodeShare share;  // a copy: the records keep their shares packed
};

// Zero-length jobs hold nothing.
bool holds_nodes(const JobRecord& rec) { return ran(rec) && rec.end > rec.start; }

// Shares on other nodes are reported per record.
bool on_cluster(const Cluster& cluster, const NodeShare& s) {
  return s.node >= 0 && s.node < cluster.node_count();
}

// Steps per node (two per share it holds).
std::vector<std::size_t> steps_per_node(const Cluster& cluster, const SimResult& result) {
  std::vector<std::size_t> count(cluster.nodes.size(), 0);
  for (const JobRecord& rec : result.records) {
    if (!holds_nodes(rec)) continue;
    rec.alloc.for_each_share([&](const NodeShare& s) {
      if (on_cluster(cluster, s)) count[static_cast<std::size_t>(s.node)] += 2;
    });
  }
  return count;
}

// The usage steps of nodes [first, last) in one buffer (a counting sort by node, offsets in
// `begin`, one more than the nodes), each node's steps in time order.
void steps_of_nodes(const Cluster& cluster, const SimResult& result, NodeIndex first,
                    NodeIndex last, const std::vector<std::size_t>& count,
                    std::vector<std::size_t>& begin, std::vector<UsageStep>& steps) {
  begin.assign(static_cast<std::size_t>(last - first) + 1, 0);
  for (NodeIndex n = first; n < last; ++n)
    begin[static_cast<std::size_t>(n - first) + 1] = begin[static_cast<std::size_t>(n - first)] + count[static_cast<std::size_t>(n)];
  steps.resize(begin.back());
  std::vector<std::size_t> next(begin.begin(), begin.end() - 1);
  for (const JobRecord& rec : result.records) {
    if (!holds_nodes(rec)) continue;
    rec.alloc.for_each_share([&](const NodeShare& s) {
      if (!on_cluster(cluster, s) || s.node < first || s.node >= last) return;
      std::size_t& at = next[static_cast<std::size_t>(s.node - first)];
      steps[at++] = {rec.start, +1, s};
      steps[at++] = {rec.end, -1, s};
    });
  }
  for (std::size_t k = 0; k + 1 < begin.size(); ++k)
    std::sort(steps.begin() + static_cast<std::ptrdiff_t>(begin[k]),
              steps.begin() + static_cast<std::ptrdiff_t>(begin[k + 1]),
              [](const UsageStep& a, const UsageStep& b) {
                return std::tie(a.time, a.sign) < std::tie(b.time, b.sign);
              });
}

void check_node(const Node& n, std::span<const UsageStep> steps, std::vector<std::string>& out) {
  std::int64_t cores = 0, mem = 0;
  std::array<std::int64_t, kMaxGresTypes> gres{};
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const UsageStep& st = steps[i];
    cores += st.sign * n.held_cores(st.share.cores);  // whole cores where CPUs are threads
    mem += st.sign * st.share.mem_mb;
    for (int t = 0; t < kMaxGresTypes; ++t) gres[t] += st.sign * st.share.gres[t];
    if (i + 1 < steps.size() && steps[i + 1].time == st.time) continue;  // finish the instant
    bool over = cores > n.cores || (n.memory_mb > 0 && mem > n.memory_mb);
    for (int t = 0; t < kMaxGresTypes; ++t) over = over || gres[t] > n.gres[t];
    if (over)
      out.push_back("node " + n.name + " over capacity at t=" + std::to_string(st.time) +
                    " (" + std::to_string(cores) + " cores used)");
  }
}

// Nodes are checked in blocks of about kBlockSteps steps: a long replay's steps of all nodes
// at once would outweigh the rest of the run's memory.
constexpr std::size_t kBlockSteps = std::size_t{1} << 19;  // 32 MiB of 64-byte steps

void check_capacity(const Cluster& cluster, const SimResult& result,
                    std::vector<std::string>& out) {
  const std::vector<std::size_t> count = steps_per_node(cluster, result);
  std::vector<std::size_t> begin;
  std::vector<UsageStep> steps;
  const NodeIndex nodes = cluster.node_count();
  for (NodeIndex first = 0; first < nodes;) {
    NodeIndex last = first + 1;
    for (std::size_t held = count[static_cast<std::size_t>(first)];
         last < nodes && held + count[static_cast<std::size_t>(last)] <= kBlockSteps; ++last)
      held += count[static_cast<std::size_t>(last)];
    steps_of_nodes(cluster, result, first, last, count, begin, steps);
    for (std::size_t k = 0; k + 1 < begin.size(); ++k)
      check_node(cluster.nodes[static_cast<std::size_t>(first) + k],
                 std::span<const UsageStep>(steps).subspan(begin[k], begin[k + 1] - begin[k]), out);
    first = last;
  }
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
