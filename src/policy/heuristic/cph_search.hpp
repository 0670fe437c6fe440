#pragma once
// First phase of CPH: schedule queued jobs on system-wide aggregated resources (sum of free
// cores, gres and memory over all nodes) minimising total wait, under a deterministic effort
// limit. A schedule is decoded from a job order by list scheduling (each job at the earliest
// time its demand fits the remaining profile for its whole predicted duration); the search
// starts from the submit order and shortest-first, then improves by adjacent swaps and
// moves to the front while evaluations remain.
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
  std::vector<int> order;         // the decoding order that produced it
  std::int64_t total_wait = 0;    // sum of start - submit
  std::int64_t evaluations = 0;   // decodings spent
};

// Start times of the jobs decoded in `order` (list scheduling). Demands above what the
// profile ever offers start at the end of the profile (never reached for valid problems).
std::vector<Time> decode_order(const AggregateProblem& p, const std::vector<int>& order);

// Best schedule found within `effort` decodings (the submit order is always decoded).
AggregateSchedule search_schedule(const AggregateProblem& p, std::int64_t effort);

}  // namespace hs::heuristic
