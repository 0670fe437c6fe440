#include "workload/eurora_durations.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "util/error.hpp"

namespace hs {

namespace {

constexpr Time kHour = 3600;
// Fixed band mixtures for the two accelerator classes; the CPU class takes what is left of
// the overall medium/long shares (CPU jobs are the long ones in 004's Table 1).
constexpr double kGpuMedium = 0.015, kGpuLong = 0.001;
constexpr double kMicMedium = 0.20, kMicLong = 0.02;

double log_uniform_mean(double lo, double hi) { return (hi - lo) / std::log(hi / lo); }

// Mean of an exponential with mean m truncated to [0, T).
double truncated_mean(double m, double T) {
  const double e = std::exp(-T / m);
  return m - T * e / (1.0 - e);
}

// The untruncated mean whose truncation at 1 h has the wanted mean (bisection).
double solve_short_mean(double wanted) {
  double lo = 1.0, hi = 1e7;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (truncated_mean(mid, kHour) < wanted ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

[[noreturn]] void bad_target(const std::string& field, double value, const std::string& why) {
  throw InputError({"workload eurora", 0}, field, std::to_string(value), why);
}

}  // namespace

BandBounds band_bounds(DurationBand band) {
  switch (band) {
    case DurationBand::Short:
      return {1, kHour - 1};
    case DurationBand::Medium:
      return {kHour, 5 * kHour};
    default:
      return {5 * kHour + 1, 12 * kHour};
  }
}

EuroraDurationModel::EuroraDurationModel(const EuroraDurationTargets& t) {
  const double total = t.class_share[0] + t.class_share[1] + t.class_share[2];
  const double cpu = t.class_share[0] / total, mic = t.class_share[1] / total,
               gpu = t.class_share[2] / total;
  band_p_[1] = {1 - kMicMedium - kMicLong, kMicMedium, kMicLong};
  band_p_[2] = {1 - kGpuMedium - kGpuLong, kGpuMedium, kGpuLong};
  if (cpu <= 0) bad_target("cpu_share", t.class_share[0], "must be positive");
  const double cpu_medium = (t.medium_share - mic * kMicMedium - gpu * kGpuMedium) / cpu;
  const double cpu_long = (t.long_share - mic * kMicLong - gpu * kGpuLong) / cpu;
  if (cpu_medium < 0 || cpu_long < 0 || cpu_medium + cpu_long >= 1)
    bad_target("medium_share", t.medium_share,
               "cannot be met with the fixed GPU/MIC band mixtures and these class shares");
  band_p_[0] = {1 - cpu_medium - cpu_long, cpu_medium, cpu_long};
  const double medium_mean =
      log_uniform_mean(band_bounds(DurationBand::Medium).lo, band_bounds(DurationBand::Medium).hi);
  const double long_mean =
      log_uniform_mean(band_bounds(DurationBand::Long).lo, band_bounds(DurationBand::Long).hi);
  static const char* const kMeanKeys[] = {"cpu_mean_min", "mic_mean_min", "gpu_mean_min"};
  for (int c = 0; c < 3; ++c) {
    const auto& p = band_p_[c];
    const double short_mean = (t.class_mean_s[c] - p[1] * medium_mean - p[2] * long_mean) / p[0];
    if (short_mean < 10 || short_mean > 0.45 * kHour)
      bad_target(kMeanKeys[c], t.class_mean_s[c] / 60,
                 "is not reachable with this class' medium/long shares");
    short_rate_mean_[c] = solve_short_mean(short_mean);
  }
}

double EuroraDurationModel::band_probability(EuroraClass c, DurationBand b) const {
  return band_p_[static_cast<int>(c)][static_cast<int>(b)];
}

DurationBand EuroraDurationModel::draw_band(EuroraClass c, Rng& rng) const {
  const auto& p = band_p_[static_cast<int>(c)];
  const double u = rng.uniform01();
  if (u < p[0]) return DurationBand::Short;
  return u < p[0] + p[1] ? DurationBand::Medium : DurationBand::Long;
}

Time EuroraDurationModel::draw_in_band(EuroraClass c, DurationBand band, Rng& rng) const {
  const BandBounds b = band_bounds(band);
  double x;
  if (band == DurationBand::Short) {  // inverse CDF of the exponential truncated at 1 h
    const double m = short_rate_mean_[static_cast<int>(c)];
    x = -m * std::log(1.0 - rng.uniform01() * (1.0 - std::exp(-static_cast<double>(kHour) / m)));
  } else {
    x = b.lo * std::exp(rng.uniform01() * std::log(static_cast<double>(b.hi) / b.lo));
  }
  return std::clamp<Time>(std::llround(x), b.lo, b.hi);
}

}  // namespace hs
