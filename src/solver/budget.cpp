#include "solver/budget.hpp"

#include <algorithm>

namespace hs::solver {

Budget::Budget(std::int64_t effort_limit, double time_limit_s)
    : limit_(effort_limit), time_limit_s_(time_limit_s), start_(std::chrono::steady_clock::now()) {}

bool Budget::exhausted() {
  if (effort_ >= limit_ || timed_out_) return true;
  if (time_limit_s_ > 0.0) timed_out_ = elapsed_s() >= time_limit_s_;
  return timed_out_;
}

Budget Budget::part(std::int64_t effort_limit) const {
  if (time_limit_s_ <= 0.0) return Budget(effort_limit, 0.0);
  return Budget(effort_limit, std::max(1e-9, time_limit_s_ - elapsed_s()));
}

double Budget::elapsed_s() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

}  // namespace hs::solver
