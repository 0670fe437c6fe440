#include "sim/simulator.hpp"

#include <algorithm>
#include <functional>
#include <numeric>
#include <queue>
#include <stdexcept>
#include <unordered_map>

#include "model/request_fit.hpp"
#include "sim/bind.hpp"
#include "sim/cluster_state.hpp"
#include "sim/moldable.hpp"

namespace hs {

namespace {

enum class Phase : std::uint8_t { Unsubmitted, Pending, Running, Done };

// Fruitless passes a policy may request on an idle machine with nothing left to happen
// before its waiting jobs are declared stalled (enough for log2 of any window size).
constexpr int kMaxIdleRetries = 64;

using EndEntry = std::pair<Time, JobRef>;
using EndHeap = std::priority_queue<EndEntry, std::vector<EndEntry>, std::greater<>>;
using TimeHeap = std::priority_queue<Time, std::vector<Time>, std::greater<>>;

Time saturating_add(Time a, Time b) { return b > kNoTime - a ? kNoTime : a + b; }

// One replay. Events at one time are applied in the order (Ended, Submitted), each by
// JobRef; then exactly one scheduling pass runs.
class Run {
 public:
  Run(const Cluster& cluster, const Workload& workload, Scheduler& scheduler,
      const SimConfig& config)
      : cluster_(cluster), workload_(workload), scheduler_(scheduler), config_(config),
        free_(cluster), runnable_(cluster), phase_(workload.jobs.size(), Phase::Unsubmitted),
        end_ms_(workload.jobs.size(), 0) {
    result_.records.resize(workload.jobs.size());
    submit_order_.resize(workload.jobs.size());
    std::iota(submit_order_.begin(), submit_order_.end(), 0);
    std::stable_sort(submit_order_.begin(), submit_order_.end(), [&](JobRef a, JobRef b) {
      return workload.jobs[a].submit < workload.jobs[b].submit;
    });
    progress_step_ = std::max<std::size_t>(1, workload.jobs.size() / 100);
  }

  SimResult run() {
    Time now = 0;
    while (next_time(now)) step(now);
    finish();
    return std::move(result_);
  }

 private:
  bool more_submissions() const { return next_submit_ < submit_order_.size(); }

  // Earliest time anything can happen; false when nothing is left.
  bool next_time(Time& t) const {
    Time best = kNoTime;
    if (more_submissions()) best = workload_.jobs[submit_order_[next_submit_]].submit;
    if (!ends_.empty()) best = std::min(best, ends_.top().first);
    if (!pending_.empty()) {
      if (!wakes_.empty()) best = std::min(best, wakes_.top());
      if (next_periodic_ != kNoTime) best = std::min(best, next_periodic_);
    }
    if (best == kNoTime) return false;
    t = best;
    return true;
  }

  void step(Time now) {
    last_time_ = now;
    events_.clear();
    apply_ends(now);
    apply_submissions(now);
    bool timer_due = false;
    while (!wakes_.empty() && wakes_.top() <= now) {
      timer_due |= wakes_.top() == now;
      wakes_.pop();
    }
    timer_due |= next_periodic_ == now;
    if (events_.empty() && !(timer_due && !pending_.empty())) return;
    while (pass(now)) {
    }
  }

  void apply_ends(Time now) {
    bool any = false;
    while (!ends_.empty() && ends_.top().first == now) {
      const JobRef j = ends_.top().second;
      ends_.pop();
      free_.release(running_allocs_.at(j));
      running_allocs_.erase(j);  // running_'s pointer to it is dropped below, unread
      phase_[j] = Phase::Done;
      events_.push_back({EventKind::Ended, j, end_ms_[j]});
      any = true;
      count_done();
    }
    if (!any) return;
    std::erase_if(running_, [&](const RunningJob& r) { return phase_[r.job] == Phase::Done; });
  }

  void apply_submissions(Time now) {
    while (more_submissions() && workload_.jobs[submit_order_[next_submit_]].submit == now) {
      const JobRef j = submit_order_[next_submit_++];
      const Job& job = workload_.jobs[j];
      auto reason = binding_problem(cluster_, job);
      if (!reason) reason = runnable_.reason(job);
      if (!reason) reason = unsupported_request(job, scheduler_.supports(), scheduler_.name());
      if (reason) {
        reject(j, std::move(*reason));
        continue;
      }
      phase_[j] = Phase::Pending;
      pending_.push_back(j);
      events_.push_back({EventKind::Submitted, j, job.submit_ms});
    }
  }

  // One scheduling pass. Returns true when another pass must run at the same time: the
  // policy only rejected jobs and nothing else could ever wake it.
  bool pass(Time now) {
    SystemView view;
    view.now = now;
    view.cluster = &cluster_;
    view.workload = &workload_;
    view.free = &free_;
    view.pending = pending_;
    view.running = running_;
    Decisions d = scheduler_.decide(view, events_);
    events_.clear();
    ++result_.passes;
    for (StartDecision& s : d.starts) start(now, s);
    for (Rejection& r : d.rejections) policy_reject(r);
    if (!d.starts.empty() || !d.rejections.empty()) compact_pending();
    result_.queue.push_back({now, static_cast<std::int32_t>(pending_.size()),
                             static_cast<std::int32_t>(running_.size())});
    if (d.wake_at) {
      if (*d.wake_at <= now)
        policy_bug("wake_at " + std::to_string(*d.wake_at) + " is not after now " +
                   std::to_string(now));
      wakes_.push(*d.wake_at);
    }
    schedule_periodic(now);
    const bool progressed = !d.starts.empty() || !d.rejections.empty();
    if (progressed || more_submissions() || !ends_.empty()) idle_retries_ = 0;
    if (pending_.empty() || more_submissions() || !ends_.empty()) return false;
    if (progressed) return true;
    // Idle machine, nothing left to happen, nothing started. A policy that asked to be
    // woken may still start something (IPSCHED halves its window after a time-out), but
    // only a bounded number of times, so a stuck policy ends as a stall, never a loop.
    if (d.wake_at && ++idle_retries_ <= kMaxIdleRetries) return false;
    stall_pending();
    return false;
  }

  void schedule_periodic(Time now) {
    const Time every = config_.periodic_interval;
    next_periodic_ = (every > 0 && !pending_.empty()) ? (now / every + 1) * every : kNoTime;
  }

  [[noreturn]] void policy_bug(const std::string& what) const {
    throw std::logic_error("scheduler " + scheduler_.name() + ": " + what);
  }

  std::string job_label(JobRef j) const {
    if (j < 0 || static_cast<std::size_t>(j) >= workload_.jobs.size())
      return "job ref " + std::to_string(j);
    return "job " + std::to_string(workload_.jobs[j].id);
  }

  void start(Time now, StartDecision& s) {
    const JobRef j = s.job;
    if (j < 0 || static_cast<std::size_t>(j) >= phase_.size() || phase_[j] != Phase::Pending)
      policy_bug(job_label(j) + ": started but not pending");
    const Job& job = workload_.jobs[j];
    if (auto bad = allocation_violates_request(cluster_, job, s.alloc))
      policy_bug(job_label(j) + ": allocation violates the request: " + *bad);
    if (!free_.can_hold(s.alloc)) policy_bug(job_label(j) + ": allocation exceeds free resources");
    free_.take(s.alloc);
    phase_[j] = Phase::Running;
    JobRecord& rec = result_.records[j];
    if (s.start_ms < 0 || s.start_ms > 999 || s.end_latency_ms < 0 || s.kill_after_limit_ms < -1)
      policy_bug(job_label(j) + ": start_ms " + std::to_string(s.start_ms) +
                 " not in 0..999, end_latency_ms " + std::to_string(s.end_latency_ms) +
                 " negative, or kill_after_limit_ms " + std::to_string(s.kill_after_limit_ms) +
                 " below -1");
    rec.alloc = s.alloc;
    const Allocation& held = running_allocs_[j] = std::move(s.alloc);
    rec.start = now;
    rec.start_ms = s.start_ms;
    rec.end_latency_ms = s.end_latency_ms;
    rec.kill_after_limit_ms = s.kill_after_limit_ms;
    const RunEnd e =
        run_end(job, held, now, s.start_ms, s.end_latency_ms, s.kill_after_limit_ms);
    rec.end = e.end;
    rec.status = e.killed ? JobStatus::Killed : JobStatus::Completed;
    end_ms_[j] = e.end_ms;
    ends_.push({rec.end, j});
    running_.push_back({j, now, saturating_add(now, job.req.time_limit), &held});
  }

  void policy_reject(Rejection& r) {
    if (r.job < 0 || static_cast<std::size_t>(r.job) >= phase_.size() ||
        phase_[r.job] != Phase::Pending)
      policy_bug(job_label(r.job) + ": rejected but not pending");
    if (r.reason.empty()) r.reason = "rejected by " + scheduler_.name();
    reject(r.job, std::move(r.reason));
  }

  void reject(JobRef j, std::string reason) {
    phase_[j] = Phase::Done;
    JobRecord& rec = result_.records[j];
    rec.status = JobStatus::Rejected;
    rec.reason = std::move(reason);
    ++result_.rejected;
    count_done();
  }

  void compact_pending() {
    std::erase_if(pending_, [&](JobRef j) { return phase_[j] != Phase::Pending; });
  }

  void stall_pending() {
    for (JobRef j : pending_) {
      phase_[j] = Phase::Done;
      JobRecord& rec = result_.records[j];
      rec.status = JobStatus::Stalled;
      rec.reason = "still waiting when no event was left; " + scheduler_.name() +
                   " started nothing in its last " + std::to_string(idle_retries_ + 1) +
                   " passes on an idle machine";
      ++result_.stalled;
      count_done();
    }
    pending_.clear();
    next_periodic_ = kNoTime;
  }

  void count_done() {
    ++done_;
    if (config_.progress && (done_ % progress_step_ == 0 || done_ == phase_.size()))
      config_.progress(last_time_, done_, phase_.size());
  }

  void finish() {
    if (!pending_.empty()) stall_pending();  // e.g. the last submissions were all rejected
    for (const JobRecord& r : result_.records)
      if (r.status == JobStatus::Completed || r.status == JobStatus::Killed)
        result_.makespan_end = std::max(result_.makespan_end, r.end);
  }

  const Cluster& cluster_;
  const Workload& workload_;
  Scheduler& scheduler_;
  const SimConfig& config_;
  ClusterState free_;
  RunnableMemo runnable_;  // never_runnable_reason per request shape
  std::vector<Phase> phase_;
  std::vector<std::int32_t> end_ms_;  // per JobRef: sub-second part of its end
  std::vector<JobRef> submit_order_;
  std::size_t next_submit_ = 0;
  std::vector<JobRef> pending_;
  std::vector<RunningJob> running_;
  // The running jobs' allocations, unpacked (the records keep them packed); the map keeps
  // each where it is, as running_ points to them.
  std::unordered_map<JobRef, Allocation> running_allocs_;
  std::vector<Event> events_;
  EndHeap ends_;
  TimeHeap wakes_;
  Time next_periodic_ = kNoTime;
  int idle_retries_ = 0;
  Time last_time_ = 0;
  std::size_t done_ = 0;
  std::size_t progress_step_ = 1;
  SimResult result_;
};

}  // namespace

SimResult simulate(const Cluster& cluster, const Workload& workload, Scheduler& scheduler,
                   const SimConfig& config) {
  return Run(cluster, workload, scheduler, config).run();
}

}  // namespace hs
