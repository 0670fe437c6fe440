#pragma once
#include <array>
#include <cstdint>
#include <limits>

namespace hs {

using Time = std::int64_t;       // integer seconds since the workload's origin
using JobRef = std::int32_t;     // dense index of a job in its Workload
using NodeIndex = std::int32_t;  // position of a node in the cluster's 1-D (Slurm) order

inline constexpr Time kNoTime = std::numeric_limits<Time>::max();

// Generic resources (gpu, mic, ...) are indexed by their position in Cluster::gres_types.
// A small fixed bound keeps per-node counts in flat arrays on every hot path.
inline constexpr int kMaxGresTypes = 8;
using GresCounts = std::array<std::int32_t, kMaxGresTypes>;

}  // namespace hs
