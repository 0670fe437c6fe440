#pragma once
// Resources in use over time, rebuilt from the job records (for load ratios and plots).
#include <array>
#include <vector>

#include "model/cluster.hpp"
#include "sim/simulator.hpp"

namespace hs {

// Usage from `time` until the next point's time (the last point is all zero).
struct UsagePoint {
  Time time = 0;
  std::int64_t cores = 0;
  std::array<std::int64_t, kMaxGresTypes> gres{};
  std::int64_t mem_mb = 0;
};

// One point per distinct start/end time of jobs that ran, ascending.
// Cores count as held (Node::held_cores: whole cores where a node's CPUs are threads).
std::vector<UsagePoint> usage_series(const Cluster& cluster, const SimResult& result);

// Time integral of used resources over [from, to] (resource-seconds).
struct UsageIntegral {
  double cores = 0;
  std::array<double, kMaxGresTypes> gres{};
  double mem_mb = 0;
};
UsageIntegral integrate_usage(const std::vector<UsagePoint>& series, Time from, Time to);

}  // namespace hs
