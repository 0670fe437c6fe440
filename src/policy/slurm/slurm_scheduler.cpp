#include "policy/slurm/slurm_scheduler.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>

#include "policy/slurm/main_pass.hpp"
#include "policy/slurm/select.hpp"
#include "sim/moldable.hpp"

namespace hs::slurm {

SlurmScheduler::SlurmScheduler(const SlurmConfig& config)
    : config_(config), priority_(config.priority, config.multifactor), backfill_(config.backfill) {}

std::string SlurmScheduler::name() const {
  return std::string("slurm-backfill(") +
         (config_.mode == BackfillMode::Easy ? "easy" : "conservative") + "," +
         (config_.priority == PriorityType::Basic ? "basic" : "multifactor") + ")";
}

namespace {
// A replayed real run's jobs carry their own end latency or epilog (job file fields).
bool jobs_record_subseconds(const Workload& w) {
  return std::any_of(w.jobs.begin(), w.jobs.end(),
                     [](const Job& j) { return j.end_latency_ms > 0 || j.epilog_ms > 0; });
}
}  // namespace

void SlurmScheduler::attach(const SystemView& view) {
  workload_ = view.workload;
  priority_.attach(*view.cluster, *view.workload);
  queue_ = std::make_unique<QueueOrder>(*view.cluster, *view.workload, priority_);
  partitions_.build(*view.cluster, *view.workload);
  backfill_.attach(*view.cluster);
  weights_ = node_weights(*view.cluster);
  idle_.emplace(*view.cluster);
  fits_idle_.clear();
  if (config_.clock == ClockMode::Controller) gpu_bias_.resize(view.cluster->node_count());
  cluster_nodes_ = &view.cluster->nodes;
  node_by_name_.clear();
  whole_second_runs_ = config_.subsecond.whole_seconds() &&
                       (config_.clock == ClockMode::Grid || !jobs_record_subseconds(*view.workload));
  free_.reset();
  started_.assign(view.workload->jobs.size(), 0);
  queued_.assign(view.workload->jobs.size(), 0);
  started_runs_.clear();
  lingering_.clear();
  completing_.clear();
  loop_requests_.clear();
  later_events_.clear();
  next_later_ = 0;
  order_.clear();
  full_dirty_ = ended_since_main_ = false;
  main_request_ = change_since_backfill_ = last_change_ = kNoTime;
  // The grid clock's passes start at t = 0 (as if the last ones ran just before).
  last_background_ = last_backfill_ =
      config_.clock == ClockMode::Grid ? -1 : config_.controller_start;
  if (config_.clock == ClockMode::Controller && config_.startup_pass != kNoTime)
    last_background_ = std::max(last_background_,
                                config_.subsecond.loop_clock_second(config_.startup_pass));
  next_full_ = full_tick_after(last_background_);
}

namespace {
Time floor_div(Time a, Time b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

// First tick of origin + k * every strictly after t.
Time tick_after(Time t, Time origin, Time every) {
  return origin + (floor_div(t - origin, every) + 1) * every;
}
}  // namespace

// The pass timing of both clocks is decided here (full_tick_after, last_background_pass,
// main_pass_due, backfill_pass_due); the rest of the scheduler only asks them.

// First full-pass tick strictly after t: every sched_interval from t = 0 (grid) or from
// the controller's start.
Time SlurmScheduler::full_tick_after(Time t) const {
  if (config_.clock == ClockMode::Controller)
    if (const auto seen = config_.subsecond.observed_full_after(t, config_.sched_interval))
      return *seen;
  const Time origin = config_.clock == ClockMode::Grid ? 0 : config_.controller_start;
  return tick_after(t, origin, config_.sched_interval);
}

// The last main pass before `now` that batch_sched_delay counts from. The controller's
// background loop: a batch pass or a full-pass tick, skipped ticks (they could start
// nothing) included, as in slurmctld. The grid clock: the last pass the model ran.
Time SlurmScheduler::last_background_pass(Time now) const {
  if (config_.clock == ClockMode::Grid) return last_background_;
  const auto seen = config_.subsecond.observed_full_at_or_before(now - 1, config_.sched_interval);
  const Time tick = seen ? *seen : full_tick_after(now - 1) - config_.sched_interval;
  // Replaying the loop's logged passes, the last of them counts even if the model slept.
  const std::optional<Time> logged = config_.subsecond.replay_loop_passes
                                         ? config_.subsecond.logged_loop_pass_at_or_before(now - 1)
                                         : std::nullopt;
  return std::max({last_background_, tick, config_.controller_start, logged.value_or(tick)});
}

// When the requested main pass (main_request_ set) runs, as seen at `now`. The grid clock
// runs it at once after an end, and on an idle machine (the simulator ends a replay when
// a pass on an idle machine starts nothing; see docs/slurm-model.md).
Time SlurmScheduler::main_pass_due(Time now, bool idle) const {
  if (config_.clock == ClockMode::Grid && (ended_since_main_ || idle)) return main_request_;
  const Time earliest = last_background_pass(now) + config_.batch_sched_delay;
  const Time due = std::max(main_request_, earliest);
  // The loop's time() may still read the second before its tick's (loop_clock_second).
  if (config_.clock == ClockMode::Controller && config_.subsecond.loop_clock_second(due) < earliest)
    return due + 1;
  return due;
}

// When the next backfill pass runs, once something changed (change_since_backfill_ set):
// the controller's agent bf_interval after its previous cycle and at the first change
// since; the grid clock at the first tick of the bf_interval grid after both.
Time SlurmScheduler::backfill_pass_due() const {
  const Time every = config_.bf_interval;
  if (config_.clock == ClockMode::Grid)
    return std::max(tick_after(change_since_backfill_ - 1, 0, every),
                    tick_after(last_backfill_, 0, every));
  return config_.subsecond.observed_cycle_second(
      std::max(change_since_backfill_, last_backfill_ + every));
}

// slurmctld's loop checks time limits every PERIODIC_TIMEOUT (30 s) from its start and
// kills a job whose start + limit has passed (controller.c, job_time_limit): a job still
// running at its limit runs on until the next check. The checks are placed on
// controller_start + k * limit_check, at the loop's tick in that second (or the next
// second that has one). An approximation: the loop runs the check at the first tick at
// least PERIODIC_TIMEOUT after the last one, so in a long run it drifts as the full
// passes do (full_passes).
std::int32_t SlurmScheduler::kill_after_limit_ms(Time start, Time limit) const {
  if (config_.clock != ClockMode::Controller || config_.limit_check <= 0 ||
      limit >= kMsKillLimitBound)
    return -1;
  const Time due = start + limit;
  Time check = tick_after(due - 1, config_.controller_start, config_.limit_check);
  for (int k = 0; k < 3; ++k, ++check)
    if (const std::optional<std::int32_t> ms = config_.subsecond.tick_ms(check))
      return static_cast<std::int32_t>((check - due) * 1000 + *ms);
  return static_cast<std::int32_t>((check - due) * 1000);
}

void SlurmScheduler::mark_full_dirty(Time now) {
  if (!full_dirty_) next_full_ = std::max(next_full_, full_tick_after(now - 1));
  full_dirty_ = true;
}

// Anything that sets Slurm's last_job_update: backfill's _more_work sees it.
void SlurmScheduler::record_change(Time now) {
  if (change_since_backfill_ == kNoTime) change_since_backfill_ = now;
  last_change_ = now;
}

void SlurmScheduler::request_main_pass(Time now, bool ended) {
  if (main_request_ == kNoTime) main_request_ = now;
  ended_since_main_ = ended_since_main_ || ended;
}

// Passes the real controller ran before `now` while the model was not woken (nothing
// waiting, or nothing that could start): they start nothing but move its clocks. The
// grid clock has none: a pass that was due runs at the next call.
void SlurmScheduler::catch_up(Time now) {
  if (config_.clock == ClockMode::Grid) return;
  // A full-pass tick the model slept through (nothing could start then) still ran in
  // slurmctld: it is the background loop's latest pass, and the next full pass is a tick
  // later. Without this the tick's pass would run late, at the next wake-up.
  if (full_dirty_ && next_full_ < now) {
    last_background_ = std::max(last_background_, next_full_);
    full_dirty_ = false;
    next_full_ = full_tick_after(next_full_);
  }
  if (main_request_ != kNoTime) {
    const Time at = std::min(main_pass_due(main_request_, false),
                             full_tick_after(main_request_ - 1));
    if (at < now) last_background_ = config_.subsecond.loop_clock_second(at), main_request_ = kNoTime;
  }
  while (config_.backfill_enabled && change_since_backfill_ != kNoTime) {
    const Time at = backfill_pass_due();
    if (at >= now) break;
    last_backfill_ = config_.subsecond.backfill_cycle_end(at);
    change_since_backfill_ = last_change_ >= at ? last_change_ : kNoTime;
  }
}

void SlurmScheduler::absorb(const SystemView& view, std::span<const Event> events,
                            Decisions& out) {
  for (const Event& e : events) {
    if (e.kind == EventKind::Withdrawn) {
      leave_queue(e.job);
      continue;
    }
    const std::int32_t epilog = e.kind == EventKind::Ended ? epilog_heard_ms(e, view.now) : 0;
    if (e.kind == EventKind::Ended) note_end(e, view.now, epilog);
    // clock=controller: an event later in this second than a pass happens after it. The
    // loop hears of an end when the node's epilog completion comes back (epilog_ms later,
    // at the end of this second at the latest); its nodes are released at the end itself.
    Event seen = e;
    if (e.kind == EventKind::Ended && config_.clock == ClockMode::Controller) {
      seen.at_ms = std::min(999, e.at_ms + epilog);
      request_when_heard(view.now, e, seen.at_ms);
    }
    if (e.kind == EventKind::Submitted && config_.clock == ClockMode::Controller && e.at_ms > 0)
      seen.at_ms = submission_seen_ms(view.now, e.at_ms);
    if (seen.at_ms > 0 && config_.clock == ClockMode::Controller)
      later_events_.push_back(seen);
    else
      absorb_one(view, seen, out);
  }
  std::stable_sort(later_events_.begin(), later_events_.end(),
                   [](const Event& a, const Event& b) { return a.at_ms < b.at_ms; });
}

// clock=controller: a submission logged `at_ms` into second `now` counts for passes from
// submit_latency_ms later (the RPC logs it before it lets go of the job write lock, and a
// tick known only by its place may fall just after it). A loop pass or backfill cycle
// logged in that second at or after the submission saw it: it waited for that lock
// (partitions-v, session 24: submission and pass both logged at 0.044 s, the job started
// in that pass; session 23's partitions-v: submission and cycle both at 357.036 s, the
// cycle tested and started the job).
std::int32_t SlurmScheduler::submission_seen_ms(Time now, std::int32_t at_ms) const {
  std::int32_t seen = std::min(999, at_ms + config_.subsecond.submit_latency_ms);
  for (const std::optional<std::int32_t> logged :
       {config_.subsecond.logged_tick_ms(now), config_.subsecond.logged_cycle_ms(now)})
    if (logged && *logged >= at_ms && *logged < seen) seen = *logged;
  return seen;
}

void SlurmScheduler::absorb_events_until(const SystemView& view, std::int32_t ms,
                                         Decisions& out) {
  while (next_later_ < later_events_.size() && later_events_[next_later_].at_ms <= ms)
    absorb_one(view, later_events_[next_later_++], out);
}

void SlurmScheduler::absorb_one(const SystemView& view, const Event& e, Decisions& out) {
  mark_full_dirty(view.now);
  record_change(view.now);
  changed_since_main_ = true;
  if (e.kind == EventKind::NodesChanged) {  // live only: capacity or a partition's nodes changed
    partitions_.build(*view.cluster, *view.workload);
    fits_idle_.clear();
    request_main_pass(view.now, true);
    return;
  }
  // Every submission and end asks for a main pass (slurmctld's job_sched_cnt++); the
  // grid clock counts only submissions the model queues.
  const bool ended = e.kind == EventKind::Ended;
  // (clock=controller: an end's request is timed by request_when_heard.)
  if (ended ? config_.clock == ClockMode::Grid : config_.clock == ClockMode::Controller)
    request_main_pass(main_tick_passed_ ? view.now + 1 : view.now, ended);
  if (ended) return;
  note_job(view, e.job);
  const Job& job = view.job(e.job);
  if (config_.clock == ClockMode::Controller) {  // job_allocate's test at submission
    const auto& nodes = partitions_.nodes[partitions_.of_job[e.job]];
    gpu_bias_.reset(nodes, job);
    gpu_bias_.note_test(*view.cluster, *idle_, job, nodes);
  }
  if (!fits_idle(*view.cluster, job)) {
    out.rejections.push_back(
        {e.job, "Slurm's node selection cannot place this job even on its idle partition"});
    return;
  }
  priority_.on_submit(e.job, view.now);
  queue_->insert(order_, e.job);
  queued_[e.job] = 1;
  if (config_.clock == ClockMode::Grid) request_main_pass(view.now, false);
}

// clock=controller: when an end asks the loop for a pass. It counts for the loop when its
// epilog completion comes back with the terminate RPC (agent.c: queue_job_scheduler), once
// the agent's watchdog sees the last answer (a job's own recorded epilog: its last node's
// answer; SubsecondClock::watchdog_heard_ms). When it comes as its own RPC instead, that
// RPC runs schedule() at once (an observed pass outside the loop just after the message)
// and asks the loop for nothing (proc_req.c, _slurm_rpc_epilog_complete).
void SlurmScheduler::request_when_heard(Time now, const Event& end, std::int32_t heard_ms) {
  const std::int32_t own = workload_->jobs[end.job].epilog_ms;
  // A message's RPC ran its own pass (unless the job file says the node answered instead).
  const bool answered = workload_->jobs[end.job].epilog_by == Job::EpilogReport::Answer;
  if (!answered && own_rpc_pass(end, now, heard_ms)) return;
  std::int64_t at = now * 1000 + heard_ms;
  if (own >= 0)
    at = std::max(at, now * 1000 + end.at_ms +
                          SubsecondClock::watchdog_heard_ms(own + SubsecondClock::kAnswerSeenMs));
  loop_requests_.push_back(at);
}

// The loop requests heard by `at` (absolute ms) become a request of second `second`.
void SlurmScheduler::take_loop_requests(std::int64_t at, Time second) {
  const auto heard = std::partition(loop_requests_.begin(), loop_requests_.end(),
                                    [at](std::int64_t r) { return r > at; });
  if (heard == loop_requests_.end()) return;
  loop_requests_.erase(heard, loop_requests_.end());
  request_main_pass(second, true);
}

// Whether the job could start on the idle partition. The answer depends only on the job's
// shape (the idle state and the options are fixed for a replay), so it is kept per shape:
// the selection costs O(nodes), and most submissions repeat a known shape.
bool SlurmScheduler::fits_idle(const Cluster& cluster, const Job& job) {
  return fits_idle_.get(job, [&](const Job& j) {
    return select_nodes(cluster, *idle_, j, select_base()).has_value();
  });
}

SelectOptions SlurmScheduler::select_base() const {
  SelectOptions options = config_.select_options();
  options.weights = weights_;
  return options;
}

// Sub-second timing: remembers what a started job holds, so that its end can be replayed
// at its sub-second time. Nothing is kept when every job ends on a whole second.
void SlurmScheduler::remember_starts(const std::vector<StartDecision>& starts, Time now) {
  if (whole_second_runs_) return;
  for (const StartDecision& d : starts) {
    const Time limit = workload_->jobs[d.job].req.time_limit;
    started_runs_[d.job] = {now, limit > kNoTime - now ? kNoTime : now + limit, d.alloc};
  }
}

// clock=controller: how long after a job's end the controller has taken in its last
// node's epilog completion. A job's own recorded epilog (a replayed real run) is that
// node's send: an epilog-complete message (its RPC runs a pass just after) is taken in
// epilog_latency_ms later, an answer to the terminate request kAnswerSeenMs later (the
// agent reads it on the open connection); which one, the job file says, else an observed
// pass outside the loop soon after tells a message. Otherwise the option epilog_ms.
std::int32_t SlurmScheduler::epilog_heard_ms(const Event& end, Time now) const {
  const Job& job = workload_->jobs[end.job];
  if (job.epilog_ms < 0) return config_.subsecond.epilog_ms;
  const bool message = job.epilog_by == Job::EpilogReport::Unknown
                           ? own_rpc_pass(end, now, job.epilog_ms)
                           : job.epilog_by == Job::EpilogReport::Message;
  return job.epilog_ms + taken_in_after_send_ms(message);
}

// How long after a node sends its epilog report the controller has taken it in.
std::int32_t SlurmScheduler::taken_in_after_send_ms(bool message) const {
  return message ? config_.subsecond.epilog_latency_ms : SubsecondClock::kAnswerSeenMs;
}

// Whether an observed pass outside the loop follows the job's last epilog report (a
// message's RPC runs one at once; the message is logged when sent). `report_ms`: that
// report, ms into the end's second, when the job has no recorded epilog.
bool SlurmScheduler::own_rpc_pass(const Event& end, Time now, std::int32_t report_ms) const {
  const std::int32_t own = workload_->jobs[end.job].epilog_ms;
  return config_.subsecond.agent_pass_soon_after(now, own >= 0 ? end.at_ms + own : report_ms);
}

void SlurmScheduler::note_end(const Event& e, Time now, std::int32_t epilog) {
  const auto it = started_runs_.find(e.job);
  if (it == started_runs_.end()) return;
  if (epilog > 0) {
    const std::int64_t end = now * 1000 + e.at_ms;
    // Only a recorded answer: older job files' untagged reports are dated too roughly to
    // tell an answer just after a pass outside the loop from that pass's own message.
    const Job& job = workload_->jobs[e.job];
    const bool answered = job.epilog_by == Job::EpilogReport::Answer;
    if (job.node_epilogs.empty()) {
      completing_.push_back({it->second.alloc.nodes(), end, end + epilog, answered});
      if (job.epilog_by == Job::EpilogReport::Message) messages_taken_.push_back(end + epilog);
    }
    else
      note_node_epilogs(job, it->second.alloc.nodes(), end, {end + epilog, answered});
  }
  if (e.at_ms > 0) lingering_.push_back({std::move(it->second), e.job, e.at_ms, false});
  started_runs_.erase(it);
}

// The latest message taken in by `heard` (absolute ms): the one whose RPC runs a pass
// outside the loop then; `at` + 1 when none is known.
std::int64_t SlurmScheduler::trigger_taken_in(std::int64_t heard, std::int64_t at) {
  std::erase_if(messages_taken_, [heard](std::int64_t t) { return t < heard - 1000; });
  std::int64_t latest = -1;
  for (std::int64_t t : messages_taken_)
    if (t <= heard) latest = std::max(latest, t);
  return latest < 0 ? at + 1 : latest;
}

// A job whose nodes' own reports were recorded: each node is COMPLETING until its report
// is taken in (cg_node_bitmap is cleared node by node, job_epilog_complete); a node without
// one until the job's last report, `last`. A message is taken in on its own. Answers come
// back together: the terminate request goes to all of the job's nodes through one agent
// thread, whose reply list returns once the last node replied (agent.c,
// _thread_per_group_rpc calling slurm_send_recv_msgs on the node list), so every answer
// is taken in after the job's last one (session 54: a pass 3 and 10 ms after a node's
// answer did not have that node while the job's later nodes had not answered).
void SlurmScheduler::note_node_epilogs(const Job& job, const std::vector<NodeIndex>& nodes,
                                       std::int64_t end, Report last) {
  if (node_by_name_.empty())
    for (NodeIndex n = 0; n < static_cast<NodeIndex>(cluster_nodes_->size()); ++n)
      node_by_name_.emplace((*cluster_nodes_)[n].name, n);
  std::int32_t last_answer_ms = 0;
  for (const Job::NodeEpilog& e : job.node_epilogs)
    if (e.by == Job::EpilogReport::Answer) last_answer_ms = std::max(last_answer_ms, e.ms);
  std::vector<Report> reports(nodes.size(), last);
  for (const Job::NodeEpilog& e : job.node_epilogs) {
    const auto found = node_by_name_.find(e.node);
    if (found == node_by_name_.end()) continue;
    const auto at = std::find(nodes.begin(), nodes.end(), found->second);
    if (at == nodes.end()) continue;  // the model placed the job elsewhere
    const bool answer = e.by == Job::EpilogReport::Answer;
    reports[at - nodes.begin()] = {end + (answer ? last_answer_ms : e.ms) + taken_in_after_send_ms(!answer), answer};
  }
  for (const Report& r : reports)
    if (!r.answered) messages_taken_.push_back(r.until_ms);
  for (std::size_t k = 0; k < nodes.size(); ++k)
    completing_.push_back({{nodes[k]}, end, reports[k].until_ms, reports[k].answered});
}

// At the start of the call every job that ended in this second still holds its nodes;
// each pass then releases those that ended before it.
void SlurmScheduler::hold_lingering(PassState& s, const SystemView& view) {
  if (lingering_.empty()) return;
  sync_free(view);
  for (Lingering& l : lingering_) {
    s.free->take(l.run.alloc);
    l.held = true;
  }
}

void SlurmScheduler::release_lingering_until(PassState& s, std::int32_t ms) {
  for (Lingering& l : lingering_)
    if (l.held && l.end_ms <= ms) {
      s.free->release(l.run.alloc);
      l.held = false;
    }
}

// The nodes of jobs that ended before this pass and whose epilog is not done yet.
void SlurmScheduler::mark_completing(PassState& s, std::int32_t ms, std::int32_t message_ms) {
  s.completing = nullptr;
  if (completing_.empty()) return;
  const std::int64_t at = s.now * 1000 + ms;
  const std::int64_t message_at = s.now * 1000 + std::max(ms, message_ms);
  // A pass outside the loop runs in its message's RPC, which holds the job lock from taking
  // that message in: answers taken in since wait (those sent after the message).
  const std::int64_t answers_before = message_ms < 0 ? at + 1 : trigger_taken_in(message_at, at);
  std::erase_if(completing_, [&](const Completing& c) {
    return c.until_ms <= at && (!c.answered || c.until_ms < answers_before);
  });
  completing_bits_.resize(s.cluster->node_count(), false);
  bool any = false;
  for (const Completing& c : completing_)
    if (c.end_ms <= at && (c.answered ? c.until_ms >= answers_before : c.until_ms > message_at))
      for (NodeIndex n : c.nodes) completing_bits_.set(n), any = true;
  if (any) s.completing = &completing_bits_;
}

// _pick_best_nodes leaves COMPLETING nodes out of every node set of a job that may share
// nodes (all of them under cons_tres without --exclusive): held busy for the main pass.
void SlurmScheduler::hold_completing(PassState& s, const SystemView& view) {
  completing_hold_.shares.clear();
  if (!s.completing) return;
  sync_free(view);
  for (int n = 0; n < s.cluster->node_count(); ++n) {
    if (!s.completing->test(n)) continue;
    const NodeFree& f = s.free->node(n);
    completing_hold_.shares.push_back({n, f.cores, f.gres, f.mem_mb});
  }
  s.free->take(completing_hold_);
}

void SlurmScheduler::release_completing(PassState& s) {
  if (!completing_hold_.shares.empty()) s.free->release(completing_hold_);
  completing_hold_.shares.clear();
}

void SlurmScheduler::main_pass_at(PassState& s, const SystemView& view, std::int32_t ms,
                                  Decisions& out) {
  absorb_events_until(view, ms, out);
  release_lingering_until(s, ms);
  s.start_ms = ms;
  take_loop_requests(view.now * 1000 + ms, view.now);
  mark_completing(s, ms);
  hold_completing(s, view);
  run_main(s, view);
  release_completing(s);
  // Requests from now on (later events of this second) wait for the next tick.
  main_tick_passed_ = config_.clock == ClockMode::Controller;
}

// schedule() called outside the background loop (an epilog completion): a main pass of the
// default depth that neither waits for batch_sched_delay nor restarts it (only the loop
// sets last_sched_time), and leaves a requested loop pass requested.
//
// It runs in the RPC that took in an epilog completion, after taking it in: so it sees
// the messages the controller had taken in epilog_latency_ms after its logged time, its
// own included (the loop's passes miss a completion sent in their own millisecond). That
// RPC holds the job lock from taking its message in until the pass ends, so answers to
// terminate requests sent after that message wait for it (esp-het, session 25: answers
// sent 1-3 ms after the message, taken in before the pass was logged, were not seen).
void SlurmScheduler::agent_pass_at(PassState& s, const SystemView& view, std::int32_t ms,
                                   Decisions& out) {
  const std::int32_t heard = std::min(999, ms + config_.subsecond.epilog_latency_ms);
  absorb_events_until(view, heard, out);
  release_lingering_until(s, ms);
  s.start_ms = ms;
  if (order_.empty()) return;
  sync_free(view);
  mark_completing(s, ms, heard);
  hold_completing(s, view);
  const MainPassStats st = run_main_pass(s, order_, partitions_, config_.default_queue_depth);
  release_completing(s);
  if (st.started > 0) record_change(view.now);
  ++main_passes_;
}

void SlurmScheduler::backfill_pass_at(PassState& s, const SystemView& view, std::int32_t ms,
                                      Decisions& out) {
  absorb_events_until(view, ms, out);
  release_lingering_until(s, ms);
  s.start_ms = ms;
  mark_completing(s, ms);
  std::span<const RunningJob> running = view.running;
  if (!lingering_.empty()) {
    running_scratch_.assign(view.running.begin(), view.running.end());
    for (const Lingering& l : lingering_)
      if (l.held) running_scratch_.push_back({l.job, l.run.start, l.run.limit_end, &l.run.alloc});
    running = running_scratch_;
  }
  run_backfill(s, view, running, out);
}

// clock=controller replaying a run: within its logged loop passes, the loop's
// default-depth passes are those of the log (option loop_passes, SubsecondClock).
bool SlurmScheduler::replays_loop(Time now) const {
  return config_.clock == ClockMode::Controller && config_.subsecond.within_logged_loop(now);
}

void SlurmScheduler::run_main(PassState& s, const SystemView& view) {
  const Time now = view.now;
  const bool full_due = full_dirty_ && now >= next_full_;
  const bool requested_due =
      replays_loop(now) ? config_.subsecond.logged_tick_ms(now).has_value()
                        : main_request_ != kNoTime && now >= main_pass_due(now, view.running.empty());
  if (!full_due && !requested_due) return;
  // A full pass with nothing changed since a complete main pass would start nothing.
  const bool useful = changed_since_main_ || last_main_truncated_ || !full_due ||
                      main_request_ != kNoTime;
  if (!order_.empty() && useful) {
    const std::size_t depth = full_due ? SIZE_MAX : config_.default_queue_depth;
    sync_free(view);
    const MainPassStats st = run_main_pass(s, order_, partitions_, depth);
    if (st.started > 0) record_change(now);
    last_main_truncated_ = st.truncated;
    changed_since_main_ = false;
    ++main_passes_;
  }
  last_background_ = config_.subsecond.loop_clock_second(now);  // = now without observed ticks
  main_request_ = kNoTime;
  ended_since_main_ = false;
  if (full_due) {
    full_dirty_ = false;
    next_full_ = full_tick_after(now);
  }
}

void SlurmScheduler::run_backfill(PassState& s, const SystemView& view,
                                  std::span<const RunningJob> running, Decisions& out) {
  const Time now = view.now;
  if (!config_.backfill_enabled || change_since_backfill_ == kNoTime ||
      now < backfill_pass_due())
    return;
  std::size_t started = 0;
  if (out.starts.size() < order_.size()) {  // someone is still waiting
    sync_free(view);
    const BackfillStats st = backfill_.run(s, order_, partitions_, running);
    started = st.started;
    backfill_tested_ += static_cast<std::int64_t>(st.tested);
    backfill_stopped_early_ += st.stopped_early;
    ++backfill_passes_;
    if (plan_observer_) plan_observer_(now, backfill_.plan());
  }
  last_backfill_ = config_.clock == ClockMode::Controller
                       ? config_.subsecond.backfill_cycle_end(now)
                       : now;
  if (started > 0) {
    mark_full_dirty(now);
    changed_since_main_ = true;
    last_change_ = now;
  }
  // The controller's agent sees a change in its cycle's own second (its starts included)
  // in the next cycle; on the grid clock this pass has seen everything up to now.
  change_since_backfill_ =
      config_.clock == ClockMode::Controller && last_change_ == now ? now : kNoTime;
}

// *free_ = *view.free once per call, and only when a pass runs: most calls run none.
// assign_from copies only the nodes where jobs started or ended since the last time.
void SlurmScheduler::sync_free(const SystemView& view) {
  if (free_synced_) return;
  free_->assign_from(*view.free);
  free_synced_ = true;
}

void SlurmScheduler::run_passes(const SystemView& view, Decisions& out) {
  const Time now = view.now;
  if (priority_.refresh(now, order_)) {
    queue_->sort(order_);
    changed_since_main_ = true;
    mark_full_dirty(now);
    record_change(now);
  }
  if (!free_) free_.emplace(*view.cluster);
  free_synced_ = false;
  PassState s;
  s.cluster = view.cluster;
  s.workload = view.workload;
  s.now = now;
  s.free = &*free_;
  s.starts = &out.starts;
  s.started = &started_;
  s.select = select_base();
  if (config_.clock == ClockMode::Grid) {
    main_pass_at(s, view, 0, out);
    backfill_pass_at(s, view, 0, out);
    return;
  }
  s.gpu_bias = &gpu_bias_;
  s.end_latency_ms = config_.subsecond.end_latency_ms;
  s.recorded_end_latency = true;
  hold_lingering(s, view);
  // The two loops' passes in the order they run within this second; the main loop may
  // have no tick in it (its period is a little longer than a second).
  const std::optional<std::int32_t> main_ms = config_.subsecond.tick_ms(now);
  const std::int32_t backfill_ms = config_.subsecond.backfill_cycle_ms(now);
  if (!main_ms) {  // a second without a tick: what was due runs at the next one
    if (main_request_ != kNoTime && main_request_ <= now) main_request_ = now + 1;
    if (full_dirty_ && next_full_ <= now) next_full_ = now + 1;
  }
  // In time order; at equal times the loop's pass, then backfill, then one outside the loop.
  const std::optional<std::int32_t> agent_ms = config_.subsecond.agent_pass_ms(now);
  enum class Pass { Main, Backfill, Agent };
  std::array<std::pair<std::int32_t, Pass>, 3> passes{};
  std::size_t count = 0;
  if (main_ms) passes[count++] = {*main_ms, Pass::Main};
  passes[count++] = {backfill_ms, Pass::Backfill};
  if (agent_ms) passes[count++] = {*agent_ms, Pass::Agent};
  std::sort(passes.begin(), passes.begin() + static_cast<std::ptrdiff_t>(count));
  for (std::size_t k = 0; k < count; ++k) {
    const auto [ms, pass] = passes[k];
    if (pass == Pass::Main) main_pass_at(s, view, ms, out);
    if (pass == Pass::Backfill) backfill_pass_at(s, view, ms, out);
    if (pass == Pass::Agent) agent_pass_at(s, view, ms, out);
  }
  absorb_events_until(view, 999, out);  // after every pass of this second
  later_events_.clear();
  next_later_ = 0;
  take_loop_requests(now * 1000 + 999, now + 1);  // heard after this second's tick
}

void SlurmScheduler::forget_started(const std::vector<StartDecision>& starts) {
  if (starts.empty()) return;
  std::erase_if(order_, [&](JobRef j) { return started_[j] != 0; });
  for (const StartDecision& d : starts) started_[d.job] = queued_[d.job] = 0;
}

// The bridge's queue changes under the scheduler as a replay's never does: jobs arrive
// after the first pass, and one may be submitted again (its request changed, or a proposed
// start was not applied) or leave the queue unstarted (sim/scheduler.hpp: EventKind).
void SlurmScheduler::follow_workload(const SystemView& view) {
  const std::size_t jobs = view.workload->jobs.size();
  if (started_.size() >= jobs) return;
  started_.resize(jobs, 0);
  queued_.resize(jobs, 0);
}

// What is derived from a job's request, derived again at each submission.
void SlurmScheduler::note_job(const SystemView& view, JobRef job) {
  leave_queue(job);
  partitions_.note_job(*view.cluster, *view.workload, job);
  queue_->note_job(*view.cluster, *view.workload, job);
}

void SlurmScheduler::leave_queue(JobRef job) {
  if (static_cast<std::size_t>(job) >= queued_.size() || !queued_[job]) return;
  queued_[job] = 0;
  std::erase(order_, job);
}

std::optional<Time> SlurmScheduler::next_wake(const SystemView& view) const {
  if (order_.empty()) return std::nullopt;
  const Time now = view.now;
  Time best = kNoTime;
  if (replays_loop(now + 1)) {
    if (const std::optional<Time> logged = config_.subsecond.next_logged_loop_pass_after(now))
      best = std::min(best, *logged);
  } else if (main_request_ != kNoTime) {
    best = std::min(best, std::max(main_pass_due(now + 1, view.running.empty()), now + 1));
  }
  if (full_dirty_ && (changed_since_main_ || last_main_truncated_))
    best = std::min(best, std::max(next_full_, now + 1));
  if (change_since_backfill_ != kNoTime && config_.backfill_enabled)
    best = std::min(best, std::max(backfill_pass_due(), now + 1));
  if (const std::optional<Time> agent = config_.subsecond.next_agent_pass_after(now))
    best = std::min(best, *agent);
  if (!loop_requests_.empty())
    best = std::min(best, std::max(now + 1, *std::min_element(loop_requests_.begin(),
                                                              loop_requests_.end()) / 1000));
  if (best == kNoTime) return std::nullopt;
  return best;
}

Decisions SlurmScheduler::decide(const SystemView& view, std::span<const Event> events) {
  if (workload_ != view.workload || view.now < last_now_) attach(view);
  follow_workload(view);
  last_now_ = view.now;
  main_tick_passed_ =
      config_.clock == ClockMode::Controller && !config_.subsecond.tick_ms(view.now);
  Decisions out;
  catch_up(view.now);
  absorb(view, events, out);
  run_passes(view, out);
  for (StartDecision& d : out.starts)
    d.kill_after_limit_ms = kill_after_limit_ms(view.now, view.job(d.job).req.time_limit);
  remember_starts(out.starts, view.now);
  lingering_.clear();
  forget_started(out.starts);
  out.wake_at = next_wake(view);
  return out;
}

bool observe_backfill_plans(Scheduler& scheduler, PlanObserver observer) {
  auto* slurm = dynamic_cast<SlurmScheduler*>(&scheduler);
  if (slurm) slurm->observe_plans(std::move(observer));
  return slurm != nullptr;
}

std::unique_ptr<Scheduler> make_slurm_scheduler(const SlurmConfig& config) {
  return std::make_unique<SlurmScheduler>(config);
}

std::unique_ptr<Scheduler> make_slurm_scheduler(Params& params) {
  return make_slurm_scheduler(slurm_config_from(params));
}

}  // namespace hs::slurm
