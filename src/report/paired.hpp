#pragma once
// Paired comparison of each scheduler against the first one (the baseline), repetition by
// repetition: the repetitions of a comparison use the same seeds in the same order, so the
// per-seed difference removes the workload's own variation (docs/reports.md).
#include <string>
#include <vector>

#include "report/comparison_report.hpp"

namespace hs::report {

struct PairedDifference {
  std::string metric;
  std::string scheduler, baseline;
  std::size_t pairs = 0;
  double mean = 0;                     // mean of scheduler − baseline over the pairs
  double low = 0, high = 0;            // 95 % Student-t interval of that mean (pairs >= 2)
  bool identical_repetitions = false;  // every repetition gave the same value on both sides
};

// Two-sided 97.5 % quantile of Student's t with `df` degrees of freedom (df >= 1).
double t_quantile_975(std::size_t df);

// One entry per metric of `metrics` found in `rows` and per scheduler after the first.
std::vector<PairedDifference> paired_differences(const std::vector<MetricRow>& rows,
                                                 const std::vector<std::string>& schedulers,
                                                 const std::vector<std::string>& metrics);

// "aucsched2 − backfill on wait_mean: −5120 (95 % CI −6010 to −4230, 5 paired seeds):
// significantly lower." — or why no interval can be given.
std::string describe_difference(const PairedDifference& d);

}  // namespace hs::report
