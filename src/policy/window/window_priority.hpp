#pragma once
// Job priorities the window schedulers read (digest §2). Local to this area: a Slurm
// priority module, when present, models the same two plugins in more detail.
#include <cstdint>
#include <string>

#include "model/cluster.hpp"
#include "model/job.hpp"

namespace hs::window {

enum class PriorityKind { Basic, Multifactor };

PriorityKind parse_priority_kind(const std::string& text);

// basic: FCFS, the first submitted job gets 10^9, each later one one less (floor 1).
// multifactor: 1 + minutes waited (capped at 7 days = 10080) + 10080 * cores / cluster cores,
//   i.e. age weight = size weight, +1 per minute waited, larger jobs higher.
std::int64_t job_priority(PriorityKind kind, const Cluster& cluster, const Workload& workload,
                          JobRef ref, Time now);

}  // namespace hs::window
