#include "workload/common.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "util/error.hpp"

namespace hs::workload_detail {

ClusterShape shape_of(const Cluster& cluster) {
  ClusterShape s;
  s.nodes = cluster.node_count();
  s.total_cores = cluster.total_cores();
  s.gpu_type = cluster.gres_index("gpu");
  s.cores_per_node = 0;
  for (const auto& n : cluster.nodes)
    s.cores_per_node = s.cores_per_node == 0 ? n.cores : std::min(s.cores_per_node, n.cores);
  if (s.gpu_type >= 0)
    for (const auto& n : cluster.nodes)
      s.max_gpus_per_node = std::max(s.max_gpus_per_node, n.gres[s.gpu_type]);
  s.nodes_with_gpus.assign(s.max_gpus_per_node + 1, 0);
  for (const auto& n : cluster.nodes) {
    const std::int32_t have = s.gpu_type >= 0 ? n.gres[s.gpu_type] : 0;
    for (std::int32_t g = 0; g <= have; ++g) ++s.nodes_with_gpus[g];
  }
  return s;
}

CommonOptions read_common_options(Params& params) {
  CommonOptions o;
  o.limit_factor = params.get_double("limit_factor", 1.0, 1.0, 100.0,
                                     "time limit = ceil(nominal run time x factor)");
  o.users = static_cast<std::int32_t>(
      params.get_int("users", 8, 1, 9999, "number of users the jobs are spread over"));
  return o;
}

Time time_limit_for(Time nominal, double factor) {
  return std::max<Time>(1, static_cast<Time>(std::ceil(static_cast<double>(nominal) * factor)));
}

std::string user_name(std::int32_t index) {
  char text[16];
  std::snprintf(text, sizeof text, "user%02d", index);
  return text;
}

GresRequest gres_request(const Cluster& cluster, const std::string& name, std::int32_t min,
                         std::int32_t max) {
  GresRequest g;
  g.name = name;
  g.type = cluster.gres_index(name);
  g.per_node_min = min;
  g.per_node_max = max;
  return g;
}

void require_gpus(const ClusterShape& shape, std::int32_t gpus, const std::string& generator,
                  const std::string& what) {
  if (shape.max_gpus_per_node >= gpus) return;
  throw InputError({"<workload " + generator + ">", 0}, what, std::to_string(gpus),
                   "needs nodes with " + std::to_string(gpus) +
                       " GPUs (gres 'gpu'); the cluster's nodes have at most " +
                       std::to_string(shape.max_gpus_per_node));
}

void finalize_workload(Workload& workload) {
  std::stable_sort(workload.jobs.begin(), workload.jobs.end(),
                   [](const Job& a, const Job& b) { return a.submit < b.submit; });
  std::int64_t id = 1;
  for (auto& job : workload.jobs) job.id = id++;
}

double theoretical_runtime(const Workload& workload, std::int64_t total_cores) {
  double area = 0;
  for (const auto& job : workload.jobs)
    area += static_cast<double>(job.run_time) * static_cast<double>(job.req.ntasks);
  return total_cores > 0 ? area / static_cast<double>(total_cores) : 0.0;
}

}  // namespace hs::workload_detail
