#include "model/request_shape.hpp"

namespace hs {

std::optional<RequestShape> request_shape(const Job& job) {
  const JobRequest& r = job.req;
  if (r.rules) return std::nullopt;
  RequestShape s;
  s.partition = job.partition;
  s.ntasks = r.ntasks;
  s.nodes_min = r.nodes_min;
  s.nodes_max = r.nodes_max;
  s.ntasks_per_node = r.ntasks_per_node;
  s.task_cores = r.task_cores;
  s.mem_per_node_mb = r.mem_per_node_mb;
  s.contiguous = r.contiguous;
  s.ntasks_implied = r.ntasks_implied;
  s.nodes_from_partition = r.nodes_from_partition;
  s.exclusive = r.exclusive;
  for (const GresRequest& g : r.gres)
    s.gres.push_back({g.type, g.kind_type, g.per_node_min, g.per_node_max});
  return s;
}

}  // namespace hs
