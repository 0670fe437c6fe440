#include "bridge/slurm_bridge.hpp"

#include <algorithm>

#include "model/request_fit.hpp"

namespace hs::bridge {

std::vector<std::string> pinning_arguments(const Cluster& cluster, const Job& job,
                                           const Allocation& alloc) {
  std::string nodes;
  std::int32_t min_cores = alloc.shares.empty() ? 0 : alloc.shares.front().cores;
  for (const NodeShare& s : alloc.shares) {
    if (!nodes.empty()) nodes += ",";
    nodes += cluster.nodes[s.node].name;
    min_cores = std::min(min_cores, s.cores);
  }
  const std::string count = std::to_string(alloc.node_count());
  std::vector<std::string> args = {"JobId=" + std::to_string(job.id), "NumNodes=" + count + "-" + count,
                                   "ReqNodeList=" + nodes, "MinCPUsNode=" + std::to_string(min_cores)};
  // The gres count chosen inside a range (equal on every node; the checker made sure).
  std::string tres;
  for (const GresRequest& g : job.req.gres) {
    if (g.type < 0 || alloc.shares.empty()) continue;
    if (!tres.empty()) tres += ",";
    tres += "gres:" + g.name + ":" + std::to_string(alloc.shares.front().gres[g.type]);
  }
  if (!tres.empty()) args.push_back("TresPerNode=" + tres);
  return args;
}

SlurmBridge::SlurmBridge(const Cluster& cluster, Scheduler& scheduler, SlurmCommands& slurm,
                         std::string partition, bool memory_consumable)
    : cluster_(cluster),
      scheduler_(scheduler),
      slurm_(slurm),
      queue_(cluster, std::move(partition), memory_consumable) {}

bool SlurmBridge::run(const std::vector<std::string>& argv, CycleReport& report) {
  std::string error;
  if (slurm_.run(argv, error)) return true;
  ++report.command_failures;
  std::string line = "command failed:";
  for (const std::string& a : argv) line += " " + a;
  report.log.push_back(line + ": " + error);
  return false;
}

void SlurmBridge::hold_again(std::int64_t slurm_id, CycleReport& report) {
  report.log.push_back("job " + std::to_string(slurm_id) +
                       ": released but not started by Slurm; held again for the next pass");
  run({"scontrol", "hold", std::to_string(slurm_id)}, report);
}

void SlurmBridge::start(const StartDecision& decision, ClusterState& free, Time now,
                        CycleReport& report) {
  const Job& job = queue_.workload().jobs[decision.job];
  std::optional<std::string> problem = allocation_violates_request(cluster_, job, decision.alloc);
  if (!problem && !free.can_hold(decision.alloc)) problem = "exceeds what is free now";
  if (problem) {
    ++report.refused;
    report.log.push_back("job " + std::to_string(job.id) + ": proposal refused: " + *problem);
    return;
  }
  std::vector<std::string> update = {"scontrol", "update"};
  for (std::string& a : pinning_arguments(cluster_, job, decision.alloc)) update.push_back(std::move(a));
  if (!run(update, report) || !run({"scontrol", "release", std::to_string(job.id)}, report)) return;
  free.take(decision.alloc);
  queue_.mark_started(decision.job, decision.alloc, now);
  ++report.started;
  std::string where;
  for (const NodeShare& share : decision.alloc.shares)
    where += (where.empty() ? "" : " ") + cluster_.nodes[share.node].name + ":" +
             std::to_string(share.cores) + "c";
  report.log.push_back("job " + std::to_string(job.id) + ": started on " + where);
}

CycleReport SlurmBridge::cycle(Time now) {
  CycleReport report;
  report.now = now;
  LiveSnapshot snap = queue_.update(parse_scontrol_jobs(slurm_.list_jobs(), slurm_.listing_name()), now);
  for (std::int64_t id : snap.start_overdue) hold_again(id, report);
  for (const std::string& r : snap.rejected) report.log.push_back(r + " (left held)");
  report.pending = snap.pending.size();
  report.running = snap.running.size();
  SystemView view;
  view.now = now;
  view.cluster = &cluster_;
  view.workload = &queue_.workload();
  view.free = &snap.free;
  view.pending = snap.pending;
  view.running = snap.running;
  const Decisions decisions = scheduler_.decide(view, snap.events);
  ClusterState free = snap.free;
  for (const StartDecision& s : decisions.starts) start(s, free, now, report);
  for (const Rejection& r : decisions.rejections) {
    queue_.reject(r.job, r.reason);
    report.log.push_back("job " + std::to_string(queue_.slurm_id(r.job)) +
                         ": the scheduler can never run it: " + r.reason + " (left held)");
  }
  return report;
}

}  // namespace hs::bridge
