#include "bridge/live_queue.hpp"

#include <algorithm>
#include <set>
#include <tuple>

#include "model/request_fit.hpp"
#include "util/error.hpp"

namespace hs::bridge {

namespace {

const InputLocation kListing{"scontrol show job", 0};

// "hetsched:gpu=1-3[,mic=0-1]" in the job's comment: per-node gres ranges.
void apply_comment_ranges(const std::string& comment, Job& job) {
  const std::string prefix = "hetsched:";
  if (comment.rfind(prefix, 0) != 0) return;
  std::size_t pos = prefix.size();
  while (pos < comment.size()) {
    std::size_t comma = comment.find(',', pos);
    if (comma == std::string::npos) comma = comment.size();
    const std::string item = comment.substr(pos, comma - pos);
    pos = comma + 1;
    const std::size_t eq = item.find('='), dash = item.find('-');
    if (eq == std::string::npos || dash == std::string::npos || dash < eq)
      throw InputError(kListing, "Comment", comment,
                       "job " + std::to_string(job.id) + ": expected hetsched:NAME=MIN-MAX");
    const std::string name = item.substr(0, eq);
    std::int32_t lo = 0, hi = 0;
    try {
      lo = std::stoi(item.substr(eq + 1, dash - eq - 1));
      hi = std::stoi(item.substr(dash + 1));
    } catch (const std::exception&) {
      lo = hi = -1;
    }
    if (lo < 0 || hi < lo)
      throw InputError(kListing, "Comment", comment,
                       "job " + std::to_string(job.id) + ": range must be MIN-MAX with 0 <= MIN <= MAX");
    auto it = std::find_if(job.req.gres.begin(), job.req.gres.end(),
                           [&](const GresRequest& g) { return g.name == name; });
    if (it == job.req.gres.end()) it = job.req.gres.insert(job.req.gres.end(), GresRequest{name});
    it->per_node_min = lo;
    it->per_node_max = hi;
  }
}

// Memory one node of the job must have free, in Slurm's terms (see job_from_live).
std::int64_t memory_per_node_mb(const LiveJob& live, const LiveMemory& memory) {
  if (!memory.consumable) return 0;
  if (live.min_mem_per_node_mb > 0) return live.min_mem_per_node_mb;
  if (live.min_mem_per_node_mb == 0) return memory.whole_node_mb;
  if (live.min_mem_per_cpu_mb <= 0) return 0;
  std::int64_t cpus_on_one_node = 0;
  if (live.ntasks_per_node > 0) {
    cpus_on_one_node = std::int64_t{live.ntasks_per_node} * live.cpus_per_task;
  } else {  // every other node of the job holds at least one CPU
    cpus_on_one_node = std::min<std::int64_t>(memory.largest_node_cores,
                                              live.cpus - std::max(0, live.nodes_min - 1));
  }
  return std::min(live.min_mem_per_cpu_mb * std::max<std::int64_t>(1, cpus_on_one_node),
                  memory.largest_node_mb);
}

}  // namespace

LiveMemory LiveMemory::of(const Cluster& cluster, bool consumable) {
  LiveMemory m;
  m.consumable = consumable;
  for (const Node& n : cluster.nodes) {
    m.largest_node_cores = std::max(m.largest_node_cores, n.cores);
    if (n.memory_mb <= 0) continue;
    m.largest_node_mb = std::max(m.largest_node_mb, n.memory_mb);
    m.whole_node_mb = m.whole_node_mb == 0 ? n.memory_mb : std::min(m.whole_node_mb, n.memory_mb);
  }
  if (m.largest_node_mb == 0) m.consumable = false;  // the cluster file gives no RealMemory
  return m;
}

Job job_from_live(const LiveJob& live, const LiveMemory& memory) {
  Job job;
  job.id = live.id;
  job.name = "slurm-" + std::to_string(live.id);
  job.partition = live.partition;
  job.submit = live.submit_epoch;
  JobRequest& r = job.req;
  r.ntasks = live.cpus;
  r.nodes_min = live.nodes_min;
  r.nodes_max = live.nodes_max;
  r.ntasks_per_node = live.ntasks_per_node * live.cpus_per_task;
  r.contiguous = live.contiguous;
  r.time_limit = live.time_limit == kNoTime ? 0 : live.time_limit;
  for (const auto& [name, count] : live.gres_per_node) r.gres.push_back({name, -1, count, count});
  apply_comment_ranges(live.comment, job);
  r.mem_per_node_mb = memory_per_node_mb(live, memory);
  job.run_time = r.time_limit;  // unknown before the job ends; schedulers see limits only
  return job;
}

LiveQueue::LiveQueue(const Cluster& cluster, std::string partition, bool memory_consumable)
    : cluster_(cluster), partition_(std::move(partition)),
      memory_(LiveMemory::of(cluster, memory_consumable)) {
  for (NodeIndex n = 0; n < cluster.node_count(); ++n) node_index_[cluster.nodes[n].name] = n;
}

bool LiveQueue::is_ours(const LiveJob& live) const {
  return live.held() && (partition_.empty() || live.partition == partition_);
}

JobRef LiveQueue::register_job(const LiveJob& live) {
  if (auto it = ref_of_id_.find(live.id); it != ref_of_id_.end()) return it->second;
  Job job = job_from_live(live, memory_);
  std::optional<std::string> reason = bind_to_cluster(cluster_, job);
  job.run_time = job.req.time_limit;  // as bound: the partition's default, or the planning limit
  if (!reason) reason = never_runnable_reason(cluster_, job);
  const auto ref = static_cast<JobRef>(workload_.jobs.size());
  workload_.jobs.push_back(std::move(job));
  ref_of_id_[live.id] = ref;
  if (reason) rejected_[ref] = *reason;
  return ref;
}

Allocation LiveQueue::allocation_of(const LiveJob& live) const {
  Allocation alloc;
  for (const NodeGroupShare& group : live.shares)
    for (const std::string& name : group.nodes) {
      auto it = node_index_.find(name);
      if (it == node_index_.end())
        throw InputError(kListing, "Nodes", name,
                         "job " + std::to_string(live.id) + " runs on a node the cluster file does not have");
      NodeShare share;
      share.node = it->second;
      share.cores = group.cores;
      share.mem_mb = cluster_.nodes[it->second].memory_mb > 0 ? group.mem_mb : 0;
      for (const auto& [gres, count] : group.gres) {
        const int type = cluster_.gres_index(gres);
        if (type >= 0) share.gres[type] += count;
      }
      alloc.shares.push_back(share);
    }
  alloc.sort_by_node();
  return alloc;
}

void LiveQueue::mark_started(JobRef job, const Allocation& alloc, Time now) {
  in_flight_[job] = {alloc, now};
}

void LiveQueue::hold(LiveSnapshot& snap, std::vector<RunningEntry>& running, JobRef ref,
                     Time start, Allocation alloc) const {
  if (!snap.free.can_hold(alloc))
    throw InputError(kListing, "JobId", std::to_string(slurm_id(ref)),
                     "its allocation exceeds what the cluster file leaves free on its nodes");
  snap.free.take(alloc);
  const Time limit = workload_.jobs[ref].req.time_limit;
  const Time end = limit > 0 && limit != kNoTime ? start + limit : kNoTime;
  running.push_back({start, ref, end, std::move(alloc)});
}

// A pending job the bridge released: still in its grace time it keeps its resources
// reserved; past it, it is reported overdue. Returns false for jobs that are not in flight.
bool LiveQueue::handle_in_flight(const LiveJob& live, JobRef ref, Time now, LiveSnapshot& snap,
                                 std::vector<RunningEntry>& running) {
  auto flight = in_flight_.find(ref);
  if (flight == in_flight_.end()) return false;
  if (live.held()) {  // held again (by an operator or by us): back to the queue
    in_flight_.erase(flight);
    return false;
  }
  if (now - flight->second.requested_at > kStartGrace) {
    snap.start_overdue.push_back(live.id);
    in_flight_.erase(flight);
  } else {
    hold(snap, running, ref, flight->second.requested_at, flight->second.alloc);
  }
  return true;
}

void LiveQueue::add_pending(const LiveJob& live, LiveSnapshot& snap) {
  if (!is_ours(live)) return;
  const bool first_seen = !ref_of_id_.count(live.id);
  const JobRef ref = register_job(live);
  if (auto r = rejected_.find(ref); r != rejected_.end()) {
    if (first_seen) snap.rejected.push_back("job " + std::to_string(live.id) + ": " + r->second);
    return;
  }
  snap.pending.push_back(ref);
}

LiveSnapshot LiveQueue::update(const std::vector<LiveJob>& jobs, Time now) {
  LiveSnapshot snap(cluster_);
  std::vector<RunningEntry> running;
  for (const LiveJob& live : jobs) {
    if (live.holds_resources()) {
      const JobRef ref = register_job(live);
      in_flight_.erase(ref);
      hold(snap, running, ref, live.start_epoch >= 0 ? live.start_epoch : now, allocation_of(live));
      continue;
    }
    if (live.state != "PENDING") continue;
    auto known = ref_of_id_.find(live.id);
    if (known != ref_of_id_.end() && handle_in_flight(live, known->second, now, snap, running))
      continue;
    add_pending(live, snap);
  }
  finish(snap, std::move(running));
  return snap;
}

// Orders the queue and the running jobs and derives the events since the previous listing.
void LiveQueue::finish(LiveSnapshot& snap, std::vector<RunningEntry> running) {
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
  const std::set<JobRef> was_pending(previous_pending_.begin(), previous_pending_.end());
  const std::set<JobRef> was_running(previous_running_.begin(), previous_running_.end());
  for (JobRef ref : snap.pending)  // events in JobRef order
    if (!was_pending.count(ref) && !was_running.count(ref))
      snap.events.push_back({EventKind::Submitted, ref});
  for (JobRef ref : was_running)
    if (!now_running.count(ref)) snap.events.push_back({EventKind::Ended, ref});
  previous_pending_ = snap.pending;
  previous_running_.assign(now_running.begin(), now_running.end());
}

}  // namespace hs::bridge
