#include "sim/bind.hpp"

#include <map>
#include <memory>

#include "model/job_nodes.hpp"
#include "model/request_fit.hpp"

namespace hs {

namespace {

// Why -C/-x/-w are not bound: the binding's own reason when it fails (computed only then).
std::optional<std::string> node_rules_unbound(const Cluster& cluster, const Job& job) {
  const NodeRules& r = job.req.node_rules();
  const bool masked = !r.constraint.empty() || !r.exclude.empty();
  const bool bound = (!masked || (r.allowed && r.allowed->size() == cluster.nodes.size())) &&
                     (r.nodelist.empty() || !r.required.empty());
  if (bound) return std::nullopt;
  JobRequest copy = job.req;
  const Partition* p = cluster.partitions.empty() ? nullptr : cluster.find_partition(job.partition);
  if (auto why = bind_job_nodes(cluster, p, copy)) return why;
  return "-C/-x/-w are not bound to the cluster's nodes";
}

}  // namespace

BindReport bind_workload(const Cluster& cluster, Workload& workload) {
  BindReport report;
  // Jobs with the same -C/-x nodes share one mask: a site's jobs repeat a few constraints.
  std::map<std::vector<char>, std::shared_ptr<const std::vector<char>>> masks;
  for (std::size_t j = 0; j < workload.jobs.size(); ++j) {
    JobRequest& req = workload.jobs[j].req;
    if (auto reason = bind_to_cluster(cluster, workload.jobs[j]))
      report.rejected.push_back({static_cast<JobRef>(j), std::move(*reason)});
    if (!req.rules || !req.rules->allowed) continue;
    const auto& shared = masks.emplace(*req.rules->allowed, req.rules->allowed).first->second;
    if (shared != req.rules->allowed) req.edit_node_rules().allowed = shared;
  }
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
    if (!g.kind.empty() && kind < 0)  // the words bind_to_cluster uses
      return "unknown gres type '" + g.kind_name() + "' (no node has gres " + g.name + " of type " + g.kind + ")";
    if (g.kind_type != kind) return "gres '" + g.kind_name() + "' is not bound to its typed gres";
  }
  if (auto bad = partition_problem(cluster, job)) return bad;
  if (const Partition* p = cluster.partitions.empty() ? nullptr : cluster.find_partition(job.partition))
    if (auto bad = partition_node_limit_problem(*p, job.req)) return bad;
  if (auto bad = node_rules_unbound(cluster, job)) return bad;
  if (job.req.time_limit <= 0) return "no time limit";
  if (auto bad = max_time_problem(cluster.find_partition(job.partition), job.req.time_limit))
    return bad;
  if (job.req.time_limit == kNoTime) return "time limit UNLIMITED was not bound";
  return std::nullopt;
}

std::optional<std::string> unsupported_request(const Job& job, const RequestSupport& support,
                                               const std::string& scheduler) {
  const NodeRules& r = job.req.node_rules();
  const char* option = nullptr;
  if (!support.node_mask && !r.constraint.empty()) option = "-C/--constraint";
  else if (!support.node_mask && !r.exclude.empty()) option = "-x/--exclude";
  else if (!support.required_nodes && !r.nodelist.empty()) option = "-w/--nodelist";
  else if (!support.exclusive && job.req.exclusive) option = "--exclusive";
  else if (!support.units && job.req.units()) option = "tasks spread as units (-c, --gpus-per-task)";
  if (!option) return std::nullopt;
  return "scheduler " + scheduler + " does not model " + option;
}

}  // namespace hs
