#pragma once
// Lagrangian relaxation of the node-capacity rows. With multiplier mu_e >= 0 per capacity
// row e (node n, dimension d, capacity C_e), scaled so the row reads sum a/C x <= 1, the
// relaxed problem separates by job: each job takes its bid of largest reduced value
// v_b - sum_e a_be * mu_e / C_e, or nothing when that is <= 0, and
//   L(mu) = sum_e mu_e + sum_j max(0, best reduced value of j)
// bounds the optimum from above for every mu >= 0. Multipliers move by projected
// subgradient steps of Polyak length theta * (L - best known objective) / |g|^2.
#include <cstdint>
#include <vector>

#include "solver/compact_problem.hpp"

namespace hs::solver {

class LagrangianDual {
 public:
  LagrangianDual(const CompactProblem& problem, std::int64_t& effort);
  // Evaluates L at the current multipliers; fills reduced values and the relaxed choice.
  double evaluate();
  // One subgradient step; false when the relaxed choice satisfies every row with equality
  // where priced (the subgradient vanishes).
  bool step(double distance_to_target, double theta);
  const std::vector<double>& reduced() const { return reduced_; }
  const std::vector<double>& lambda() const { return lambda_; }
  // Running average over evaluations of how often each bid was the relaxed choice: a cheap
  // estimate of the LP relaxation's primal solution (ergodic primal recovery).
  const std::vector<double>& average_choice() const { return average_; }
  // The multipliers per priced row: a snapshot smaller than lambda() from which
  // lambda_of() rebuilds lambda() exactly (same division, zero off the priced rows).
  const std::vector<double>& multipliers() const { return mu_; }
  std::vector<double> lambda_of(const std::vector<double>& multipliers) const;
  // Restarts from a snapshot taken by multipliers().
  void set_multipliers(const std::vector<double>& multipliers);

 private:
  const CompactProblem& problem_;
  std::int64_t* effort_;
  std::vector<std::int32_t> rows_;     // capacity rows some usable bid draws on
  std::vector<double> mu_;             // per entry of rows_
  std::vector<double> lambda_;         // nodes * dims: mu / C, zero off rows_
  std::vector<double> usage_;          // nodes * dims scratch
  std::vector<double> slope_;          // per entry of rows_, scratch
  std::vector<double> reduced_;        // per bid
  std::vector<std::int32_t> choice_;   // per job, -1 = none
  std::vector<double> average_;        // per bid
  std::int64_t evaluations_ = 0;
};

}  // namespace hs::solver
