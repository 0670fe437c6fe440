#pragma once
// The LP relaxation of a MipModel held by COIN-OR CLP (built with the CBC backend only):
// column bounds can be changed and the LP re-solved by the dual simplex from the last basis,
// which stays dual feasible after a bound change (the warm start a branch and bound needs).
#include <cstdint>
#include <memory>
#include <vector>

#include "solver/mip_model.hpp"

namespace hs::solver {

class ClpRelaxation {
 public:
  enum class Outcome { Optimal, Infeasible, IterationLimit };

  explicit ClpRelaxation(const MipModel& model);  // integrality is dropped
  ~ClpRelaxation();
  ClpRelaxation(const ClpRelaxation&) = delete;
  ClpRelaxation& operator=(const ClpRelaxation&) = delete;

  // Dual simplex from the current basis, at most `max_iterations` pivots. With a cutoff
  // set, a solve whose objective cannot beat it (in the model's sense) may stop early and
  // report Infeasible.
  Outcome solve(std::int64_t max_iterations);
  void set_cutoff(double objective);
  std::int64_t last_iterations() const;  // pivots of the last solve
  // After an Optimal solve, in the model's sense: objective, column values, and per column
  // the change of the objective per unit increase of the column (reduced cost).
  double objective() const;
  double value(std::int32_t column) const;
  double reduced_cost(std::int32_t column) const;
  // The row's dual value in the model's sense (after any solve; >= 0 for an optimal "≤" row
  // of a maximisation, within CLP's tolerances).
  double row_dual(std::int32_t row) const;

  // The basis: one status per column, then one per row.
  std::vector<unsigned char> basis() const;
  // The next solve starts from `basis` (a branch and bound's warm start for a node taken
  // from its open list); rows added since it was taken start with their slacks basic.
  void set_basis(const std::vector<unsigned char>& basis);

  // Appends rows (e.g. cuts); the basis is kept, the new rows' slacks basic.
  void add_rows(const std::vector<MipRow>& rows);

  std::int32_t columns() const;
  std::int32_t rows() const;
  double lower(std::int32_t column) const;
  double upper(std::int32_t column) const;
  void set_lower(std::int32_t column, double lower);
  void set_upper(std::int32_t column, double upper);
  double row_lower(std::int32_t row) const;
  void set_row_lower(std::int32_t row, double lower);
  double row_upper(std::int32_t row) const;
  void set_row_upper(std::int32_t row, double upper);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hs::solver
