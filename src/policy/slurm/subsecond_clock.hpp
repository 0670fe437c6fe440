#pragma once
// clock=controller's sub-second timing (docs/slurm-model.md, "Sub-second timing"). Whether a
// pass sees a job's end often depends on fractions of a second: slurmctld's background loop
// ticks about every 1.005 s, so its phase within the second drifts; the backfill agent wakes
// bf_interval after its previous cycle ended, at a phase of its own; and a batch job ends
// (and frees its nodes) about 0.1 s after its start + run time, its start being the moment
// of the pass that started it. The defaults (a tick at the start of every second, backfill
// there too, no end latency) are the whole-second model.
#include <cstdint>
#include <optional>
#include <vector>

#include "model/job.hpp"

namespace hs::slurm {

// A backfill cycle seen in a real run, µs after t = 0.
struct ObservedCycle {
  std::int64_t begin_us = 0;
  std::int64_t end_us = 0;
};

struct SubsecondClock {
  std::int64_t loop_period_us = 1000000;  // the background loop's period
  std::int64_t loop_tick_us = 0;          // one of its ticks, in µs after t = 0
  std::int32_t backfill_ms = 0;           // backfill cycles, ms into their second
  std::int32_t end_latency_ms = 0;        // a job's end after its start + run time
  std::int32_t epilog_ms = 0;             // a job's nodes stay COMPLETING this long after its end
  // A main pass sees a submission only this long after the submit RPC's logged time (the
  // RPC still holds the job write lock): measured between 1 ms (missed) and 7 ms (seen);
  // docs/slurm-lab.md, "A submission a pass just missed".
  static constexpr std::int32_t kSubmitLatencyMs = 4;
  std::int32_t submit_latency_ms = kSubmitLatencyMs;
  // A job's own recorded epilog (a replayed real run) is the time its last node answered
  // the terminate request or sent its epilog completion. A message (its own RPC) is taken
  // in this long later (it waits for the job write lock a running pass holds): passes 0
  // and 1 ms after one missed it, a pass 3 ms after one saw it; docs/slurm-lab.md, "A pass
  // and an epilog in one millisecond". An answer is taken in kAnswerSeenMs after its send.
  static constexpr std::int32_t kEpilogLatencyMs = 2;
  std::int32_t epilog_latency_ms = kEpilogLatencyMs;
  // A node with no step of an ended job left answers the terminate request as already
  // complete, and the controller frees the node at once; but the request's agent asks the
  // loop for a pass only when its watchdog finds every answer in, and the watchdog polls
  // 5, 10, 20, ... ms apart (doubling up to 1 s) from its start, about 1 ms after the end
  // (agent.c, _wdog and _notify_slurmctld_nodes; docs/slurm-lab.md, "The terminate
  // request's watchdog"). Milliseconds after the end at which a last answer the controller
  // took in `taken_in_ms` after it reaches the loop.
  static constexpr std::int32_t kAgentStartMs = 1;
  // The controller has an answer about 1 ms after the node logged its send: the watchdog
  // saw one 5 ms after an end at its first look (burst-v, session 23), not one 6 ms after
  // (staggered-v); a loop pass 1 ms after an answer had its node free (staggered-ii).
  static constexpr std::int32_t kAnswerSeenMs = 1;
  static std::int32_t watchdog_heard_ms(std::int32_t taken_in_ms);
  // Ticks seen in a real run (its main passes, µs after t = 0, ascending). The loop's
  // period varies with its load, so a replay of that run follows them: between two, the
  // ticks are spread evenly (their count rounded from loop_period_us); outside, every
  // loop_period_us. Empty = the straight line through loop_tick_us.
  std::vector<std::int64_t> observed_ticks_us;
  // Whether the loop's default-depth passes are the logged ones (within_logged_loop) or
  // follow the model's requests (option loop_passes).
  bool replay_loop_passes = true;
  // Main passes outside the loop seen in a real run (µs after t = 0, ascending): the
  // scheduling thread woken directly (an epilog completion calls schedule()), neither gated
  // by batch_sched_delay nor restarting it. Empty = none (they cannot be predicted).
  std::vector<std::int64_t> agent_passes_us;
  // Backfill cycles seen in a real run (ascending). A cycle takes real time and the agent
  // sleeps bf_interval from its end, so its phase drifts (and its second moves on when the
  // phase wraps): a cycle in a second with one of these begins at its time, and its end
  // is what the next cycle counts from. Empty = every cycle at backfill_ms, instantaneous.
  std::vector<ObservedCycle> backfill_cycles_us;
  // The loop's full-queue passes seen in a real run (µs after t = 0, ascending). slurmctld
  // runs one at the first tick whose time() is sched_interval after the previous one's, so
  // a second without a tick (or a tick that time() still counts in the previous second)
  // moves all later ones on. Empty = every sched_interval from the controller's start.
  std::vector<std::int64_t> full_passes_us;

  // The loop reads time() for batch_sched_delay a few ms before its pass is logged (it takes
  // the job lock, then wakes the scheduling thread, which logs), so a pass logged just after
  // a whole second can count as run in the second before. A replay sees it where the loop's
  // next observed default-depth pass came batch_sched_delay − 1 seconds later (in the suite
  // after passes logged 1–3 ms and, once, 7 ms into their second; others logged 3–5 ms in
  // counted as their own second): those seconds, found by find_loop_clock_behind, ascending.
  static constexpr std::int64_t kLoopClockLeadUs = 10000;
  // Ticks between observed passes are placed evenly; one placed less than this into its
  // second is taken to have read the second before (passes logged 1-3 ms into theirs did).
  static constexpr std::int32_t kInterpolatedLeadMs = 2;
  std::vector<Time> loop_clock_behind_s;
  void find_loop_clock_behind(Time batch_sched_delay);
  // The second the loop's time() read for its tick in second s.
  Time loop_clock_second(Time s) const;
  // The loop's last logged pass in a second at or before t (observed_ticks_us), as the
  // second its time() read; none before the first.
  std::optional<Time> logged_loop_pass_at_or_before(Time t) const;
  // Whether second s lies within the logged loop passes (from the first to the last) and
  // replay_loop_passes is set: there the loop's default-depth passes run where the log shows
  // them, and only there. A pass is a fact of the log; when it comes depends on sub-ms
  // races (the terminate request's watchdog, the loop's time() read) that the model
  // predicts from the job file only approximately (docs/slurm-lab.md, session 25).
  bool within_logged_loop(Time s) const;
  // The first second after s with a logged loop pass.
  std::optional<Time> next_logged_loop_pass_after(Time s) const;

  bool whole_seconds() const {
    return loop_period_us == 1000000 && loop_tick_us % 1000000 == 0 && backfill_ms == 0 &&
           end_latency_ms == 0 && epilog_ms == 0 && observed_ticks_us.empty() && agent_passes_us.empty() &&
           backfill_cycles_us.empty() && full_passes_us.empty();
  }
  // Milliseconds into second s of the loop's first tick in it; none when the loop's period
  // (longer than a second) steps over s.
  std::optional<std::int32_t> tick_ms(Time s) const;
  // Milliseconds into second s of the first pass outside the loop in it, if any.
  std::optional<std::int32_t> agent_pass_ms(Time s) const;
  // Milliseconds into second s of the first loop pass logged there (observed_ticks_us).
  std::optional<std::int32_t> logged_tick_ms(Time s) const;
  // Whether a pass outside the loop follows ms into second s within kEpilogRpcMs.
  static constexpr std::int64_t kEpilogRpcMs = 100;
  bool agent_pass_soon_after(Time s, std::int32_t ms) const;
  // The first second after s with a pass outside the loop.
  std::optional<Time> next_agent_pass_after(Time s) const;
  // The first full pass after second t, and the last at or before t, from the observed
  // ones (after the last observed: every `interval` from it); none before the first.
  std::optional<Time> observed_full_after(Time t, Time interval) const;
  std::optional<Time> observed_full_at_or_before(Time t, Time interval) const;
  // Milliseconds into second s of the backfill cycle logged there (backfill_cycles_us).
  std::optional<std::int32_t> logged_cycle_ms(Time s) const;
  // Milliseconds into second s of a backfill cycle there: the observed one's, else backfill_ms.
  std::int32_t backfill_cycle_ms(Time s) const;
  // The second the backfill cycle of second s ended in: the observed one's, else s.
  Time backfill_cycle_end(Time s) const;
  // The second a backfill cycle due in second `due` runs in: `due`, or the next second when
  // a cycle was observed there and none in `due`. fidelity.sh floors the controller's start
  // to a whole second, so its agent's wake-ups (start + bf_interval) can fall one second
  // after the model's; the observed cycle puts the model back in phase.
  Time observed_cycle_second(Time due) const;

 private:
  std::optional<std::int32_t> line_tick_ms(Time s) const;
  std::optional<std::int32_t> observed_tick_ms(Time s) const;
  const ObservedCycle* observed_cycle(Time s) const;
};

}  // namespace hs::slurm
