#include "policy/slurm/slurm_scheduler.hpp"

#include <algorithm>
#include <cstdint>

#include "policy/slurm/main_pass.hpp"
#include "policy/slurm/select.hpp"

namespace hs::slurm {

SlurmConfig slurm_config_from(Params& p) {
  SlurmConfig c;
  const std::string mode = p.get_choice(
      "mode", "conservative", {"conservative", "easy"},
      "backfill reservations: conservative = every tested job that cannot start reserves "
      "(Slurm's default); easy = only the first bf_reserve_depth jobs per partition (1)");
  c.mode = mode == "easy" ? BackfillMode::Easy : BackfillMode::Conservative;
  const std::string prio = p.get_choice(
      "priority", "basic", {"basic", "multifactor"},
      "priority/basic (FIFO) or priority/multifactor (age + job size, the documents' setting)");
  c.priority = prio == "multifactor" ? PriorityType::Multifactor : PriorityType::Basic;
  c.sched_interval = p.get_int("sched_interval", 60, 1, 86400,
                               "seconds between full main passes (SchedulerParameters)");
  c.batch_sched_delay = p.get_int("batch_sched_delay", 3, 0, 3600,
                                  "seconds a submission may wait for its main pass");
  c.default_queue_depth = static_cast<std::size_t>(p.get_int(
      "default_queue_depth", 100, 1, 100000000, "jobs an event-triggered main pass tests"));
  c.backfill_enabled =
      p.get_choice("scheduler_type", "backfill", {"backfill", "builtin"},
                   "SchedulerType: sched/backfill, or sched/builtin (main pass only, FIFO)") ==
      "backfill";
  c.bf_interval = p.get_int("bf_interval", 30, 1, 86400,
                            "seconds from the end of a backfill cycle to the next");
  c.controller_start = p.get_int(
      "controller_start", -60, -1000000000, 1000000000,
      "seconds after t = 0 at which slurmctld started; its pass clocks count from there "
      "(fidelity.sh passes the real one)");
  c.backfill.epoch = p.get_int(
      "wall_clock", 0, 0, 100000000000LL,
      "Unix time of t = 0: bf_resolution and the will-run 30 s groups round the wall clock");
  c.backfill.window = 60 * p.get_int("bf_window", 1440, 1, 43200,
                                     "backfill planning horizon in minutes");
  c.backfill.resolution = p.get_int("bf_resolution", 60, 1, 3600,
                                    "seconds; reservation times are rounded down to it");
  c.backfill.max_job_test = static_cast<std::size_t>(p.get_int(
      "bf_max_job_test", 500, 1, 100000000, "jobs one backfill pass tests at most"));
  const std::int64_t depth = p.get_int(
      "bf_reserve_depth", 0, 0, 100000000,
      "reservations per partition and pass (Slurm's bf_job_part_count_reserve); 0 = by mode");
  c.backfill.reserve_depth =
      depth > 0 ? static_cast<int>(depth) : (c.mode == BackfillMode::Easy ? 1 : 0);
  c.topology = p.get_bool("topology", true,
                          "use topology/tree placement when the cluster has switches");
  c.lowest_top_switch =
      p.get_choice("topology_top", "highest", {"highest", "lowest"},
                   "tree top switch: highest with enough nodes (22.05) or lowest that holds "
                   "the job (Slurm 2.x, as in the documents)") == "lowest";
  MultifactorConfig& m = c.multifactor;
  m.calc_period = 60 * p.get_int("priority_calc_period", 5, 1, 1440,
                                 "minutes between multifactor recomputations (PriorityCalcPeriod)");
  const std::int64_t max_age = p.get_int("priority_max_age", 10080, 1, 5256000,
                                         "minutes after which age stops growing (PriorityMaxAge)");
  m.max_age = 60 * max_age;
  m.weight_age = p.get_int("priority_weight_age", max_age, 0, 4294967295LL,
                           "PriorityWeightAge; default = priority_max_age: +1 per minute waited");
  m.weight_job_size = p.get_int("priority_weight_job_size", m.weight_age, 0, 4294967295LL,
                                "PriorityWeightJobSize; default = the age weight (the documents)");
  m.favor_small = p.get_bool("priority_favor_small", false,
                             "PriorityFavorSmall; the documents favour larger jobs");
  return c;
}

SlurmScheduler::SlurmScheduler(const SlurmConfig& config)
    : config_(config), priority_(config.priority, config.multifactor), backfill_(config.backfill) {}

std::string SlurmScheduler::name() const {
  return std::string("slurm-backfill(") +
         (config_.mode == BackfillMode::Easy ? "easy" : "conservative") + "," +
         (config_.priority == PriorityType::Basic ? "basic" : "multifactor") + ")";
}

void SlurmScheduler::attach(const SystemView& view) {
  workload_ = view.workload;
  priority_.attach(*view.cluster, *view.workload);
  queue_ = std::make_unique<QueueOrder>(*view.cluster, *view.workload, priority_);
  partitions_.build(*view.cluster, *view.workload);
  idle_.emplace(*view.cluster);
  free_.reset();
  started_.assign(view.workload->jobs.size(), 0);
  order_.clear();
  full_dirty_ = false;
  main_request_ = change_since_backfill_ = last_change_ = kNoTime;
  last_background_ = last_backfill_ = config_.controller_start;
  next_full_ = full_tick_after(config_.controller_start);
}

namespace {
Time floor_div(Time a, Time b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
}  // namespace

// First full-pass tick of the background loop strictly after t (ticks every
// sched_interval from the controller's start).
Time SlurmScheduler::full_tick_after(Time t) const {
  const Time every = config_.sched_interval, origin = config_.controller_start;
  return origin + (floor_div(t - origin, every) + 1) * every;
}

// The background loop's last main pass before `now`: a batch pass or a full-pass tick.
// Ticks the model skipped (they could start nothing) still count, as in slurmctld.
Time SlurmScheduler::last_background_pass(Time now) const {
  const Time tick = full_tick_after(now - 1) - config_.sched_interval;
  return std::max(last_background_, std::max(tick, config_.controller_start));
}

bool SlurmScheduler::batch_pass_due(Time now) const {
  return main_request_ != kNoTime && now >= last_background_pass(now) + config_.batch_sched_delay;
}

bool SlurmScheduler::backfill_due(Time now) const {
  return config_.backfill_enabled && change_since_backfill_ != kNoTime &&
         now >= last_backfill_ + config_.bf_interval;
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

// Passes the real controller ran before `now` while the model was not woken (nothing
// waiting): they start nothing but move its clocks.
void SlurmScheduler::catch_up(Time now) {
  if (main_request_ != kNoTime) {
    const Time batch = std::max(main_request_, last_background_pass(main_request_) +
                                                   config_.batch_sched_delay);
    const Time at = std::min(batch, full_tick_after(main_request_ - 1));
    if (at < now) last_background_ = at, main_request_ = kNoTime;
  }
  while (config_.backfill_enabled && change_since_backfill_ != kNoTime) {
    const Time at = std::max(change_since_backfill_, last_backfill_ + config_.bf_interval);
    if (at >= now) break;
    last_backfill_ = at;
    change_since_backfill_ = last_change_ >= at ? last_change_ : kNoTime;
  }
}

void SlurmScheduler::absorb(const SystemView& view, std::span<const Event> events,
                            Decisions& out) {
  for (const Event& e : events) {
    mark_full_dirty(view.now);
    record_change(view.now);
    changed_since_main_ = true;
    if (main_request_ == kNoTime) main_request_ = view.now;  // job_sched_cnt++
    if (e.kind == EventKind::Ended) continue;
    const Job& job = view.job(e.job);
    SelectOptions options;
    options.use_topology = config_.topology;
    options.lowest_top_switch = config_.lowest_top_switch;
    if (!select_nodes(*view.cluster, *idle_, job, options)) {
      out.rejections.push_back(
          {e.job, "Slurm's node selection cannot place this job even on its idle partition"});
      continue;
    }
    priority_.on_submit(e.job, view.now);
    queue_->insert(order_, e.job);
  }
}

void SlurmScheduler::run_main(PassState& s, const SystemView& view) {
  const Time now = view.now;
  const bool full_due = full_dirty_ && now >= next_full_;
  if (!full_due && !batch_pass_due(now)) return;
  // A full pass with nothing changed since a complete main pass would start nothing.
  const bool useful = changed_since_main_ || last_main_truncated_ || !full_due ||
                      main_request_ != kNoTime;
  if (!order_.empty() && useful) {
    const std::size_t depth = full_due ? SIZE_MAX : config_.default_queue_depth;
    const MainPassStats st = run_main_pass(s, order_, partitions_, depth);
    if (st.started > 0) record_change(now);
    last_main_truncated_ = st.truncated;
    changed_since_main_ = false;
    ++main_passes_;
  }
  last_background_ = now;
  main_request_ = kNoTime;
  if (full_due) {
    full_dirty_ = false;
    next_full_ = full_tick_after(now);
  }
}

void SlurmScheduler::run_backfill(PassState& s, const SystemView& view, Decisions& out) {
  const Time now = view.now;
  if (!backfill_due(now)) return;
  std::size_t started = 0;
  if (out.starts.size() < order_.size()) {  // someone is still waiting
    const BackfillStats st = backfill_.run(s, order_, partitions_, view.running);
    started = st.started;
    backfill_tested_ += static_cast<std::int64_t>(st.tested);
    backfill_stopped_early_ += st.stopped_early;
    ++backfill_passes_;
  }
  last_backfill_ = now;
  // A change in the cycle's own second (its starts included) is seen by the next one.
  change_since_backfill_ = last_change_ == now ? now : kNoTime;
  if (started > 0) {
    mark_full_dirty(now);
    changed_since_main_ = true;
    change_since_backfill_ = now;
    last_change_ = now;
  }
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
  *free_ = *view.free;  // reuses the buffer
  PassState s;
  s.cluster = view.cluster;
  s.workload = view.workload;
  s.now = now;
  s.free = &*free_;
  s.starts = &out.starts;
  s.started = &started_;
  s.use_topology = config_.topology;
  s.lowest_top_switch = config_.lowest_top_switch;
  run_main(s, view);
  run_backfill(s, view, out);
}

void SlurmScheduler::forget_started(const std::vector<StartDecision>& starts) {
  if (starts.empty()) return;
  std::erase_if(order_, [&](JobRef j) { return started_[j] != 0; });
  for (const StartDecision& d : starts) started_[d.job] = 0;
}

std::optional<Time> SlurmScheduler::next_wake(const SystemView& view) const {
  if (order_.empty()) return std::nullopt;
  const Time now = view.now;
  Time best = kNoTime;
  if (main_request_ != kNoTime)
    best = std::min(best, std::max(last_background_pass(now + 1) + config_.batch_sched_delay, now + 1));
  if (full_dirty_ && (changed_since_main_ || last_main_truncated_))
    best = std::min(best, std::max(next_full_, now + 1));
  if (change_since_backfill_ != kNoTime && config_.backfill_enabled)
    best = std::min(best, std::max(last_backfill_ + config_.bf_interval, now + 1));
  if (best == kNoTime) return std::nullopt;
  return best;
}

Decisions SlurmScheduler::decide(const SystemView& view, std::span<const Event> events) {
  if (workload_ != view.workload || view.now < last_now_) attach(view);
  last_now_ = view.now;
  Decisions out;
  catch_up(view.now);
  absorb(view, events, out);
  run_passes(view, out);
  forget_started(out.starts);
  out.wake_at = next_wake(view);
  return out;
}

std::unique_ptr<Scheduler> make_slurm_scheduler(const SlurmConfig& config) {
  return std::make_unique<SlurmScheduler>(config);
}

std::unique_ptr<Scheduler> make_slurm_scheduler(Params& params) {
  return make_slurm_scheduler(slurm_config_from(params));
}

}  // namespace hs::slurm
