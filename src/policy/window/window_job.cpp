#include "policy/window/window_job.hpp"

#include <algorithm>

#include "model/job_nodes.hpp"

namespace hs::window {

std::optional<std::string> window_unsupported_reason(const Job& job) {
  int types = 0;
  for (const auto& g : job.req.gres) {
    if (g.per_node_max > 0) ++types;
    if (!g.kind.empty() && g.per_node_max > 0)
      return "window schedulers model one generic resource type per job; typed gres '" +
             g.kind_name() + "' uses two (" + g.name + " and " + g.kind_name() + ")";
  }
  if (types > 1)
    return "window schedulers model one generic resource type per job; this job asks for " +
           std::to_string(types);
  if (job.req.ntasks <= 0) return "window schedulers need a positive core count (-n)";
  return std::nullopt;
}

static JobType classify(const JobRequest& req) {
  if (req.ntasks_per_node > 0) return JobType::CoresPerNode;
  if (req.nodes_min > 0) return JobType::NodesAndCores;
  return JobType::CoresOnly;
}

WindowJob describe(const Job& job, JobRef ref, std::int64_t priority) {
  const JobRequest& req = job.req;
  WindowJob w;
  w.ref = ref;
  w.priority = std::max<std::int64_t>(1, priority);
  w.type = classify(req);
  w.cores = req.ntasks;
  w.cores_per_node = req.ntasks_per_node;
  w.nodes_min = std::max(1, req.nodes_min);
  w.nodes_max = req.nodes_max > 0 ? req.nodes_max : (req.nodes_min > 0 ? req.nodes_min : 0);
  if (w.cores_per_node > 0 && req.nodes_min == 0) {
    const std::int32_t implied = (w.cores + w.cores_per_node - 1) / w.cores_per_node;
    w.nodes_min = implied;
    w.nodes_max = implied;
  }
  for (const auto& g : req.gres) {
    if (g.per_node_max <= 0) continue;
    w.gres_type = g.type;
    w.gres_min = g.per_node_min;
    w.gres_max = std::max(g.per_node_min, g.per_node_max);
  }
  w.mem_per_node_mb = req.mem_per_node_mb;
  w.contiguous = req.contiguous;
  return w;
}

std::vector<char> window_node_mask(const Cluster& cluster, const Job& job) {
  if (cluster.partitions.empty() && !job.req.node_rules().allowed) return {};
  std::vector<char> mask = hs::job_node_mask(cluster, job);
  if (std::all_of(mask.begin(), mask.end(), [](char usable) { return usable != 0; })) mask.clear();
  return mask;
}

std::int32_t effective_nodes_max(const WindowJob& job, std::int32_t node_count) {
  std::int32_t hi = job.nodes_max > 0 ? job.nodes_max : node_count;
  hi = std::min(hi, job.cores);  // every node used holds at least one core
  return std::min(hi, node_count);
}

}  // namespace hs::window
