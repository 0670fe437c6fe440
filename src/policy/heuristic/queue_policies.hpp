#pragma once
// The schedulers of Netti et al. §2.2 as passes over a DispatchCore. Each pass only starts
// jobs now; allocation is always the configured allocator's.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "policy/heuristic/dispatch_core.hpp"

namespace hs::heuristic {

// fifo / sjf / prb: try jobs in the policy's order; stop at the first that cannot start
// (AccaSim's simple heuristics) unless skip_unfit (the default for sjf and prb).
struct OrderedOptions {
  bool skip_unfit = false;
  double prb_initial_wait_s = 600;  // expected wait of a queue before any job started from it
};

// Queue orders (ties by submit order).
std::vector<QueuedJob> sjf_order(const DispatchCore& core);
std::vector<QueuedJob> prb_order(const DispatchCore& core, double initial_wait_s);
// PRB's urgency (current wait / expected wait of the queue) and demand
// (predicted duration x sum over kinds of the job's share of the system's capacity).
double prb_urgency(const DispatchCore& core, const QueuedJob& q, double initial_wait_s);
double prb_demand(const DispatchCore& core, const QueuedJob& q);

void schedule_in_order(DispatchCore& core, const std::vector<QueuedJob>& order,
                       const OrderedOptions& opt, Decisions& out);

// EASY backfill: start jobs in submit order until one cannot start; that head job gets a
// reservation at the shadow time (earliest time its units fit, running jobs ending at
// their expected ends) on the nodes the allocator picks then. A later job may start now
// if it ends by the shadow time (by its prediction, or by its limit when bound_by_limit)
// or if it leaves the reserved resources untouched.
struct EasyOptions {
  bool bound_by_limit = false;
};
// What a pass that started nothing leaves for the next (easy_backfill.cpp): its reservation
// and how many queued jobs it tried. Until a job ends or a running job's expected end moves,
// the free state and the reservation stay the same and time only shortens what can end by
// the shadow time, so those jobs would fail again; the next pass tries only newer arrivals.
struct EasyCarry {
  bool valid = false;
  std::size_t tried = 0;  // leading queue entries already tried
  JobRef last_tried = 0;
  bool planned = false;  // else the head's reservation is still to be planned
  Time shadow = kNoTime;
  std::optional<ClusterState> spare;
  Time stable_until = kNoTime;  // the running jobs' expected ends hold before this time
  std::size_t running = 0;      // running jobs and free state of the carried pass
  std::optional<ClusterState> free;
};
void schedule_easy(DispatchCore& core, const EasyOptions& opt, std::span<const Event> events,
                   EasyCarry& carry, Decisions& out);

// CPH: a branch-and-bound schedule on aggregated resources of the `window` most urgent
// queued jobs (PRB order) minimising total wait (cph_search.hpp); the allocator places the
// jobs the schedule starts now, in schedule order; those that do not fit are postponed.
struct CphOptions {
  int window = 256;
  std::int64_t effort = 1000;  // branch-and-bound nodes per pass (cph_search.hpp)
};
void schedule_cph(DispatchCore& core, const CphOptions& opt, Decisions& out);

}  // namespace hs::heuristic
