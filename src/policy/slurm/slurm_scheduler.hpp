#pragma once
// The baseline: Slurm 22.05's own scheduling (main priority pass + sched/backfill +
// select/cons_tres + priority/basic or multifactor), as docs/slurm-model.md describes.
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/request_shape.hpp"
#include "policy/slurm/backfill_pass.hpp"
#include "policy/slurm/pass_state.hpp"
#include "policy/slurm/priority.hpp"
#include "policy/slurm/select.hpp"
#include "policy/slurm/subsecond_clock.hpp"
#include "sim/scheduler.hpp"
#include "util/params.hpp"

namespace hs::slurm {

enum class BackfillMode { Conservative, Easy };

// When the periodic and requested passes run (docs/slurm-model.md, "Pass timing"). Grid:
// the model's original timing, fixed grids from t = 0 (the reproduction tables were made
// with it). Controller: slurmctld's own loops, counted from its start.
enum class ClockMode { Grid, Controller };

struct SlurmConfig {
  BackfillMode mode = BackfillMode::Conservative;
  PriorityType priority = PriorityType::Basic;
  MultifactorConfig multifactor;
  Time sched_interval = 60;          // full main pass period
  Time batch_sched_delay = 3;        // submit-triggered passes at most this often
  std::size_t default_queue_depth = 100;  // jobs an event-triggered main pass tests
  bool backfill_enabled = true;      // false = sched/builtin (strict priority FIFO only)
  Time bf_interval = 30;
  ClockMode clock = ClockMode::Grid;
  // ClockMode::Controller only: when slurmctld started, in seconds after t = 0 (its main
  // loop and backfill agent count from there). -60 puts the full-pass ticks on multiples
  // of sched_interval (60) and lets the first backfill cycle run at t = 0. The wall clock
  // of t = 0 is backfill.epoch (0 = t = 0 on a whole minute, the grid clock's choice).
  Time controller_start = -60;
  // ClockMode::Controller only: the controller's last main pass before t = 0 (slurmctld
  // runs one soon after its start, once its nodes register); batch_sched_delay counts from
  // it. kNoTime = none, the controller's start counts.
  Time startup_pass = kNoTime;
  // ClockMode::Controller only: where in each second its passes run and when a job's end
  // frees its nodes (subsecond_clock.hpp; the default is whole seconds).
  SubsecondClock subsecond;
  // ClockMode::Controller only: the loop checks time limits every this many seconds from
  // its start (PERIODIC_TIMEOUT) and kills a job past its limit there; 0 = at the limit.
  Time limit_check = 30;
  BackfillConfig backfill;           // window, resolution, max_job_test, reserve_depth
  bool topology = true;              // topology/tree when the cluster has switches
  bool lowest_top_switch = false;    // topology_top=lowest: Slurm 2.x's top-switch rule
  bool gres_task_cap = false;        // SelectOptions::gres_task_cap (default: clock=controller)

  // The three flags above as the options every selection starts from.
  SelectOptions select_options() const {
    return {.use_topology = topology, .lowest_top_switch = lowest_top_switch,
            .gres_task_cap = gres_task_cap};
  }
};

// Reads every option (documented through Params' getters) and builds the config.
SlurmConfig slurm_config_from(Params& params);

// Called after every backfill pass with its time and its reservations (the model's side of
// slurmctld's DebugFlags=Backfill "_dump_job_sched" lines; `simulate --dump-plans`).
using PlanObserver = std::function<void(Time now, std::span<const PlannedStart> plan)>;

class SlurmScheduler : public Scheduler {
 public:
  explicit SlurmScheduler(const SlurmConfig& config);
  std::string name() const override;
  // select_nodes honours -C/-x (node_allowed), -w (required nodes first) and --exclusive.
  RequestSupport supports() const override {
    return {.node_mask = true, .required_nodes = true, .exclusive = true, .units = true};
  }
  Decisions decide(const SystemView& view, std::span<const Event> events) override;

  const SlurmConfig& config() const { return config_; }
  // Reservations of the most recent backfill pass (for tests and reports).
  const std::vector<PlannedStart>& last_plan() const { return backfill_.plan(); }
  std::int64_t main_passes() const { return main_passes_; }
  std::int64_t backfill_passes() const { return backfill_passes_; }
  std::int64_t backfill_jobs_tested() const { return backfill_tested_; }
  std::int64_t backfill_stopped_early() const { return backfill_stopped_early_; }
  void observe_plans(PlanObserver observer) { plan_observer_ = std::move(observer); }

 private:
  void attach(const SystemView& view);
  void absorb(const SystemView& view, std::span<const Event> events, Decisions& out);
  void absorb_one(const SystemView& view, const Event& e, Decisions& out);
  // clock=controller: events of this second up to `ms` into it (later_events_).
  void absorb_events_until(const SystemView& view, std::int32_t ms, Decisions& out);
  void run_passes(const SystemView& view, Decisions& out);
  std::optional<Time> next_wake(const SystemView& view) const;
  void forget_started(const std::vector<StartDecision>& starts);
  void follow_workload(const SystemView& view);
  void note_job(const SystemView& view, JobRef job);
  void leave_queue(JobRef job);
  void mark_full_dirty(Time now);
  void record_change(Time now);
  void request_main_pass(Time now, bool ended);
  void request_when_heard(Time now, const Event& end, std::int32_t heard_ms);
  void take_loop_requests(std::int64_t at, Time second);
  void catch_up(Time now);
  // The two clocks, in one place: full-pass ticks, when a requested main pass runs,
  // when the next backfill pass runs.
  Time full_tick_after(Time t) const;
  Time last_background_pass(Time now) const;
  Time main_pass_due(Time now, bool idle) const;
  Time backfill_pass_due() const;
  bool replays_loop(Time now) const;
  void run_main(PassState& s, const SystemView& view);
  void run_backfill(PassState& s, const SystemView& view, std::span<const RunningJob> running,
                    Decisions& out);
  bool fits_idle(const Cluster& cluster, const Job& job);
  // What every selection starts from: the config's flags and the compact node weights.
  SelectOptions select_base() const;
  void sync_free(const SystemView& view);
  // Sub-second timing (clock=controller): jobs that ended in this second but after a pass
  // of it still hold their nodes in that pass.
  // `epilog`: epilog_heard_ms of the end.
  void note_end(const Event& e, Time now, std::int32_t epilog);
  struct Report {                    // when a node's epilog report is taken in, and how
    std::int64_t until_ms;
    bool answered;
  };
  std::int64_t trigger_taken_in(std::int64_t heard, std::int64_t at);
  void note_node_epilogs(const Job& job, const std::vector<NodeIndex>& nodes, std::int64_t end,
                         Report last);
  std::int32_t epilog_heard_ms(const Event& end, Time now) const;
  std::int32_t taken_in_after_send_ms(bool message) const;
  std::int32_t submission_seen_ms(Time now, std::int32_t at_ms) const;
  bool own_rpc_pass(const Event& end, Time now, std::int32_t report_ms) const;
  // COMPLETING nodes (epilog_ms): marked for a pass, held busy through a main pass.
  // Holds the nodes of jobs ended by `ms` whose last epilog report is not in by then (a
  // message's also not by `message_ms`, when later).
  void mark_completing(PassState& s, std::int32_t ms, std::int32_t message_ms = -1);
  void hold_completing(PassState& s, const SystemView& view);
  void release_completing(PassState& s);
  void hold_lingering(PassState& s, const SystemView& view);
  void release_lingering_until(PassState& s, std::int32_t ms);
  void main_pass_at(PassState& s, const SystemView& view, std::int32_t ms, Decisions& out);
  void backfill_pass_at(PassState& s, const SystemView& view, std::int32_t ms, Decisions& out);
  void agent_pass_at(PassState& s, const SystemView& view, std::int32_t ms, Decisions& out);
  void remember_starts(const std::vector<StartDecision>& starts, Time now);
  std::int32_t kill_after_limit_ms(Time start, Time limit) const;

  SlurmConfig config_;
  PriorityModel priority_;
  std::unique_ptr<QueueOrder> queue_;
  BackfillPass backfill_;
  PartitionIndex partitions_;
  std::vector<std::int32_t> weights_;  // per node (SelectOptions::weights)
  GpuBias gpu_bias_;                 // clock=controller: what GPU jobs' tests left (gpu_bias.hpp)
  std::optional<ClusterState> idle_;
  PerShapeCache<bool> fits_idle_;    // select_nodes on idle_, per request shape
  std::optional<ClusterState> free_;   // scratch copy of the free resources for one call
  bool free_synced_ = false;           // free_ holds this call's view.free (sync_free)
  std::vector<JobRef> order_;        // pending jobs in queue order
  std::vector<char> started_;        // per JobRef, scratch for one call
  std::vector<char> queued_;         // per JobRef: in order_
  struct StartedRun {                // sub-second timing only: what a job it started holds
    Time start;
    Time limit_end;
    Allocation alloc;
  };
  struct Lingering {                 // a job that ended in this call's second
    StartedRun run;
    JobRef job;
    std::int32_t end_ms;
    bool held;
  };
  std::unordered_map<JobRef, StartedRun> started_runs_;
  std::vector<Lingering> lingering_;
  struct Completing {                // nodes of a job that ended, until their epilog is done
    std::vector<NodeIndex> nodes;
    std::int64_t end_ms;             // absolute ms (second * 1000 + ms)
    std::int64_t until_ms;
    bool answered;                   // its last report answered the terminate request
  };
  std::vector<Completing> completing_;
  std::vector<std::int64_t> messages_taken_;  // recorded epilog messages, taken in (abs. ms)
  const std::vector<Node>* cluster_nodes_ = nullptr;
  std::unordered_map<std::string, NodeIndex> node_by_name_;  // built for node_epilogs
  NodeBits completing_bits_;
  Allocation completing_hold_;       // what a main pass found free on COMPLETING nodes
  std::vector<RunningJob> running_scratch_;
  std::vector<Event> later_events_;  // this second's events after its start, by their time
  std::vector<std::int64_t> loop_requests_;  // clock=controller: ends not yet heard by the loop (absolute ms)
  std::size_t next_later_ = 0;
  bool main_tick_passed_ = false;    // this second has no main pass left: requests wait
  const Workload* workload_ = nullptr;
  // Every job ends on a whole second and leaves no COMPLETING nodes: no sub-second runs kept.
  bool whole_second_runs_ = true;

  // Pass timing. A submission or an end asks for a main pass (slurmctld's job_sched_cnt);
  // it runs batch_sched_delay after the previous one (the grid clock: an end's at once).
  // Backfill runs bf_interval after its previous pass (the grid clock: on the next tick of
  // a bf_interval grid), once something changed since then.
  Time main_request_ = kNoTime;      // first unserved request for a main pass
  bool ended_since_main_ = false;    // a job end is among the requests
  bool full_dirty_ = false;          // something changed since the last full pass
  bool changed_since_main_ = true;   // a full pass could start something new
  bool last_main_truncated_ = false;
  Time last_background_ = 0;         // last main pass (of the background loop)
  Time next_full_ = 0;
  Time last_backfill_ = 0;           // last backfill cycle (its end: instantaneous here)
  Time change_since_backfill_ = kNoTime;  // first change at or after last_backfill_
  Time last_change_ = kNoTime;
  Time last_now_ = -1;               // a call earlier than this starts a new replay
  std::int64_t main_passes_ = 0;
  std::int64_t backfill_passes_ = 0;
  std::int64_t backfill_tested_ = 0;
  std::int64_t backfill_stopped_early_ = 0;
  PlanObserver plan_observer_;
};

// Sets the observer when `scheduler` is the Slurm model; false otherwise.
bool observe_backfill_plans(Scheduler& scheduler, PlanObserver observer);

std::unique_ptr<Scheduler> make_slurm_scheduler(const SlurmConfig& config);
std::unique_ptr<Scheduler> make_slurm_scheduler(Params& params);

}  // namespace hs::slurm
