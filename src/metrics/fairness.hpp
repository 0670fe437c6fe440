#pragma once
// How evenly a run treats users and kinds of jobs (docs/metrics.md, "Fairness"): a scheduler
// with a better mean can still serve one user, the GPU jobs or the large jobs far worse.
#include <string>
#include <vector>

#include "model/cluster.hpp"
#include "model/job.hpp"
#include "sim/simulator.hpp"

namespace hs {

// A class of jobs by request: "cpu" (no gres) / "gres" (GPUs or other gres), "small" / "medium" / "large" by
// share of the cluster's cores (see job_size_class).
struct JobClassStat {
  std::string name;
  std::int64_t jobs = 0;  // jobs of the class that ran
  double wait_mean = 0;
  double bounded_slowdown_mean = 0;
};

struct Fairness {
  std::int64_t users = 0;      // distinct users among the jobs that ran
  double user_jain = 1;        // Jain's index of the users' mean bounded slowdowns (1 = even)
  double user_worst_bsld = 0;  // the largest user's mean bounded slowdown
  std::vector<JobClassStat> classes;  // cpu / gres only when the cluster has gres
};

// "small" up to 1/32 of the cluster's cores, "medium" up to 1/4, "large" beyond.
const char* job_size_class(const Job& job, std::int64_t total_cores);

Fairness measure_fairness(const Cluster& cluster, const Workload& workload,
                          const SimResult& result);

}  // namespace hs
