#pragma once
// First phase of CPH: a constraint-based schedule of queued jobs on system-wide aggregated
// resources (sum of free cores, each gres type and memory over all nodes), minimising the
// weighted total wait Σ w·(start − submit), under a deterministic effort limit.
//
// Model: one start-time variable per job, ≥ now; one cumulative constraint per resource
// kind whose capacity is the time-varying profile left by the running jobs (they release
// their resources at their expected ends). Search (`search_schedule`): depth-first branch
// and bound with SetTimes branching — take the eligible job with the smallest earliest
// feasible start and either start it there or postpone it — timetable propagation of the
// cumulative constraints (earliest feasible start of every unscheduled job on the current
// profile), a lower bound from those starts, dominance rules, and the best list schedule
// (`decode_order`) as the first incumbent. See docs/heuristic-policies.md (CPH).
#include <array>
#include <cstdint>
#include <vector>

#include "model/types.hpp"

namespace hs::heuristic {

inline constexpr int kAggregateKinds = 2 + kMaxGresTypes;
using AggregateVector = std::array<std::int64_t, kAggregateKinds>;

struct AggregateJob {
  AggregateVector demand{};
  Time duration = 1;  // predicted
  Time submit = 0;
  std::int64_t weight = 1;  // of this job's wait in the objective
  Time earliest = 0;        // release date: the job starts at max(now, earliest) or later
};

struct AggregateRelease {
  Time time;
  AggregateVector amount{};
};

struct AggregateProblem {
  Time now = 0;
  AggregateVector free_now{};
  std::vector<AggregateRelease> releases;  // running jobs' expected ends
  std::vector<AggregateJob> jobs;          // in submit order
};

struct AggregateSchedule {
  std::vector<Time> start;        // per job of the problem
  std::vector<int> order;         // jobs in the order the search fixed their starts
  std::int64_t total_wait = 0;    // sum of weight * (start - submit)
  std::int64_t evaluations = 0;   // effort spent: search nodes (list decodings count one each)
  std::int64_t root_bound = 0;    // lower bound on total wait at the root
  bool proven_optimal = false;    // the search finished (or met the bound) within the effort
};

// Start times of the jobs decoded in `order` (serial list scheduling: each job at the
// earliest time its demand fits the remaining profile for its whole duration). Demands above
// what the profile ever offers start at the end of the profile (never for valid problems).
std::vector<Time> decode_order(const AggregateProblem& p, const std::vector<int>& order);

// Best schedule found within `effort` search nodes. The problem-order and weighted
// shortest-first (duration / weight) list schedules are the first incumbents, costing one
// unit of effort each; the first is always computed, so `evaluations` is at least 1.
AggregateSchedule search_schedule(const AggregateProblem& p, std::int64_t effort);

}  // namespace hs::heuristic
