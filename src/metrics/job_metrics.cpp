#include "metrics/job_metrics.hpp"

#include <algorithm>
#include <functional>

namespace hs {

const char* status_name(JobStatus status) {
  switch (status) {
    case JobStatus::Completed: return "completed";
    case JobStatus::Killed: return "killed";
    case JobStatus::Rejected: return "rejected";
    case JobStatus::Stalled: return "stalled";
  }
  return "unknown";
}

int fragmentation(const Allocation& alloc) {
  int blocks = 0;
  for (std::size_t i = 0; i < alloc.shares.size(); ++i)
    if (i == 0 || alloc.shares[i].node != alloc.shares[i - 1].node + 1) ++blocks;
  return blocks;
}

double spread(const Allocation& alloc) {
  if (alloc.shares.empty()) return 0;
  const NodeIndex first = alloc.shares.front().node;
  const NodeIndex last = alloc.shares.back().node;
  return static_cast<double>(last - first + 1) / alloc.node_count();
}

namespace {

bool node_eligible(const Cluster& cluster, const Job& job, const Partition* partition,
                   NodeIndex n) {
  const Node& node = cluster.nodes[n];
  const JobRequest& r = job.req;
  if (node.cores < std::max(1, r.ntasks_per_node)) return false;
  if (node.memory_mb > 0 && node.memory_mb < r.mem_per_node_mb) return false;
  for (const GresRequest& g : r.gres)
    if (g.type < 0 || node.gres[g.type] < g.per_node_min) return false;
  if (partition && !std::binary_search(partition->nodes.begin(), partition->nodes.end(), n))
    return false;
  return true;
}

}  // namespace

std::optional<int> min_nodes_possible(const Cluster& cluster, const Job& job) {
  const JobRequest& r = job.req;
  if (r.ntasks <= 0) return std::nullopt;
  if (r.ntasks_per_node > 0) return r.ntasks / r.ntasks_per_node;
  const Partition* partition = nullptr;
  if (!cluster.partitions.empty()) {
    partition = cluster.find_partition(job.partition);
    if (!partition) return std::nullopt;
  }
  std::vector<std::int32_t> cores;
  for (NodeIndex n = 0; n < cluster.node_count(); ++n)
    if (node_eligible(cluster, job, partition, n)) cores.push_back(cluster.nodes[n].cores);
  std::sort(cores.begin(), cores.end(), std::greater<>());
  std::int64_t sum = 0;
  for (std::size_t k = 0; k < cores.size(); ++k) {
    sum += cores[k];
    if (sum >= r.ntasks) return std::max<int>(static_cast<int>(k) + 1, r.nodes_min);
  }
  return std::nullopt;
}

std::optional<double> packing_factor(const Cluster& cluster, const Job& job,
                                     const Allocation& alloc) {
  const auto min_nodes = min_nodes_possible(cluster, job);
  if (!min_nodes || *min_nodes <= 0 || alloc.shares.empty()) return std::nullopt;
  return static_cast<double>(alloc.node_count()) / *min_nodes;
}

JobTiming job_timing(const Job& job, const JobRecord& record) {
  JobTiming t;
  t.wait = record.start - job.submit;
  t.run = record.end - record.start;
  const double turnaround = static_cast<double>(t.wait + t.run);
  t.slowdown = turnaround / static_cast<double>(std::max<Time>(t.run, 1));
  t.bounded_slowdown = std::max(1.0, turnaround / static_cast<double>(std::max<Time>(t.run, 10)));
  return t;
}

}  // namespace hs
