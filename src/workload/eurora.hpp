#pragma once
// An Eurora-like workload (Netti et al., 004 §2.1): a month on 64 nodes x 16 cores, half with
// 2 GPUs and half with 2 MICs. Job classes CPU / MIC / GPU and duration bands short / medium /
// long follow 004's Table 1; users repeat job profiles (same name, resources and queue,
// similar durations) in bursty sessions that follow a day-night cycle, so a predictor that
// learns from a user's last job with the same profile has signal. Jobs are k identical units
// (004 §3), written as -n, --ntasks-per-node and --gres per node.
#include <cstdint>
#include <string>
#include <vector>

#include "model/cluster.hpp"
#include "model/job.hpp"
#include "util/params.hpp"
#include "workload/eurora_durations.hpp"

namespace hs {

// The queues the generated jobs are submitted to. 004 names no queues; these are this
// project's assumption (docs/workloads.md). A job's time limit is its queue's max wall time
// (004: users typically give the queue maximum).
struct EuroraQueue {
  std::string name;
  Time default_time;
  Time max_time;
};
const std::vector<EuroraQueue>& eurora_queues();

struct EuroraOptions {
  double days = 30;
  double jobs_per_day = 2600;  // 004's September 2014: 77,786 jobs in 30 days
  double load = 0;             // > 0: draw jobs until offered core-time = load x capacity
  std::int32_t users = 80;
  double session_mean = 4;   // mean jobs per submission session
  double switch_prob = 0.3;  // per session: the profile's duration regime changes
  double night = 0.25;       // night-time submission intensity relative to the day
  EuroraDurationTargets targets;
};

EuroraOptions read_eurora_options(Params& params);
Workload generate_eurora(const EuroraOptions& options, const Cluster& cluster, std::uint64_t seed);

}  // namespace hs
