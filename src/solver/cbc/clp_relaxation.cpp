#include "solver/cbc/clp_relaxation.hpp"

#include "solver/cbc/coin_matrix.hpp"

#include <ClpSimplex.hpp>
#include <CoinPackedMatrix.hpp>

#include <algorithm>
#include <cmath>

namespace hs::solver {

namespace {

// ClpModel::whatsChanged()'s bit for "the basis is the one last solved from" (the user's to
// clear).
constexpr int kBasisSame = 512;
// CLP's tolerances are absolute (a reduced cost of 1e-7 counts as nonzero); window values run
// to 2^32 and more per job, so that rounding alone exceeds them, and the dual simplex kept
// shifting costs and cleaning up with the primal simplex. The objective is scaled by a power
// of two (exact) to put its largest coefficient near this value, as CLP's own automatic
// scaling does for the dual simplex (with the set-up kept between solves, a window captured
// from an AUCSCHED3 replay took a quarter fewer instructions; docs/solver.md, "CLP's
// set-up and the objective's scale").
constexpr double kLargestScaledCost = 1e6;

// The power of two that brings the largest of `costs` nearest kLargestScaledCost, when they
// are larger (smaller costs are left as they are).
double objective_scale(const std::vector<double>& costs) {
  double largest = 0.0;
  for (double c : costs) largest = std::max(largest, std::fabs(c));
  const long halvings = largest > 0.0 ? std::lround(std::log2(largest / kLargestScaledCost)) : 0;
  return halvings > 0 ? std::ldexp(1.0, -static_cast<int>(halvings)) : 1.0;
}

}  // namespace

// CLP minimises here; a maximising model is loaded with its objective negated, so `sign`
// turns CLP's objective and reduced costs back into the model's sense.
struct ClpRelaxation::Impl {
  ClpSimplex lp;
  double sign = 1.0;
  bool solved = false;  // a solve has left its work areas for the next
  std::int64_t iterations = 0;  // pivots of the last solve, a retry's included
};

ClpRelaxation::ClpRelaxation(const MipModel& model) : impl_(std::make_unique<Impl>()) {
  impl_->sign = model.maximize ? -1.0 : 1.0;
  const CoinArrays a = coin_arrays(model, impl_->sign);
  impl_->lp.setLogLevel(0);
  impl_->lp.setObjectiveScale(objective_scale(a.obj));
  impl_->lp.loadProblem(row_matrix(model), a.col_lb.data(), a.col_ub.data(), a.obj.data(),
                        a.row_lb.data(), a.row_ub.data());
}

ClpRelaxation::~ClpRelaxation() = default;

ClpRelaxation::Outcome ClpRelaxation::solve(std::int64_t max_iterations) {
  ClpSimplex& lp = impl_->lp;
  lp.setMaximumIterations(static_cast<int>(std::min<std::int64_t>(max_iterations, 1 << 30)));
  // Keep work areas and factorization between solves (1), reuse the factorization (2) and
  // skip the set-up of the work areas, scaling and row copy (4). CLP honours 2 and 4 only
  // where its record of what changed allows: changed bounds keep both, added rows neither,
  // and set_basis marks the basis as changed so that the factorization is redone.
  lp.dual(0, impl_->solved ? 7 : 1);
  impl_->solved = true;
  impl_->iterations = lp.numberIterations();
  if (lp.status() == 0) return Outcome::Optimal;
  if (lp.status() == 1) return Outcome::Infeasible;
  if (lp.status() == 3) return Outcome::IterationLimit;
  // Numerical trouble (rare on these 0/1 models): start over from a slack basis, with
  // what is left of the pivot limit.
  const std::int64_t left = max_iterations - impl_->iterations;
  if (left <= 0) return Outcome::IterationLimit;
  lp.setMaximumIterations(static_cast<int>(std::min<std::int64_t>(left, 1 << 30)));
  lp.allSlackBasis(true);
  lp.dual(0, 1);
  impl_->iterations += lp.numberIterations();
  if (lp.status() == 0) return Outcome::Optimal;
  if (lp.status() == 1) return Outcome::Infeasible;
  return Outcome::IterationLimit;
}

void ClpRelaxation::set_cutoff(double objective) {
  impl_->lp.setDualObjectiveLimit(impl_->sign * objective);
}

void ClpRelaxation::add_rows(const std::vector<MipRow>& rows) {
  if (rows.empty()) return;
  std::vector<CoinBigIndex> starts{0};
  std::vector<int> columns;
  std::vector<double> elements, lower, upper;
  for (const MipRow& r : rows) {
    columns.insert(columns.end(), r.columns.begin(), r.columns.end());
    elements.insert(elements.end(), r.coefficients.begin(), r.coefficients.end());
    starts.push_back(static_cast<CoinBigIndex>(columns.size()));
    lower.push_back(to_coin_bound(r.lower));
    upper.push_back(to_coin_bound(r.upper));
  }
  impl_->lp.addRows(static_cast<int>(rows.size()), lower.data(), upper.data(), starts.data(),
                    columns.data(), elements.data());
}

std::vector<unsigned char> ClpRelaxation::basis() const {
  const ClpSimplex& lp = impl_->lp;
  const unsigned char* status = lp.statusArray();
  const std::size_t n = static_cast<std::size_t>(lp.numberColumns() + lp.numberRows());
  if (status == nullptr) return {};
  return {status, status + n};
}

void ClpRelaxation::set_basis(const std::vector<unsigned char>& basis) {
  ClpSimplex& lp = impl_->lp;
  const std::size_t n = static_cast<std::size_t>(lp.numberColumns() + lp.numberRows());
  if (basis.empty() || basis.size() > n) return;
  std::vector<unsigned char> status(n, static_cast<unsigned char>(ClpSimplex::basic));
  std::copy(basis.begin(), basis.end(), status.begin());
  lp.copyinStatus(status.data());
  lp.setWhatsChanged(lp.whatsChanged() & ~kBasisSame);  // the factorization is of another basis
}

std::int64_t ClpRelaxation::last_iterations() const { return impl_->iterations; }
double ClpRelaxation::objective() const { return impl_->sign * impl_->lp.objectiveValue(); }
double ClpRelaxation::value(std::int32_t c) const { return impl_->lp.primalColumnSolution()[c]; }
double ClpRelaxation::reduced_cost(std::int32_t c) const {
  return impl_->sign * impl_->lp.dualColumnSolution()[c];
}
double ClpRelaxation::row_dual(std::int32_t r) const {
  return impl_->sign * impl_->lp.dualRowSolution()[r];
}
std::int32_t ClpRelaxation::columns() const { return impl_->lp.numberColumns(); }
std::int32_t ClpRelaxation::rows() const { return impl_->lp.numberRows(); }
double ClpRelaxation::lower(std::int32_t c) const { return impl_->lp.columnLower()[c]; }
double ClpRelaxation::upper(std::int32_t c) const { return impl_->lp.columnUpper()[c]; }
void ClpRelaxation::set_lower(std::int32_t c, double v) { impl_->lp.setColumnLower(c, v); }
void ClpRelaxation::set_upper(std::int32_t c, double v) { impl_->lp.setColumnUpper(c, v); }
double ClpRelaxation::row_lower(std::int32_t r) const {
  return from_coin_bound(impl_->lp.rowLower()[r]);
}
void ClpRelaxation::set_row_lower(std::int32_t r, double v) {
  impl_->lp.setRowLower(r, to_coin_bound(v));
}
double ClpRelaxation::row_upper(std::int32_t r) const {
  return from_coin_bound(impl_->lp.rowUpper()[r]);
}
void ClpRelaxation::set_row_upper(std::int32_t r, double v) {
  impl_->lp.setRowUpper(r, to_coin_bound(v));
}

}  // namespace hs::solver
