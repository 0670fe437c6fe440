#include "policy/slurm/pass_state.hpp"

#include <algorithm>
#include <numeric>

namespace hs::slurm {

void PartitionIndex::build(const Cluster& cluster, const Workload& workload) {
  nodes.clear();
  bits.clear();
  of_job.assign(workload.jobs.size(), 0);
  if (cluster.partitions.empty()) {
    nodes.emplace_back(cluster.nodes.size());
    std::iota(nodes.back().begin(), nodes.back().end(), 0);
  } else {
    for (const Partition& p : cluster.partitions) nodes.push_back(p.nodes);
    for (std::size_t j = 0; j < workload.jobs.size(); ++j) {
      const Partition* p = cluster.find_partition(workload.jobs[j].partition);
      of_job[j] = p ? static_cast<std::int32_t>(p - cluster.partitions.data()) : 0;
    }
  }
  for (const auto& list : nodes) {
    bits.emplace_back(cluster.node_count());
    for (NodeIndex n : list) bits.back().set(n);
  }
}

void PartitionIndex::note_job(const Cluster& cluster, const Workload& workload, JobRef job) {
  if (of_job.size() < workload.jobs.size()) of_job.resize(workload.jobs.size(), 0);
  if (cluster.partitions.empty()) return;
  const Partition* p = cluster.find_partition(workload.jobs[job].partition);
  of_job[job] = p ? static_cast<std::int32_t>(p - cluster.partitions.data()) : 0;
}

std::int32_t min_node_count(const JobRequest& r) {
  if (r.ntasks_per_node > 0)
    return std::max((r.ntasks + r.ntasks_per_node - 1) / r.ntasks_per_node, r.nodes_min);
  return std::max(1, r.nodes_min);
}

}  // namespace hs::slurm
