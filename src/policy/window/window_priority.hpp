#pragma once
// Job priorities the window schedulers read (digest §2).
#include <cstdint>
#include <string>

#include "model/cluster.hpp"
#include "model/job.hpp"

namespace hs::window {

enum class PriorityKind { Basic, Multifactor };

PriorityKind parse_priority_kind(const std::string& text);

// The Slurm model's priority plugins (policy/slurm/priority.hpp), computed at the pass time:
// basic = slurm::basic_priority (FCFS, counting down from 2^32-2); multifactor =
// slurm::multifactor_priority with the documents' weights (age = size, +1 per minute).
std::int64_t job_priority(PriorityKind kind, const Cluster& cluster, const Workload& workload,
                          JobRef ref, Time now);

}  // namespace hs::window
