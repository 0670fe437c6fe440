#pragma once
// Node states, advance reservations and partition states of a live Slurm, as
// `scontrol show node|reservation|partition --oneliner` print them. The bridge starts jobs
// only on nodes Slurm would give a new job now, in a partition Slurm schedules.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/types.hpp"

namespace hs::bridge {

struct LiveNode {
  std::string name;
  std::string state;   // e.g. IDLE, MIXED+DRAIN, DOWN*, ALLOCATED+RESERVED
  std::string reason;  // the admin's reason, when drained or down
  std::int32_t cpus_per_core = 1;  // CPUs Slurm counts per core (2: hyperthreads are CPUs)
};

// Why a node cannot take a new job now ("drain", "down", "not responding", ...), or ""
// when it can.
std::string node_unavailable_reason(const LiveNode& node);

std::vector<LiveNode> parse_scontrol_nodes(std::string_view text, const std::string& source);

struct LiveReservation {
  std::string name;
  std::int64_t start_epoch = 0;
  std::int64_t end_epoch = 0;
  std::vector<std::string> nodes;  // expanded host list; empty for node-less reservations
  std::string flags;
};

std::vector<LiveReservation> parse_scontrol_reservations(std::string_view text,
                                                         const std::string& source);

struct LivePartition {
  std::string name;
  std::string state;           // UP, DOWN, DRAIN, INACTIVE
  Time max_time = kNoTime;     // MaxTime; kNoTime: UNLIMITED
  std::int32_t max_nodes = 0;  // MaxNodes a job may use; 0: UNLIMITED
  std::int32_t min_nodes = 0;  // MinNodes a job must use
  std::int32_t max_cpus_per_node = 0;  // MaxCPUsPerNode its jobs together may use on a node; 0: UNLIMITED
  // Its nodes as Slurm lists them now (an operator may move nodes between partitions with
  // `scontrol update PartitionName=... Nodes=...`); nothing: not listed, or ALL.
  std::optional<std::vector<std::string>> nodes;
};

// Why Slurm would start no job of the partition now ("DOWN", "INACTIVE"), or "" when it
// would (UP, and DRAIN, which refuses new jobs but still runs those queued).
std::string partition_closed_reason(const LivePartition& partition);

// Why Slurm leaves a job of the partition pending whatever is free (its reasons
// PartitionTimeLimit and PartitionNodeLimit), or "": its time limit above MaxTime, at least
// more nodes than MaxNodes, or at most fewer than MinNodes. `nodes_max` 0: no upper bound.
std::string partition_limit_reason(const LivePartition& partition, Time time_limit,
                                   std::int32_t nodes_min, std::int32_t nodes_max);

std::vector<LivePartition> parse_scontrol_partitions(std::string_view text, const std::string& source);

}  // namespace hs::bridge
