#include "bridge/live_queue.hpp"

#include <algorithm>
#include <ctime>
#include <iterator>
#include <set>
#include <tuple>
#include <utility>

#include "model/node_constraint.hpp"
#include "model/request_fit.hpp"
#include "sim/bind.hpp"
#include "util/error.hpp"

namespace hs::bridge {

namespace {

// `count` units of "gpu" or "gpu:a100" on a node: typed units count against their name too.
void add_gres(const Cluster& cluster, NodeShare& share, const std::string& gres, std::int32_t count) {
  const std::size_t colon = gres.find(':');
  if (const int name = cluster.gres_index(gres.substr(0, colon)); name >= 0) share.gres[name] += count;
  if (colon == std::string::npos) return;
  if (const int kind = cluster.gres_index(gres); kind >= 0) share.gres[kind] += count;
}

// Whether the partition's MaxNodes narrows the request's node range (the reason the job
// cannot run here names it then).
bool capped_by_max_nodes(const Partition& partition, const JobRequest& r) {
  return partition.max_nodes > 0 && !r.nodes_from_partition && r.nodes_max > partition.max_nodes;
}

}  // namespace

Repair hand_over_repair(const LiveJob& live, const std::string& why) {
  return {live.id, hand_over_steps(live.target()),
          "job " + std::to_string(live.id) + ": " + why + "; released to Slurm's own scheduler"};
}

LiveQueue::LiveQueue(const Cluster& cluster, std::string partition, bool memory_consumable,
                     Time start_grace)
    : cluster_(cluster), bound_cluster_(cluster), runnable_(bound_cluster_), live_cluster_(cluster),
      partition_(std::move(partition)),
      memory_(LiveMemory::of(cluster, memory_consumable)), start_grace_(start_grace) {
  for (NodeIndex n = 0; n < cluster.node_count(); ++n) node_index_[cluster.nodes[n].name] = n;
}

struct LiveQueue::Pass {
  explicit Pass(const Cluster& cluster, Time now) : snap(cluster), now(now) {}
  LiveSnapshot snap;
  Time now;
  std::vector<RunningEntry> running;
  std::set<NodeIndex> blocked;
  std::string partition_closed;  // why Slurm starts none of the partition's jobs ("DOWN"), or ""
  std::map<std::int64_t, int> array_slack;  // throttled array -> tasks it may still queue
  int splits_left = kSplitsPerCycle;
};

namespace {

// The request fields that decide whether a job can run; a change re-opens a refusal.
std::string request_signature(const LiveJob& l) {
  return l.num_nodes_text + "|" + std::to_string(l.cpus) + "|" + std::to_string(l.num_tasks) +
         "|" + std::to_string(l.min_cpus_node) + "|" + l.tres_per_node_text + "|" +
         std::to_string(l.time_limit) + "|" + user_comment(l.comment) + "|" + l.req_nodes_text + "|" +
         std::to_string(l.min_mem_per_node_mb) + "|" + std::to_string(l.min_mem_per_cpu_mb);
}

// Everything of a waiting job's listing its bound request depends on.
std::string queue_signature(const LiveJob& l) {
  return request_signature(l) + "|" + l.partition + "|" + l.features + "|" + l.exclude_nodes_text + "|" +
         std::to_string(l.cpus_per_task) + "|" + std::to_string(l.ntasks_per_node) + "|" +
         (l.exclusive ? "exclusive" : "") + "|" + l.other_tres;
}

std::string clock_text(Time epoch) {
  const std::time_t t = static_cast<std::time_t>(epoch);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", std::localtime(&t));
  return text;
}

}  // namespace

JobRef LiveQueue::register_job(const LiveJob& live) {
  if (auto it = ref_of_id_.find(live.id); it != ref_of_id_.end()) return it->second;
  Job job;
  try {
    job = job_from_live(live, memory_, partition_);
  } catch (const InputError&) {  // a bad comment range: refusal() names it
    LiveJob plain = live;
    plain.comment.clear();
    job = job_from_live(plain, memory_, partition_);  // refusal() names the comment
  }
  bind_to_cluster(bound_cluster_, job);
  job.run_time = job.req.time_limit;  // as bound: the partition's default, or the planning limit
  const auto ref = static_cast<JobRef>(workload_.jobs.size());
  workload_.jobs.push_back(std::move(job));
  ref_of_id_[live.id] = ref;
  return ref;
}

// Why a Queued job can never run here, from its listing as it is now. Refreshes the job's
// request in the workload (the user may have changed it with scontrol update).
std::optional<std::string> LiveQueue::refusal(const LiveJob& live, JobRef ref) {
  Job job;
  try {
    job = job_from_live(live, memory_, partition_);
  } catch (const InputError& e) {
    return "comment '" + user_comment(live.comment) + "': " + e.problem();
  }
  std::string capped_by;  // the partition limit that narrowed the request, if any
  if (const LivePartition* limits = partition_of(live)) {
    if (std::string why = beyond_limits(live, *limits); !why.empty()) return why;
    if (const Partition* bound = bound_cluster_.find_partition(limits->name); bound && capped_by_max_nodes(*bound, job.req))
      capped_by = " (partition " + limits->name + "'s MaxNodes " + std::to_string(limits->max_nodes) + ")";
  }
  std::optional<std::string> reason = bind_to_cluster(bound_cluster_, job);
  job.run_time = job.req.time_limit;  // as bound: the partition's default, or the planning limit
  if (!reason) reason = runnable_.reason(job);
  if (reason) *reason += capped_by;
  workload_.jobs[ref] = std::move(job);
  if (reason) return reason;
  auto by_scheduler = scheduler_refusals_.find(live.id);
  if (by_scheduler == scheduler_refusals_.end()) return std::nullopt;
  if (by_scheduler->second.first == request_signature(live)) return by_scheduler->second.second;
  scheduler_refusals_.erase(by_scheduler);
  return std::nullopt;
}

void LiveQueue::reject(JobRef job, const std::string& reason) {
  const std::int64_t id = slurm_id(job);
  auto it = latest_.find(id);
  scheduler_refusals_[id] = {it == latest_.end() ? "" : request_signature(it->second), reason};
}

Allocation LiveQueue::allocation_of(const LiveJob& live) const {
  Allocation alloc;
  for (const NodeGroupShare& group : live.shares)
    for (const std::string& name : group.nodes) {
      auto it = node_index_.find(name);
      if (it == node_index_.end()) continue;  // a node outside the managed cluster
      NodeShare share;
      share.node = it->second;
      share.cores = group.cores;
      share.mem_mb = cluster_.nodes[it->second].memory_mb > 0 ? group.mem_mb : 0;
      for (const auto& [gres, count] : group.gres) add_gres(cluster_, share, gres, count);
      alloc.shares.push_back(share);
    }
  alloc.sort_by_node();
  return alloc;
}

// What a released job will take when Slurm starts it: the exact allocation when this
// bridge released it, else (after a restart) its pinned request: MinCPUsNode cores on every
// required node, the rest of NumCPUs spread in node order, TresPerNode on each.
Allocation LiveQueue::planned_allocation(const LiveJob& live) const {
  if (auto it = planned_.find(live.id); it != planned_.end()) return it->second;
  Allocation alloc;
  const std::int64_t mem = memory_per_node_mb(live, memory_);
  std::int32_t left = live.cpus;
  for (const std::string& name : live.req_nodes) {
    auto it = node_index_.find(name);
    if (it == node_index_.end()) continue;
    NodeShare share;
    share.node = it->second;
    share.cores = live.exclusive ? cluster_.nodes[it->second].cores
                                 : std::min(cluster_.nodes[it->second].cores, std::max(1, live.min_cpus_node));
    share.mem_mb = mem;
    for (const auto& [gres, count] : live.gres_per_node) add_gres(cluster_, share, gres, count);
    left -= share.cores;
    alloc.shares.push_back(share);
  }
  for (NodeShare& share : alloc.shares) {
    const std::int32_t more = std::min(std::max(0, left), cluster_.nodes[share.node].cores - share.cores);
    share.cores += more;
    left -= more;
  }
  alloc.sort_by_node();
  return alloc;
}

void LiveQueue::conflict(LiveSnapshot& snap, const std::string& key, const std::string& text) {
  if (reported_conflicts_.insert(key).second) snap.conflicts.push_back(text);
}

// A job Slurm did not start within the grace twice in a row is released again only after a
// growing pause (grace x 2, x 4, ... up to kMaxReleasePause): whatever Slurm waits for (a QOS
// or association limit, a partition that is down) would otherwise take the resources planned
// for it, the whole grace long, cycle after cycle.
void LiveQueue::note_unstarted_release(const LiveJob& live, Time now) {
  // The partition's state is read every cycle: no release is made while it is closed, so a
  // release it caught is not the job's to pay for with a pause.
  if (live.reason == "PartitionDown" || live.reason == "PartitionInactive") return;
  ReleaseRetry& r = release_retries_[live.id];
  ++r.failures;
  r.reason = live.reason;
  const int doublings = std::min(r.failures - 1, 10);
  r.not_before = r.failures < 2 ? now : now + std::min(kMaxReleasePause, start_grace_ << doublings);
}

std::optional<std::string> LiveQueue::release_pause(const LiveJob& live, Time now) const {
  auto it = release_retries_.find(live.id);
  if (it == release_retries_.end() || now >= it->second.not_before) return std::nullopt;
  return "Slurm did not start it at its last " + std::to_string(it->second.failures) +
         " releases (" + it->second.reason + "); released again in " +
         std::to_string(it->second.not_before - now) + " s";
}

// A throttled array (`%N`) may queue no more tasks in one pass than N minus those active:
// with tasks split off (split_ahead), several could otherwise start together past N.
std::optional<std::string> LiveQueue::throttle_wait(Pass& pass, const LiveJob& live) const {
  if (live.array_job_id <= 0 || live.array_throttle <= 0) return std::nullopt;
  auto [slack, fresh] = pass.array_slack.try_emplace(
      live.array_job_id, live.array_throttle - directory_.active_tasks(live.array_job_id));
  if (slack->second-- > 0) return std::nullopt;
  return throttle_reason(live.array_job_id, live.array_throttle);
}

// An array's record starts one task per cycle; its next tasks are split off as held jobs
// of their own, so that the next cycle can start several (as many as its throttle leaves).
void LiveQueue::split_ahead(Pass& pass, const LiveJob& live) {
  if (shadow_ || !live.holds_several_tasks() || pass.splits_left <= 0) return;
  const int held = directory_.held_split_tasks(live.array_job_id);
  int room = std::min(kSplitAhead - held, pass.splits_left);
  if (live.array_throttle > 0)  // the record's own task and the held ones come first
    room = std::min(room, live.array_throttle - directory_.active_tasks(live.array_job_id) - 1 - held);
  if (room <= 0) return;
  std::vector<std::int64_t> tasks = first_array_tasks(live.array_tasks, static_cast<std::size_t>(room) + 1);
  if (tasks.size() < 2) return;
  tasks.erase(tasks.begin());  // the record's own, started by its name
  pass.splits_left -= static_cast<int>(tasks.size());
  const std::string array = std::to_string(live.array_job_id);
  const std::string first = array + "_" + std::to_string(tasks.front());
  const std::string what = tasks.size() == 1
      ? "task " + first + " split off as a job of its own"
      : std::to_string(tasks.size()) + " tasks (" + first + " to " + array + "_" +
            std::to_string(tasks.back()) + ") split off as jobs of their own";
  pass.snap.repairs.push_back({live.id, split_task_steps(live.array_job_id, tasks, pass.now),
                               "array " + array + ": " + what + ", held for the bridge", false});
}

void LiveQueue::take_running(Pass& pass, const LiveJob& live) {
  release_retries_.erase(live.id);
  const JobRef ref = register_job(live);
  planned_.erase(live.id);
  Allocation alloc = allocation_of(live);
  if (!pass.snap.free.take_clamped(alloc))
    conflict(pass.snap, "over:" + std::to_string(live.id),
             "job " + std::to_string(live.id) +
                 ": Slurm runs it beyond what the cluster file leaves free on its nodes; "
                 "counted as filling them");
  const Time start = live.start_epoch >= 0 ? live.start_epoch : pass.now;
  const Time limit = workload_.jobs[ref].req.time_limit;
  const Time end = limit > 0 && limit != kNoTime ? start + limit : kNoTime;
  pass.running.push_back({start, ref, end, std::move(alloc)});
}

// Nodes that cannot take a job now: a state Slurm gives no new job (down, drain, ...), not
// known to Slurm, no longer in the managed partition, or in an advance reservation that is
// active or starts before the longest limit among the queued jobs would end.
void LiveQueue::block_nodes(Pass& pass, const SlurmView& view) {
  std::map<std::string, const LiveNode*> by_name;
  for (const LiveNode& n : view.nodes) by_name[n.name] = &n;
  Time horizon = 0;
  for (const LiveJob& live : view.jobs)
    if (live.pending() && live.time_limit != kNoTime) horizon = std::max(horizon, live.time_limit);
  auto block = [&](NodeIndex n, const std::string& why) {
    if (!pass.blocked.insert(n).second) return;
    pass.snap.free.block(n);
    pass.snap.blocked_nodes.push_back(cluster_.nodes[n].name + " (" + why + ")");
  };
  for (NodeIndex n = 0; n < cluster_.node_count() && !view.nodes.empty(); ++n) {
    auto it = by_name.find(cluster_.nodes[n].name);
    if (it == by_name.end()) {
      block(n, "not known to Slurm");
      continue;
    }
    const std::string why = node_unavailable_reason(*it->second);
    if (!why.empty()) block(n, why);
  }
  if (auto it = partitions_.find(partition_); !partition_.empty() && it != partitions_.end() && it->second.nodes) {
    std::vector<bool> listed(cluster_.nodes.size(), false);
    for (const std::string& name : *it->second.nodes)
      if (auto at = node_index_.find(name); at != node_index_.end()) listed[at->second] = true;
    for (NodeIndex n = 0; n < cluster_.node_count(); ++n)
      if (!listed[n]) block(n, "not in partition " + partition_ + " now");
  }
  for (const LiveReservation& r : view.reservations) {
    if (r.end_epoch <= pass.now || r.start_epoch >= pass.now + horizon) continue;
    const std::string why = "reservation " + r.name + " from " + clock_text(r.start_epoch);
    for (const std::string& name : r.nodes)
      if (auto it = node_index_.find(name); it != node_index_.end()) block(it->second, why);
  }
}

// MaxCPUsPerNode: a partition's jobs together use at most that many CPUs of a node, whatever
// else is free there (seen on a lab: a job asking 1 CPU of a node with 4 free stayed pending,
// Reason=Resources, while the partition's jobs held 12 of its 12). Every listed cap is
// tallied, and the bridge checks each start against it. For the managed partition what is
// free on a node is also lowered to what the partition may still use, so that plans respect
// it; later ends in the plan give back more than that where other partitions' jobs end,
// which only makes a plan hopeful, never a start wrong.
void LiveQueue::cap_partition_cpus(Pass& pass) {
  PartitionCpuCaps& caps = pass.snap.cpu_caps;
  for (const auto& [name, listed] : partitions_)
    if (listed.max_cpus_per_node > 0) caps.cap(name, listed.max_cpus_per_node, cluster_.node_count());
  if (caps.empty()) return;
  for (const RunningEntry& r : pass.running) caps.hold(planned_partition_of(r.job), r.alloc);
  if (partition_.empty()) return;
  for (NodeIndex n = 0; n < cluster_.node_count(); ++n) {
    const std::optional<std::int32_t> room = caps.room(partition_, n);
    if (!room) return;
    const std::int32_t over = pass.snap.free.node(n).cores - *room;
    if (over <= 0) continue;
    Allocation unusable;
    unusable.shares.push_back(NodeShare{n, over});
    pass.snap.free.take_clamped(unusable);
  }
}

std::string LiveQueue::planned_partition_of(JobRef job) const {
  return planned_partition(latest_.at(slurm_id(job)), partition_);
}

namespace {

// A released job that ran and that Slurm put back in the queue (its node failed, or
// `scontrol requeue`): Slurm delays a requeued job's begin time past the release.
bool requeued_after_release(const LiveJob& live, const JobMarker& marker) {
  return live.restarts > 0 && live.eligible_epoch > marker.at;
}

}  // namespace

// A released job keeps its planned resources while Slurm starts it. Past the grace, or when
// its nodes were taken or became unusable, it is held again with its request restored.
void LiveQueue::follow_released(Pass& pass, const LiveJob& live, const JobMarker& marker) {
  const JobRef ref = register_job(live);
  const std::string id = std::to_string(live.id);
  Allocation planned = planned_allocation(live);
  std::string why;
  if (pass.now - std::max(marker.at, grace_floor_) > start_grace_) {
    why = requeued_after_release(live, marker)
              ? "requeued by Slurm after it ran (Restarts=" + std::to_string(live.restarts) + ", " +
                    live.reason + ")"
              : "released at " + clock_text(marker.at) + " but not started by Slurm within " +
                    std::to_string(start_grace_) + " s (" + live.reason + ")";
  } else if (planned.shares.size() != live.req_nodes.size()) {
    why = "its planned nodes are not all in the cluster file";
  } else {
    for (const NodeShare& s : planned.shares)
      if (pass.blocked.count(s.node)) why = "planned node " + cluster_.nodes[s.node].name + " became unusable";
    if (why.empty() && !pass.snap.free.can_hold(planned))
      why = "its planned resources are taken (" + holders_of(pass, planned) + ")";
  }
  if (!why.empty()) {
    planned_.erase(live.id);
    if (why.rfind("released at", 0) == 0) note_unstarted_release(live, pass.now);
    pass.snap.repairs.push_back({live.id, rehold_steps(live.target(), marker.original, pass.now),
                                 "job " + id + ": " + why + "; held again, request restored"});
    return;
  }
  pass.snap.free.take(planned);
  pass.snap.in_flight.push_back(live.id);
  const Time limit = workload_.jobs[ref].req.time_limit;
  pass.running.push_back({marker.at, ref, limit > 0 ? marker.at + limit : kNoTime, std::move(planned)});
}

// "job 19 on n1, job 20 on n2": the running jobs on the nodes of `planned`.
std::string LiveQueue::holders_of(const Pass& pass, const Allocation& planned) const {
  std::string text;
  for (const RunningEntry& r : pass.running)
    for (const NodeShare& mine : planned.shares)
      for (const NodeShare& theirs : r.alloc.shares)
        if (mine.node == theirs.node) {
          text += (text.empty() ? "" : ", ") + std::string("job ") + std::to_string(slurm_id(r.job)) +
                  " on " + cluster_.nodes[mine.node].name;
        }
  return text.empty() ? "by a layout Slurm chose" : "by " + text;
}

// The partition the job is planned in, as last listed; null when not listed.
const LivePartition* LiveQueue::partition_of(const LiveJob& live) const {
  auto it = partitions_.find(planned_partition(live, partition_));
  return it == partitions_.end() ? nullptr : &it->second;
}

std::string LiveQueue::beyond_limits(const LiveJob& live, const LivePartition& limits) {
  return partition_limit_reason(limits, live.time_limit, live.nodes_min, live.nodes_max);
}

// Why Slurm, not the bridge, must place a held job: an advance reservation, licenses (which
// Slurm counts and the model does not: a start while they are taken would stay pending), a
// kind of job the bridge cannot pin, or node features the cluster file cannot match.
std::optional<std::string> LiveQueue::slurms_own(const LiveJob& live, const EligibilityVerdict& verdict) const {
  if (!live.reservation.empty()) return "asks reservation " + live.reservation;
  if (!live.licenses.empty()) return "asks licenses " + live.licenses + " (Slurm counts them)";
  // A partition an operator added since the bridge read slurm.conf (scontrol create
  // partition, or slurm.conf edited and reconfigured): Slurm can run its jobs, the bridge
  // cannot plan them until it restarts on the new slurm.conf.
  if (const std::string in = planned_partition(live, partition_);
      !cluster_.partitions.empty() && !cluster_.find_partition(in) && partitions_.count(in))
    return "partition " + in + " is not in the bridge's slurm.conf (added since the bridge started?)";
  if (const LivePartition* limits = partition_of(live); limits && live.partition.find(',') != std::string::npos)
    if (std::string why = beyond_limits(live, *limits); !why.empty())  // the other partitions' may allow it
      return why + "; Slurm may run it in another of its partitions (" + live.partition + ")";
  if (verdict.kind == Eligibility::SlurmOnly) return verdict.why;
  if (const std::string tres = unmodelled_tres(live); !tres.empty()) return "the request " + tres + " is not modelled";
  if (live.features.empty()) return std::nullopt;
  NodeConstraint constraint;
  if (auto bad = parse_node_constraint(live.features, constraint)) return "constraint " + live.features + ": " + *bad;
  for (const std::string& feature : constraint.features) {
    const bool known = std::any_of(cluster_.nodes.begin(), cluster_.nodes.end(), [&](const Node& n) {
      return std::find(n.features.begin(), n.features.end(), feature) != n.features.end();
    });
    if (!known) return "constraint " + live.features + ": no node of the cluster file has feature " + feature;
  }
  return std::nullopt;
}

void LiveQueue::refuse(Pass& pass, const LiveJob& live, const std::optional<JobMarker>& marker,
                       const std::string& reason) {
  const std::string id = std::to_string(live.id);
  pass.snap.refused.push_back("job " + id + ": " + reason);
  // The Comment too: its owner's hold and release (job_submit.lua) put their own comment back.
  const bool recorded = marker && marker->phase == MarkedPhase::Refused &&
                        marker->reason == sanitize_reason(reason) &&
                        live.comment.rfind(kRefusalComment, 0) == 0;
  if (!recorded)
    pass.snap.repairs.push_back({live.id, refuse_steps(live, reason, pass.now),
                                 "job " + id + ": can never run here: " + reason +
                                     " (left held, reason written into Slurm)"});
}

void LiveQueue::consider_queued(Pass& pass, const LiveJob& live,
                                const std::optional<JobMarker>& marker) {
  const std::string id = std::to_string(live.id);
  const EligibilityVerdict verdict = judge_eligibility(live, directory_, pass.now);
  if (const std::optional<std::string> why = slurms_own(live, verdict)) {
    pass.snap.repairs.push_back(hand_over_repair(live, *why));
    return;
  }
  const JobRef ref = register_job(live);
  std::optional<std::string> reason = refusal(live, ref);
  if (!reason && verdict.kind == Eligibility::Never) reason = verdict.why;
  if (reason) {
    refuse(pass, live, marker, *reason);
    return;
  }
  if (auto why = unsupported_request(workload_.jobs[ref], support_, scheduler_name_)) {
    pass.snap.repairs.push_back(hand_over_repair(live, *why));
    return;
  }
  std::optional<std::string> wait;
  if (verdict.kind == Eligibility::Waits) wait = verdict.why;
  if (!wait && !pass.partition_closed.empty())
    wait = "partition " + partition_ + " is " + pass.partition_closed + " (Slurm starts none of its jobs)";
  if (!wait) wait = release_pause(live, pass.now);
  if (!wait) wait = throttle_wait(pass, live);
  if (wait) {
    pass.snap.waiting.push_back("job " + id + ": " + *wait);
    // Said once per reason (a countdown is not a new reason).
    const std::string kind = wait->substr(0, wait->find(" ("));
    if (std::exchange(waiting_said_[live.id], kind) != kind)
      pass.snap.notices.push_back("job " + id + ": " + *wait + "; kept held");
    return;
  }
  waiting_said_.erase(live.id);
  if (marker && marker->phase == MarkedPhase::Refused)  // runnable again after a change
    pass.snap.repairs.push_back({live.id, accept_steps(live, pass.now),
                                 "job " + id + ": its request changed; queued again"});
  const std::string request = queue_signature(live);
  if (auto was = queued_as_.find(ref); was != queued_as_.end() && was->second != request)
    announce_again_.insert(ref);  // changed while it waited (scontrol update)
  queued_as_[ref] = request;
  pass.snap.pending.push_back(ref);
  split_ahead(pass, live);
}

// The partitions as Slurm lists them now: their state, limits and nodes. A partition's node
// list changes only by an operator (scontrol update PartitionName=... Nodes=...), which
// slurm.conf does not show: nodes moved in are planned on, nodes moved out no longer.
void LiveQueue::follow_partitions(Pass& pass, const SlurmView& view) {
  partitions_.clear();
  for (const LivePartition& p : view.partitions) {
    partitions_[p.name] = p;
    if (p.name == partition_) pass.partition_closed = partition_closed_reason(p);
  }
  for (std::size_t k = 0; k < live_cluster_.partitions.size(); ++k) {
    Partition& now = live_cluster_.partitions[k];
    Partition& ever = bound_cluster_.partitions[k];
    auto it = partitions_.find(now.name);
    if (it == partitions_.end()) continue;
    for (Partition* p : {&now, &ever}) {
      p->max_time = it->second.max_time;
      p->min_nodes = it->second.min_nodes;
      p->max_nodes = it->second.max_nodes;
    }
    if (!it->second.nodes) continue;  // not listed, or ALL: as slurm.conf says
    std::vector<NodeIndex> listed;
    for (const std::string& name : *it->second.nodes)
      if (auto at = node_index_.find(name); at != node_index_.end()) listed.push_back(at->second);
    std::sort(listed.begin(), listed.end());
    listed.erase(std::unique(listed.begin(), listed.end()), listed.end());
    if (listed == now.nodes) continue;
    membership_changed_ = true;
    const std::vector<NodeIndex>& configured = cluster_.partitions[k].nodes;
    std::vector<NodeIndex> either;
    std::set_union(configured.begin(), configured.end(), listed.begin(), listed.end(), std::back_inserter(either));
    now.nodes = std::move(listed);
    if (either == ever.nodes) continue;
    ever.nodes = std::move(either);
    runnable_.forget();
  }
}

LiveSnapshot LiveQueue::update(const SlurmView& view, Time now) {
  Pass pass(cluster_, now);
  follow_partitions(pass, view);
  directory_.read(view.jobs);
  std::vector<std::pair<const LiveJob*, Observation>> later;
  for (const LiveJob& live : view.jobs) {
    latest_[live.id] = live;
    Observation seen = shadow_ ? observe_shadow(live, partition_) : observe(live, partition_);
    if (seen.phase == Phase::Running) take_running(pass, live);
    else if (seen.phase == Phase::Unmanaged && live.pending()) ++pass.snap.unmanaged_pending;
    else if (seen.phase != Phase::Ended && seen.phase != Phase::Unmanaged)
      later.emplace_back(&live, std::move(seen));
  }
  block_nodes(pass, view);
  for (const auto& [live, seen] : later) {
    if (seen.phase == Phase::Released) {
      follow_released(pass, *live, *seen.marker);
    } else if (seen.phase == Phase::Interrupted) {
      const bool operators = !live->held_by_user();  // an administrator's hold, requeue holds too
      pass.snap.repairs.push_back(
          {live->id, restore_steps(*live, seen.marker->original, now),
           "job " + std::to_string(live->id) +
               (operators ? ": held by an operator (" + live->reason + "); its request is restored and it is theirs to release"
                          : ": a start was cut short; its request is restored")});
    } else {
      consider_queued(pass, *live, seen.marker);
    }
  }
  cap_partition_cpus(pass);
  finish(pass.snap, std::move(pass.running), pass.blocked);
  return std::move(pass.snap);
}

// Orders the queue and the running jobs and derives the events since the previous listing:
// Ended for every job no longer running, Withdrawn for every job that left the queue
// unstarted, then Submitted for every job newly queued (including a released job held
// again) or announced again, then NodesChanged when the unusable nodes or a partition's
// nodes changed.
void LiveQueue::finish(LiveSnapshot& snap, std::vector<RunningEntry> running,
                       const std::set<NodeIndex>& blocked) {
  std::sort(snap.pending.begin(), snap.pending.end(), [&](JobRef a, JobRef b) {
    const Job &x = workload_.jobs[a], &y = workload_.jobs[b];
    return std::tie(x.submit, x.id) < std::tie(y.submit, y.id);
  });
  std::sort(running.begin(), running.end(), [](const RunningEntry& a, const RunningEntry& b) {
    return std::tie(a.start, a.job) < std::tie(b.start, b.job);
  });
  snap.allocations.reserve(running.size());  // running's pointers must stay valid
  for (RunningEntry& r : running) {
    snap.allocations.push_back(std::move(r.alloc));
    snap.running.push_back({r.job, r.start, r.end, &snap.allocations.back()});
  }
  std::set<JobRef> now_running;
  for (const RunningJob& r : snap.running) now_running.insert(r.job);
  std::set<JobRef> now_pending(snap.pending.begin(), snap.pending.end());
  for (JobRef ref : previous_running_)
    if (!now_running.count(ref)) snap.events.push_back({EventKind::Ended, ref});
  for (JobRef ref : pending_)
    if (!now_pending.count(ref) && !now_running.count(ref) && !claimed_.count(ref))
      snap.events.push_back({EventKind::Withdrawn, ref});
  for (JobRef ref : snap.pending)
    if (!pending_.count(ref) || announce_again_.count(ref))
      snap.events.push_back({EventKind::Submitted, ref});
  if (blocked != previous_blocked_ || std::exchange(membership_changed_, false))
    snap.events.push_back({EventKind::NodesChanged, 0});
  previous_blocked_ = blocked;
  pending_ = std::move(now_pending);
  std::erase_if(queued_as_, [&](const auto& entry) { return !pending_.count(entry.first); });
  announce_again_.clear();
  claimed_.clear();
  previous_running_.assign(now_running.begin(), now_running.end());
}

}  // namespace hs::bridge
