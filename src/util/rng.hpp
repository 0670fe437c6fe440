#pragma once
// The project's own seeded generator (xoshiro256** seeded by splitmix64) and the few
// distributions it needs, written out so results are identical on every platform and
// standard library (std:: distributions are implementation-defined).
#include <cstdint>

namespace hs {

class Rng {
 public:
  explicit Rng(std::uint64_t seed);
  std::uint64_t next_u64();
  // Uniform integer in [lo, hi] (inclusive), unbiased.
  std::int64_t uniform_int(std::int64_t lo, std::int64_t hi);
  // Uniform real in [0, 1).
  double uniform01();
  // Normal(mean, stddev) by the Box-Muller transform (one value per call).
  double normal(double mean, double stddev);
  // Exponential with the given mean.
  double exponential(double mean);
  // True with probability p.
  bool bernoulli(double p);

 private:
  std::uint64_t s_[4];
};

}  // namespace hs
