// slurm_config_from: the Slurm model's options (slurm.conf's scheduling parameters and the
// controller clock's timing, with the times a replayed real run recorded) into SlurmConfig.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "io/text_file.hpp"
#include "policy/slurm/slurm_scheduler.hpp"

namespace hs::slurm {

namespace {

// Rows of times seen in a real run (µs after t = 0): `columns` integers per line, ascending
// by the first; '#' starts a comment. `field` names the column in errors.
struct ObservedRow {
  int line_no;
  std::vector<std::int64_t> times;
};
std::vector<ObservedRow> read_observed_rows(const std::string& path, std::size_t columns,
                                            const std::string& field) {
  std::vector<ObservedRow> rows;
  const std::string text = text::read_text_file(path);
  int line_no = 0;
  for (std::string_view line : text::split_lines(text)) {
    ++line_no;
    line = text::trim(line.substr(0, line.find('#')));
    if (line.empty()) continue;
    const std::vector<std::string_view> cells = text::split_whitespace(line);
    if (cells.size() != columns)
      throw InputError({path, line_no}, field, std::string(line),
                       "expected " + std::to_string(columns) + " time(s) in µs per line");
    ObservedRow row{line_no, {}};
    for (std::string_view cell : cells)
      row.times.push_back(text::parse_int_in(cell, -1000000000000000LL, 1000000000000000LL,
                                             {path, line_no}, field));
    if (!rows.empty() && row.times.front() <= rows.back().times.front())
      throw InputError({path, line_no}, field, std::string(line),
                       "times must be strictly ascending");
    rows.push_back(std::move(row));
  }
  return rows;
}

// loop_ticks=FILE, agent_passes=FILE, full_passes=FILE: one time per line; `field` names
// the time in errors.
std::vector<std::int64_t> read_observed_times(const std::string& path, const std::string& field) {
  std::vector<std::int64_t> ticks;
  for (const ObservedRow& row : read_observed_rows(path, 1, field))
    ticks.push_back(row.times.front());
  return ticks;
}

// backfill_cycles=FILE: a cycle's begin and end per line.
std::vector<ObservedCycle> read_observed_cycles(const std::string& path) {
  std::vector<ObservedCycle> cycles;
  for (const ObservedRow& row : read_observed_rows(path, 2, "backfill cycle")) {
    if (row.times[1] < row.times[0])
      throw InputError({path, row.line_no}, "backfill cycle end", std::to_string(row.times[1]),
                       "the cycle ends before it begins");
    cycles.push_back({row.times[0], row.times[1]});
  }
  return cycles;
}
// mode, priority: which jobs reserve in a backfill pass and the queue's order.
void read_queue_policy(Params& p, SlurmConfig& c) {
  const std::string mode = p.get_choice(
      "mode", "conservative", {"conservative", "easy"},
      "backfill reservations: conservative = every tested job that cannot start reserves "
      "(Slurm's default); easy = only the first bf_reserve_depth jobs per partition (1)");
  c.mode = mode == "easy" ? BackfillMode::Easy : BackfillMode::Conservative;
  const std::string prio = p.get_choice(
      "priority", "basic", {"basic", "multifactor"},
      "priority/basic (FIFO) or priority/multifactor (age + job size, the documents' setting)");
  c.priority = prio == "multifactor" ? PriorityType::Multifactor : PriorityType::Basic;
}

// SchedulerParameters and SchedulerType: how often and how deep the main and backfill passes run.
void read_pass_schedule(Params& p, SlurmConfig& c) {
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
                            "seconds between backfill passes (clock=controller: from the end "
                            "of a cycle to the next)");
}

// clock and, for clock=controller, where the controller's clocks stand at t = 0.
void read_clock(Params& p, SlurmConfig& c) {
  c.clock = p.get_choice(
                "clock", "grid", {"grid", "controller"},
                "pass timing: grid = periodic passes on fixed grids from t = 0, an end's main "
                "pass at once (the reproduction tables'); controller = slurmctld's loops from "
                "controller_start (closer to a real run; fidelity.sh uses it)") == "controller"
                ? ClockMode::Controller
                : ClockMode::Grid;
  c.controller_start = p.get_int(
      "controller_start", -60, -1000000000, 1000000000,
      "clock=controller: seconds after t = 0 at which slurmctld started; its pass clocks "
      "count from there (fidelity.sh passes the real one)");
  const Time startup_pass = p.get_int(
      "startup_pass", 1, -1000000000, 1,
      "clock=controller: second of the controller's last main pass before t = 0; 1 = none, "
      "its start counts (fidelity.sh passes the real one)");
  if (startup_pass <= 0) c.startup_pass = startup_pass;
  c.backfill.epoch = p.get_int(
      "wall_clock", 0, 0, 100000000000LL,
      "clock=controller: Unix time of t = 0; bf_resolution and the will-run 30 s groups "
      "round the wall clock");
}

// clock=controller: the background loop's period and phase, and the backfill cycles' time
// within their second.
void read_loop_timing(Params& p, SubsecondClock& sub) {
  sub.loop_period_us = p.get_int(
      "loop_period_us", 1000000, 500000, 2000000,
      "clock=controller: period of slurmctld's background loop in µs (about 1005000 in "
      "practice; fidelity.sh passes the run's)");
  sub.loop_tick_us = p.get_int(
      "loop_tick_us", 0, -1000000000000LL, 1000000000000LL,
      "clock=controller: time of one tick of that loop, µs after t = 0 (main passes run on "
      "its ticks)");
  sub.backfill_ms = static_cast<std::int32_t>(p.get_int(
      "backfill_ms", 0, 0, 999, "clock=controller: backfill cycles' time within their second"));
}

// clock=controller: the files of pass times a real run recorded, which the passes follow.
void read_observed_passes(Params& p, SubsecondClock& sub) {
  const std::string ticks = p.get_text(
      "loop_ticks", "",
      "clock=controller: file of the loop's ticks seen in a real run (µs after t = 0, one per "
      "line); main passes follow them (fidelity.sh writes it from the run's main passes)");
  if (!ticks.empty()) sub.observed_ticks_us = read_observed_times(ticks, "loop tick");
  sub.replay_loop_passes =
      p.get_choice("loop_passes", "logged", {"logged", "predicted"},
                   "clock=controller with loop_ticks: logged = between the first and the last "
                   "of them the loop runs its default-depth passes where the log shows them, "
                   "and only there (a replay of the run's passes); predicted = where the "
                   "model's own requests and batch_sched_delay put them, the logged ones giving "
                   "only the ticks' phase") == "logged";
  const std::string agent = p.get_text(
      "agent_passes", "",
      "clock=controller: file of main passes outside the loop seen in a real run (µs after "
      "t = 0, one per line): schedule() called directly, as on an epilog completion; not "
      "gated by batch_sched_delay (fidelity.sh writes it from the run)");
  if (!agent.empty()) sub.agent_passes_us = read_observed_times(agent, "agent pass");
  const std::string cycles = p.get_text(
      "backfill_cycles", "",
      "clock=controller: file of the backfill cycles seen in a real run (begin and end, µs "
      "after t = 0, a line each): a cycle in a second with one begins at its time and the "
      "next counts bf_interval from its end (fidelity.sh writes it from the run)");
  if (!cycles.empty()) sub.backfill_cycles_us = read_observed_cycles(cycles);
  const std::string full = p.get_text(
      "full_passes", "",
      "clock=controller: file of the loop's full-queue passes seen in a real run (µs after "
      "t = 0, one per line); later ones every sched_interval from the last (fidelity.sh "
      "writes it from the run)");
  if (!full.empty()) sub.full_passes_us = read_observed_times(full, "full pass");
}

// clock=controller: how long after its run a job's nodes stay busy.
void read_end_delays(Params& p, SubsecondClock& sub) {
  sub.epilog_ms = static_cast<std::int32_t>(p.get_int(
      "epilog_ms", 0, 0, 60000,
      "clock=controller: a job's nodes stay COMPLETING this long after its end (until the "
      "node's epilog completion reaches the controller, about 15 in practice); main passes "
      "leave them out and backfill does not start a job on them"));
  sub.submit_latency_ms = static_cast<std::int32_t>(p.get_int(
      "submit_latency_ms", SubsecondClock::kSubmitLatencyMs, 0, 1000,
      "clock=controller: a main pass sees a submission only this long after the submit RPC's "
      "logged time (the RPC still holds the job lock; a pass 1 ms later missed one, 7 ms "
      "later saw one)"));
  sub.epilog_latency_ms = static_cast<std::int32_t>(p.get_int(
      "epilog_latency_ms", SubsecondClock::kEpilogLatencyMs, 0, 1000,
      "clock=controller: the controller takes in a job's epilog-complete message this long "
      "after the job file's epilog_ms= (the node's send time; passes 0 and 1 ms after one "
      "missed it, a pass 3 ms after one saw it; an answer to the terminate request takes 1 "
      "ms); not added to the option epilog_ms"));
  sub.end_latency_ms = static_cast<std::int32_t>(p.get_int(
      "end_latency_ms", 0, 0, 60000,
      "clock=controller: a job ends (frees its nodes) this long after its start + run time "
      "(about 100 in practice)"));
}

// The options that only clock=controller reads are an error with the grid clock.
void reject_controller_options_on_grid(const Params& p, ClockMode clock) {
  for (const char* key : {"controller_start", "wall_clock", "startup_pass", "loop_period_us",
                          "loop_tick_us", "loop_ticks", "epilog_ms", "limit_check", "kill_wait",
                          "agent_passes", "backfill_cycles", "full_passes", "backfill_ms",
                          "end_latency_ms", "submit_latency_ms", "epilog_latency_ms"})
    if (clock == ClockMode::Grid && p.has(key))
      throw InputError({"<options>", 0}, key, p.values().at(key),
                       "applies to clock=controller only (the grid clock starts at t = 0)");
}

// limit_check, kill_wait: when a job past its time limit is killed, and when backfill
// expects it to end.
void read_time_limit_enforcement(Params& p, SlurmConfig& c) {
  c.limit_check = p.get_int(
      "limit_check", 30, 0, 3600,
      "clock=controller: seconds between slurmctld's time-limit checks (PERIODIC_TIMEOUT, "
      "from its start); a job past its limit runs until the next one. 0 = killed at the "
      "limit");
  c.backfill.kill_wait = p.get_int(
      "kill_wait", 30, 0, 65533,
      "KillWait: backfill expects a running job past its limit to end this long after it");
}

// bf_window, bf_resolution, bf_max_job_test, bf_reserve_depth: one backfill pass's plan.
void read_backfill_planning(Params& p, SlurmConfig& c) {
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
}

// topology, topology_top, gres_task_cap: how a job's nodes and CPUs are selected.
void read_placement(Params& p, SlurmConfig& c) {
  c.topology = p.get_bool("topology", true,
                          "use topology/tree placement when the cluster has switches");
  c.lowest_top_switch =
      p.get_choice("topology_top", "highest", {"highest", "lowest"},
                   "tree top switch: highest with enough nodes (22.05) or lowest that holds "
                   "the job (Slurm 2.x, as in the documents)") == "lowest";
  c.backfill.ties_by_job_id = p.get_bool(
      "will_run_ties_by_id", c.clock == ClockMode::Controller,
      "backfill's will-run test takes running jobs that end together in job id order, as "
      "cons_common does (default on with clock=controller only, so the grid clock's "
      "published replays stay as they are)");
  c.gres_task_cap = p.get_bool(
      "gres_task_cap", c.clock == ClockMode::Controller,
      "count a gres job of one task per node (-n equal to -N, -n 1, or -N 1) as cons_tres "
      "does: as many CPUs per node as tasks there (default on with clock=controller only, "
      "so the grid clock's published replays stay as they are)");
}

// priority/multifactor's period, age cap and weights.
void read_multifactor(Params& p, MultifactorConfig& m) {
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
}
}  // namespace

// The order is kept on purpose: `hetsched list options` lists the options in reading order,
// and the grid clock's check comes before limit_check and kill_wait are read, so a grid run
// given either is told it needs clock=controller, not that its value is out of range.
SlurmConfig slurm_config_from(Params& p) {
  SlurmConfig c;
  read_queue_policy(p, c);
  read_pass_schedule(p, c);
  read_clock(p, c);
  read_loop_timing(p, c.subsecond);
  read_observed_passes(p, c.subsecond);
  c.subsecond.find_loop_clock_behind(c.batch_sched_delay);
  read_end_delays(p, c.subsecond);
  reject_controller_options_on_grid(p, c.clock);
  read_time_limit_enforcement(p, c);
  read_backfill_planning(p, c);
  read_placement(p, c);
  read_multifactor(p, c.multifactor);
  return c;
}

}  // namespace hs::slurm
