#pragma once
// Job durations of the Eurora-like workload: per job class (CPU, MIC, GPU) a mixture of three
// bands — short (< 1 h), medium (1-5 h), long (5-12 h) — fitted so that the class means and
// the overall band shares are those of Netti et al. (004, Table 1 and §2.1).
#include <array>
#include <cstdint>

#include "model/types.hpp"
#include "util/rng.hpp"

namespace hs {

enum class EuroraClass { Cpu = 0, Mic = 1, Gpu = 2 };
enum class DurationBand { Short = 0, Medium = 1, Long = 2 };

struct BandBounds {
  Time lo, hi;  // inclusive seconds
};
BandBounds band_bounds(DurationBand band);

struct EuroraDurationTargets {
  std::array<double, 3> class_share{0.228, 0.007, 0.764};  // CPU, MIC, GPU
  std::array<double, 3> class_mean_s{47.6 * 60, 56.47 * 60, 6.38 * 60};
  double medium_share = 0.0610;
  double long_share = 0.0075;
};

class EuroraDurationModel {
 public:
  // Throws InputError when the targets cannot be met by the band mixture (e.g. a class mean
  // too small for its medium/long share).
  explicit EuroraDurationModel(const EuroraDurationTargets& targets);
  DurationBand draw_band(EuroraClass c, Rng& rng) const;
  // A duration inside the band (short: exponential truncated at 1 h with the class' fitted
  // mean; medium and long: log-uniform).
  Time draw_in_band(EuroraClass c, DurationBand band, Rng& rng) const;
  double band_probability(EuroraClass c, DurationBand b) const;
  double short_mean_s(EuroraClass c) const { return short_rate_mean_[static_cast<int>(c)]; }

 private:
  std::array<std::array<double, 3>, 3> band_p_{};  // [class][band]
  std::array<double, 3> short_rate_mean_{};        // untruncated exponential mean per class
};

}  // namespace hs
