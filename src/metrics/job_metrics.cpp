#include "metrics/job_metrics.hpp"

#include <algorithm>

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

bool job_ran(const JobRecord& r) {
  return r.status == JobStatus::Completed || r.status == JobStatus::Killed;
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
  for (const GresRequest& g : r.gres) {
    if (g.type < 0 || node.gres[g.type] < g.per_node_min) return false;
    if (g.kind_type >= 0 && node.gres[g.kind_type] < g.per_node_min) return false;
  }
  if (partition && !std::binary_search(partition->nodes.begin(), partition->nodes.end(), n))
    return false;
  return true;
}

}  // namespace

MinNodesPossible::MinNodesPossible(const Cluster& cluster) : cluster_(&cluster) {
  largest_first_.resize(cluster.nodes.size());
  for (NodeIndex n = 0; n < cluster.node_count(); ++n) largest_first_[n] = n;
  std::stable_sort(largest_first_.begin(), largest_first_.end(), [&](NodeIndex a, NodeIndex b) {
    return cluster.nodes[a].cores > cluster.nodes[b].cores;
  });
}

std::optional<int> MinNodesPossible::operator()(const Job& job) const {
  const JobRequest& r = job.req;
  if (r.ntasks <= 0) return std::nullopt;
  if (r.ntasks_per_node > 0) return r.ntasks / r.ntasks_per_node;
  const Partition* partition = nullptr;
  if (!cluster_->partitions.empty()) {
    partition = cluster_->find_partition(job.partition);
    if (!partition) return std::nullopt;
  }
  std::int64_t sum = 0;
  int used = 0;
  for (NodeIndex n : largest_first_) {
    if (!node_eligible(*cluster_, job, partition, n)) continue;
    sum += cluster_->nodes[n].cores;
    ++used;
    if (sum >= r.ntasks) return std::max(used, r.nodes_min);
  }
  return std::nullopt;
}

std::optional<int> min_nodes_possible(const Cluster& cluster, const Job& job) {
  return MinNodesPossible(cluster)(job);
}

std::optional<double> packing_factor(const MinNodesPossible& min_nodes, const Job& job,
                                     const Allocation& alloc) {
  const auto least = min_nodes(job);
  if (!least || *least <= 0 || alloc.shares.empty()) return std::nullopt;
  return static_cast<double>(alloc.node_count()) / *least;
}

std::optional<double> packing_factor(const Cluster& cluster, const Job& job,
                                     const Allocation& alloc) {
  return packing_factor(MinNodesPossible(cluster), job, alloc);
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
