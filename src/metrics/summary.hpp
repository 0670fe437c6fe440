#pragma once
// Aggregate measures of one simulated run (thesis 7.4, AUCSCHED paper 6.2, Netti et al. 4.1).
// docs/metrics.md gives every formula.
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "model/cluster.hpp"
#include "metrics/fairness.hpp"
#include "model/job.hpp"
#include "sim/simulator.hpp"

namespace hs {

// Mean and population standard deviation (plus range and nearest-rank percentiles) of one
// per-job measure.
struct Stat {
  std::int64_t count = 0;
  double mean = 0;
  double std = 0;
  double min = 0;
  double max = 0;
  double p50 = 0, p95 = 0, p99 = 0;
};
Stat describe(const std::vector<double>& values);

struct Summary {
  // Accounting.
  std::int64_t jobs = 0;
  std::int64_t completed = 0;
  std::int64_t killed = 0;
  std::int64_t rejected = 0;
  std::int64_t stalled = 0;
  // Time frame: first submission to last end of a job that ran.
  Time first_submit = 0;
  Time last_end = 0;
  Time span = 0;
  // Utilization.
  std::int64_t total_cores = 0;
  double theoretical_runtime = 0;  // T_theo = sum t_j * ntasks_j / total cores
  double utilization = 0;          // T_theo / span
  double core_utilization = 0;     // allocated core-seconds / (total cores * span)
  std::vector<std::string> gres_names;
  std::vector<std::int64_t> gres_totals;
  std::vector<double> gres_utilization;  // allocated gres-seconds / (total gres * span)
  // Load ratios: time-weighted mean of used / total over the span, from the usage series.
  double load_ratio_cores = 0;
  std::vector<double> load_ratio_gres;
  std::optional<double> load_ratio_mem;  // only when the cluster models memory
  // Per-job measures over the jobs that ran.
  Stat wait;
  Stat run;
  Stat slowdown;
  Stat bounded_slowdown;
  Stat packing_factor;
  Stat fragmentation;
  Stat spread;
  std::optional<Stat> switch_level;  // only with a switch tree
  Fairness fairness;                 // by user and by job class
  // Queue.
  std::int64_t passes = 0;
  double queue_mean = 0;       // mean pending count over scheduling passes
  std::int64_t queue_max = 0;
  double queue_time_mean = 0;  // time-weighted mean pending count over the span
};

Summary summarize(const Cluster& cluster, const Workload& workload, const SimResult& result);

// The summary as a flat, ordered list of named numbers (summary.csv / summary.json order).
struct SummaryField {
  std::string name;
  double value = 0;
  bool integer = false;
};
std::vector<SummaryField> summary_fields(const Summary& summary);

// Aligned two-column text table.
void print_summary(const Summary& summary, std::ostream& out);

}  // namespace hs
