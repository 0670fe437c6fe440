#pragma once
// Deterministic work limit plus an optional wall-clock cap (off unless asked for), so a
// default solve gives the same answer on any machine and under any load.
#include <chrono>
#include <cstdint>

namespace hs::solver {

class Budget {
 public:
  Budget(std::int64_t effort_limit, double time_limit_s);
  std::int64_t& effort() { return effort_; }
  std::int64_t spent() const { return effort_; }
  std::int64_t limit() const { return limit_; }
  // True once the effort limit (or, when set, the wall-clock cap) is reached.
  bool exhausted();
  // True when `cost` more units stay within the effort limit: a step whose cost is known
  // (or bounded) in advance starts only then, so it never takes the solve past the limit.
  bool affordable(std::int64_t cost) const { return cost <= limit_ - effort_; }
  double elapsed_s() const;
  // A budget for a part of the work: `effort_limit` units, and the wall-clock time this one
  // has left (when it has a cap). What the part spends is for the caller to add here.
  Budget part(std::int64_t effort_limit) const;

 private:
  std::int64_t effort_ = 0;
  std::int64_t limit_;
  double time_limit_s_;
  std::chrono::steady_clock::time_point start_;
  int calls_since_clock_ = 0;
  bool timed_out_ = false;
};

}  // namespace hs::solver
