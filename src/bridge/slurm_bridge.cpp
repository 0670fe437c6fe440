#include "bridge/slurm_bridge.hpp"

#include <algorithm>
#include <chrono>
#include <sstream>
#include <utility>

#include "model/request_fit.hpp"
#include "util/error.hpp"

namespace hs::bridge {

std::vector<std::string> pinning_arguments(const Cluster& cluster, const Job& job,
                                           const Allocation& alloc, const LiveJob& live) {
  const int cpus_per_task = live.cpus_per_task;
  std::string nodes;
  std::int32_t min_cores = alloc.shares.empty() ? 0 : alloc.shares.front().cores;
  for (const NodeShare& s : alloc.shares) {
    if (!nodes.empty()) nodes += ",";
    nodes += cluster.nodes[s.node].name;
    min_cores = std::min(min_cores, s.cores);
  }
  const std::string count = std::to_string(alloc.node_count());
  std::vector<std::string> args = {"JobId=" + live.target(), "NumNodes=" + count + "-" + count,
                                   "ReqNodeList=" + nodes};
  if (!job.req.exclusive) {
    args.push_back("MinCPUsNode=" + std::to_string(min_cores));
    // Slurm recomputes NumCPUs when MinCPUsNode changes: keep the total.
    args.push_back("NumCPUs=" + std::to_string(alloc.total_cores()));
    const bool even = std::all_of(alloc.shares.begin(), alloc.shares.end(),
                                  [&](const NodeShare& s) { return s.cores == min_cores; });
    if (even && cpus_per_task > 0 && min_cores % cpus_per_task == 0)
      args.push_back("TasksPerNode=" + std::to_string(min_cores / cpus_per_task));
  }
  // The gres count chosen inside a range (equal on every node; the checker made sure).
  if (job.req.units() || !live.gres_per_job.empty()) return args;
  std::string tres;
  for (const GresRequest& g : job.req.gres) {
    if (g.type < 0 || alloc.shares.empty()) continue;
    if (!tres.empty()) tres += ",";
    const int slot = g.kind_type >= 0 ? g.kind_type : g.type;  // a typed item keeps its type
    tres += "gres:" + g.kind_name() + ":" + std::to_string(alloc.shares.front().gres[slot]);
  }
  if (!tres.empty()) args.push_back("TresPerNode=" + tres);
  return args;
}

namespace {

// A Python traceback spans lines; a cycle's log has one line per entry.
std::string one_line(const std::string& text) {
  std::string out;
  for (char c : text) {
    const bool space = c == '\n' || c == '\r' || c == '\t' || c == ' ';
    if (!space) out += c;
    else if (!out.empty() && out.back() != ' ') out += ' ';
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace

std::string CycleReport::json() const {
  std::ostringstream out;
  out << "{\"time\":" << now << ",\"listed\":" << listed << ",\"queued\":" << pending
      << ",\"running\":" << running << ",\"in_flight\":" << in_flight << ",\"started\":" << started << ",\"predicted\":" << predicted
      << ",\"reheld\":" << reheld << ",\"repaired\":" << repaired << ",\"refused\":" << refused << ",\"waiting\":" << waiting
      << ",\"proposals_refused\":" << proposals_refused << ",\"unmanaged_pending\":" << unmanaged_pending
      << ",\"blocked_nodes\":" << blocked_nodes << ",\"conflicts\":" << conflicts
      << ",\"command_failures\":" << command_failures << ",\"policy_failed\":" << (policy_failed ? "true" : "false")
      << ",\"duration_ms\":" << duration_ms << "}";
  return out.str();
}

SlurmBridge::SlurmBridge(const Cluster& cluster, Scheduler& scheduler, SlurmCommands& slurm,
                         BridgeOptions options)
    : cluster_(cluster),
      scheduler_(scheduler),
      slurm_(slurm),
      options_(options),
      queue_(cluster, options.partition, options.memory_consumable, options.start_grace),
      cpus_per_core_(cluster.nodes.size(), 1) {
  queue_.set_shadow(options.shadow);
  queue_.set_support(scheduler.supports(), scheduler.name());
  scheduler_.caller_checks_each_proposal();
}

// Counted every time; logged when the cycle before did not log the same refusal, so that a
// scheduler proposing the same refused start cycle after cycle says it once.
void SlurmBridge::refuse(const std::string& what, CycleReport& report) {
  ++report.proposals_refused;
  refusals_now_.insert(what);
  if (!refusals_said_.count(what)) report.log.push_back(what);
}

std::string SlurmBridge::job_name(JobRef job) const {
  return queue_.knows(job) ? "job " + std::to_string(queue_.slurm_id(job))
                           : "unknown job ref " + std::to_string(job);
}

SlurmView SlurmBridge::read_slurm() const {
  SlurmView view;
  const std::string name = slurm_.listing_name();
  view.jobs = parse_scontrol_jobs(slurm_.list_jobs(), name);
  view.nodes = parse_scontrol_nodes(slurm_.list_nodes(), name);
  view.reservations = parse_scontrol_reservations(slurm_.list_reservations(), name);
  view.partitions = parse_scontrol_partitions(slurm_.list_partitions(), name);
  return view;
}

bool SlurmBridge::run(const std::vector<std::string>& argv, CycleReport& report) {
  std::string error;
  if (slurm_.run(argv, error)) return true;
  ++report.command_failures;
  std::string line = "command failed:";
  for (const std::string& a : argv) line += " " + a;
  report.log.push_back(line + ": " + error);
  return false;
}

// Runs the steps in order; returns the index of the first required step that failed, or -1.
int SlurmBridge::run_steps(const std::vector<Step>& steps, CycleReport& report) {
  for (std::size_t i = 0; i < steps.size(); ++i)
    if (!run(steps[i].argv, report) && steps[i].required) return static_cast<int>(i);
  return -1;
}

void SlurmBridge::repair(const Repair& r, CycleReport& report) {
  const int failed = run_steps(r.steps, report);
  report.log.push_back(r.why + (failed < 0 ? "" : " -- not done, retried next cycle"));
  if (failed >= 0 || !r.counted) return;
  const bool rehold = !r.steps.empty() && r.steps.front().argv.size() > 1 && r.steps.front().argv[1] == "uhold";
  ++(rehold ? report.reheld : report.repaired);
}

void SlurmBridge::read_cpus_per_core(const std::vector<LiveNode>& nodes) {
  std::map<std::string_view, std::int32_t> listed;
  for (const LiveNode& n : nodes) listed[n.name] = n.cpus_per_core;
  for (NodeIndex i = 0; i < cluster_.node_count(); ++i)
    if (auto it = listed.find(cluster_.nodes[i].name); it != listed.end()) cpus_per_core_[i] = it->second;
}

// What Slurm will hold for `alloc`: with whole cores, each node's share rounded up to whole
// cores of that node (seen on a lab of ThreadsPerCore=2, CPUs counting threads: -n 3 on one
// node got 4 CPUs).
Allocation SlurmBridge::as_slurm_allocates(const Allocation& alloc) const {
  Allocation held = alloc;
  if (!options_.whole_cores) return held;
  for (NodeShare& share : held.shares) {
    const std::int32_t per_core = cpus_per_core_[share.node];
    if (per_core <= 1 || share.cores % per_core == 0) continue;
    share.cores = std::min(cluster_.nodes[share.node].cores, (share.cores / per_core + 1) * per_core);
  }
  return held;
}

void SlurmBridge::start(const StartDecision& decision, ClusterState& free, Time now,
                        CycleReport& report) {
  if (!queue_.startable(decision.job)) {
    // a scheduler's stale queue: never start a job twice
    refuse(job_name(decision.job) + ": proposal refused: not waiting in this cycle's queue", report);
    return;
  }
  const Job& job = queue_.workload().jobs[decision.job];
  std::optional<std::string> problem =
      allocation_violates_request(queue_.live_cluster(), job, decision.alloc);
  Allocation held;  // read only once the request check has vouched for its node indices
  if (!problem) {
    held = as_slurm_allocates(decision.alloc);
    if (!free.can_hold(held))
      problem = held.shares == decision.alloc.shares ? "exceeds what is free now"
                                                     : "exceeds what is free now, counted in whole cores";
    else
      problem = cpu_caps_.excess(job.partition, held, cluster_);
  }
  if (problem) {
    queue_.announce_again(decision.job);
    refuse("job " + std::to_string(job.id) + ": proposal refused: " + *problem, report);
    return;
  }
  if (options_.shadow) {
    free.take(held);
    cpu_caps_.hold(job.partition, held);
    queue_.mark_predicted(decision.job);
    report.predicted += predict(decision, now);
    return;
  }
  const LiveJob& live = queue_.live(decision.job);
  const OriginalRequest original = original_request(live, cluster_.node_count());
  const std::vector<std::string> pin = pinning_arguments(cluster_, job, decision.alloc, live);
  const int failed = run_steps(start_steps(live.target(), pin, original, now), report);
  if (failed >= 0) {
    if (failed > 0) run_steps(restore_steps(live, original, now), report);  // pin or release failed
    report.log.push_back("job " + std::to_string(job.id) + ": start failed; left held with its request");
    queue_.announce_again(decision.job);
    return;
  }
  free.take(held);
  cpu_caps_.hold(job.partition, held);
  queue_.mark_started(decision.job, held);
  ++report.started;
  std::string where;
  for (const NodeShare& share : held.shares)
    where += (where.empty() ? "" : " ") + cluster_.nodes[share.node].name + ":" +
             std::to_string(share.cores) + "c";
  report.log.push_back("job " + std::to_string(job.id) + ": started on " + where);
}

bool SlurmBridge::predict(const StartDecision& decision, Time now) {
  const std::int64_t id = queue_.slurm_id(decision.job);
  if (predictions_.count(id)) return false;
  ShadowPrediction p;
  p.at = now;
  for (const NodeShare& s : decision.alloc.shares) p.nodes.push_back(cluster_.nodes[s.node].name);
  predictions_[id] = std::move(p);
  return true;
}

// Shadow mode: where and when Slurm really started each job the policy made a prediction for.
void SlurmBridge::record_actual_starts(const SlurmView& view) {
  for (const LiveJob& live : view.jobs) {
    auto it = predictions_.find(live.id);
    if (it == predictions_.end() || it->second.actual_start >= 0 || !live.holds_resources()) continue;
    it->second.actual_start = live.start_epoch;
    for (const NodeGroupShare& group : live.shares)
      it->second.actual_nodes.insert(it->second.actual_nodes.end(), group.nodes.begin(), group.nodes.end());
  }
}

CycleReport SlurmBridge::cycle(Time now) {
  const auto began = std::chrono::steady_clock::now();
  CycleReport report;
  report.now = now;
  SlurmView view;
  try {
    view = read_slurm();
  } catch (const SlurmUnavailable&) {
    slurm_was_down_ = true;
    throw;
  }
  if (std::exchange(slurm_was_down_, false)) queue_.outage_ended(now);
  if (options_.whole_cores) read_cpus_per_core(view.nodes);
  LiveSnapshot snap = queue_.update(view, now);
  report.listed = view.jobs.size();
  if (options_.shadow) record_actual_starts(view);
  for (const std::string& c : snap.conflicts) report.log.push_back("conflict: " + c);
  for (const std::string& n : snap.notices) report.log.push_back(n);
  if (!options_.shadow)
    for (const Repair& r : snap.repairs) repair(r, report);
  report.pending = snap.pending.size();
  report.running = snap.running.size();
  report.in_flight = snap.in_flight.size();
  report.refused = snap.refused.size();
  report.waiting = snap.waiting.size();
  report.unmanaged_pending = snap.unmanaged_pending;
  report.blocked_nodes = snap.blocked_nodes.size();
  report.conflicts = snap.conflicts.size();
  SystemView system;
  system.now = now;
  system.cluster = &queue_.live_cluster();
  system.workload = &queue_.workload();
  system.free = &snap.free;
  system.pending = snap.pending;
  system.running = snap.running;
  cpu_caps_ = std::move(snap.cpu_caps);
  const Decisions decisions = decide(system, std::move(snap.events), report);
  ClusterState free = snap.free;
  for (const StartDecision& s : decisions.starts) start(s, free, now, report);
  for (const Rejection& r : decisions.rejections) {
    if (!queue_.startable(r.job)) {  // unknown, started in this pass, or named twice
      refuse(job_name(r.job) + ": rejection refused: not waiting in this cycle's queue", report);
      continue;
    }
    if (r.model_limit && !options_.shadow) {
      repair(hand_over_repair(queue_.live(r.job), "the scheduler cannot model it (" + r.reason + ")"),
             report);
      continue;
    }
    queue_.reject(r.job, r.reason);
    report.log.push_back("job " + std::to_string(queue_.slurm_id(r.job)) +
                         ": the scheduler can never run it: " + r.reason +
                         " (left held; reason written into Slurm next cycle)");
  }
  refusals_said_ = std::exchange(refusals_now_, {});
  report.duration_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                           std::chrono::steady_clock::now() - began).count();
  return report;
}

// A policy that fails a pass (a Python policy raising, or answering something that is not
// a decision) fails only this cycle: nothing it proposed is applied, every job stays as it
// is (held ones held), and the events it did not take in are handed to it again next cycle.
Decisions SlurmBridge::decide(const SystemView& system, std::vector<Event> events, CycleReport& report) {
  unheard_events_.insert(unheard_events_.end(), events.begin(), events.end());
  try {
    Decisions decisions = scheduler_.decide(system, unheard_events_);
    unheard_events_.clear();
    failed_passes_in_row_ = 0;
    return decisions;
  } catch (const PolicyError& e) {
    report.policy_failed = true;
    ++failed_passes_in_row_;
    const std::string what = one_line(e.what());
    const std::string failure = one_line(e.failure());  // the same from pass to pass, unlike the context
    if (failure == last_policy_error_)
      report.log.push_back("policy error again (" + std::to_string(failed_passes_in_row_) +
                           " passes in a row); queued jobs stay held");
    else
      report.log.push_back("policy error: " + what + "; queued jobs stay held, the next cycle asks again");
    last_policy_error_ = failure;
    return {};
  }
}

CycleReport SlurmBridge::hand_back(Time now) {
  CycleReport report;
  report.now = now;
  if (options_.shadow) return report;
  const SlurmView view = read_slurm();
  for (const LiveJob& live : view.jobs) {
    const Observation seen = observe(live, options_.partition);
    if (seen.phase != Phase::Released && seen.phase != Phase::Interrupted) continue;
    const std::vector<Step> steps = seen.phase == Phase::Released
                                        ? rehold_steps(live.target(), seen.marker->original, now)
                                        : restore_steps(live, seen.marker->original, now);
    repair({live.id, steps, "job " + std::to_string(live.id) + ": the bridge stops; held with its request restored"}, report);
  }
  return report;
}

}  // namespace hs::bridge
