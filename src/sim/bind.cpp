#include "sim/bind.hpp"

#include "model/request_fit.hpp"

namespace hs {

BindReport bind_workload(const Cluster& cluster, Workload& workload) {
  BindReport report;
  for (std::size_t j = 0; j < workload.jobs.size(); ++j)
    if (auto reason = bind_to_cluster(cluster, workload.jobs[j]))
      report.rejected.push_back({static_cast<JobRef>(j), std::move(*reason)});
  return report;
}

std::optional<std::string> binding_problem(const Cluster& cluster, const Job& job) {
  for (const GresRequest& g : job.req.gres) {
    if (g.type < 0 || g.type >= static_cast<int>(cluster.gres_types.size()))
      return "unknown gres type '" + g.name + "'";
    if (cluster.gres_types[g.type] != g.name)
      return "gres '" + g.name + "' is bound to another type ('" +
             cluster.gres_types[g.type] + "')";
    const int kind = g.kind.empty() ? -1 : cluster.gres_index(g.kind_name());
    if (g.kind_type != kind || (!g.kind.empty() && kind < 0))
      return "gres '" + g.kind_name() + "' is not bound to its typed gres";
  }
  if (auto bad = partition_problem(cluster, job)) return bad;
  if (job.req.time_limit <= 0) return "no time limit";
  if (auto bad = max_time_problem(cluster.find_partition(job.partition), job.req.time_limit))
    return bad;
  if (job.req.time_limit == kNoTime) return "time limit UNLIMITED was not bound";
  return std::nullopt;
}

}  // namespace hs
