#include "solver/cbc/cbc_direct.hpp"

#include <Cbc_C_Interface.h>
#include <CoinLpIO.hpp>
#include <CoinMpsIO.hpp>
#include <CoinPackedMatrix.hpp>

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>

namespace hs::solver {

namespace {

// Column-major (CSC) copy of the rows, as Cbc_loadProblem wants it.
struct ColumnMajor {
  std::vector<CoinBigIndex> start;
  std::vector<int> index;
  std::vector<double> value;
};

ColumnMajor to_column_major(const MipModel& model) {
  ColumnMajor m;
  m.start.assign(model.columns.size() + 1, 0);
  for (const MipRow& row : model.rows)
    for (std::int32_t c : row.columns) ++m.start[c + 1];
  for (std::size_t c = 0; c < model.columns.size(); ++c) m.start[c + 1] += m.start[c];
  m.index.resize(m.start.back());
  m.value.resize(m.start.back());
  std::vector<CoinBigIndex> fill(m.start.begin(), m.start.end() - 1);
  for (std::size_t r = 0; r < model.rows.size(); ++r)
    for (std::size_t k = 0; k < model.rows[r].columns.size(); ++k) {
      const CoinBigIndex at = fill[model.rows[r].columns[k]]++;
      m.index[at] = static_cast<int>(r);
      m.value[at] = model.rows[r].coefficients[k];
    }
  return m;
}

double finite_or_huge(double v) {
  if (v == kMipInfinity) return DBL_MAX;
  if (v == -kMipInfinity) return -DBL_MAX;
  return v;
}

void load(Cbc_Model* cbc, const MipModel& model) {
  const ColumnMajor m = to_column_major(model);
  std::vector<double> col_lb, col_ub, obj, row_lb, row_ub;
  for (const MipColumn& c : model.columns) {
    col_lb.push_back(finite_or_huge(c.lower));
    col_ub.push_back(finite_or_huge(c.upper));
    obj.push_back(c.objective);
  }
  for (const MipRow& r : model.rows) {
    row_lb.push_back(finite_or_huge(r.lower));
    row_ub.push_back(finite_or_huge(r.upper));
  }
  Cbc_loadProblem(cbc, static_cast<int>(model.columns.size()), static_cast<int>(model.rows.size()),
                  m.start.data(), m.index.data(), m.value.data(), col_lb.data(), col_ub.data(),
                  obj.data(), row_lb.data(), row_ub.data());
  for (std::size_t c = 0; c < model.columns.size(); ++c)
    if (model.columns[c].integer) Cbc_setInteger(cbc, static_cast<int>(c));
  Cbc_setObjSense(cbc, model.maximize ? -1.0 : 1.0);
  for (std::size_t c = 0; c < model.column_names.size(); ++c)
    Cbc_setColName(cbc, static_cast<int>(c), model.column_names[c].c_str());
  for (std::size_t r = 0; r < model.row_names.size(); ++r)
    Cbc_setRowName(cbc, static_cast<int>(r), model.row_names[r].c_str());
}

// CBC prunes a node that cannot beat its incumbent by its cutoff increment. With CBC's
// default it proved "optimal" a window answer 6 x 10^-6 below the optimum (values near 1,
// preferences of 10^-3 and finer; docs/solver.md, "CBC backend"). So the increment is set
// relative to the largest objective coefficient, as window solutions are checked (1e-9).
std::string cutoff_increment(const MipModel& model) {
  double largest = 0.0;
  for (const MipColumn& c : model.columns) largest = std::max(largest, std::fabs(c.objective));
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", 1e-9 * largest);
  return text;
}

// `timed_out`: the solve ran for its whole time limit.
void read_answer(Cbc_Model* cbc, const MipModel& model, bool timed_out, MipResult& result) {
  const bool has_solution = Cbc_numberSavedSolutions(cbc) > 0 || Cbc_isProvenOptimal(cbc);
  if (Cbc_isProvenOptimal(cbc)) {
    result.status = SolveStatus::Optimal;
  } else if (Cbc_isProvenInfeasible(cbc) && !timed_out) {
    // CBC whose time limit ends its first LP solve says "finished, LP infeasible" (seen on
    // windows, which always have a solution, at limits of 10-30 ms): only a solve that ended
    // within its limit proves infeasibility.
    result.status = SolveStatus::Infeasible;
  } else {
    result.status = has_solution ? SolveStatus::Feasible : SolveStatus::NoSolution;
  }
  if (has_solution && result.status != SolveStatus::Infeasible) {
    const double* x = Cbc_getColSolution(cbc);
    result.values.assign(x, x + model.columns.size());
    result.objective = Cbc_getObjValue(cbc);
  }
  result.bound = Cbc_getBestPossibleObjValue(cbc);
  if (result.status == SolveStatus::Optimal) result.bound = result.objective;
  result.gap = std::fabs(result.bound - result.objective) / std::max(1.0, std::fabs(result.bound));
}

}  // namespace

MipResult solve_mip_cbc_in_process(const MipModel& model, double time_limit_s) {
  const auto start = std::chrono::steady_clock::now();
  MipResult result;
  Cbc_Model* cbc = Cbc_newModel();
  load(cbc, model);
  Cbc_setLogLevel(cbc, 0);
  if (time_limit_s > 0.0) Cbc_setMaximumSeconds(cbc, time_limit_s);
  Cbc_setParameter(cbc, "threads", "1");
  Cbc_setParameter(cbc, "increment", cutoff_increment(model).c_str());
  Cbc_solve(cbc);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  read_answer(cbc, model, time_limit_s > 0.0 && result.seconds >= time_limit_s, result);
  Cbc_deleteModel(cbc);
  return result;
}

}  // namespace hs::solver

namespace hs::solver {

namespace {

// The model in the form COIN-OR's file writers take: a column-ordered matrix, bounds and an
// objective to minimise (a maximisation is written as the minimisation of its negation).
struct CoinForm {
  CoinPackedMatrix matrix;
  std::vector<double> col_lb, col_ub, obj, row_lb, row_ub;
  std::vector<char> integer;
};

CoinForm coin_form(const MipModel& model) {
  CoinForm f;
  const ColumnMajor m = to_column_major(model);
  std::vector<int> lengths;
  for (std::size_t c = 0; c < model.columns.size(); ++c)
    lengths.push_back(static_cast<int>(m.start[c + 1] - m.start[c]));
  f.matrix = CoinPackedMatrix(true, static_cast<int>(model.rows.size()),
                              static_cast<int>(model.columns.size()), m.start.back(),
                              m.value.data(), m.index.data(), m.start.data(), lengths.data());
  for (const MipColumn& c : model.columns) {
    f.col_lb.push_back(finite_or_huge(c.lower));
    f.col_ub.push_back(finite_or_huge(c.upper));
    f.obj.push_back(model.maximize ? -c.objective : c.objective);
    f.integer.push_back(c.integer ? 1 : 0);
  }
  for (const MipRow& r : model.rows) {
    f.row_lb.push_back(finite_or_huge(r.lower));
    f.row_ub.push_back(finite_or_huge(r.upper));
  }
  return f;
}

std::vector<std::string> names_or_default(const std::vector<std::string>& names, std::size_t n,
                                          const char* prefix) {
  if (names.size() == n) return names;
  std::vector<std::string> out;
  for (std::size_t i = 0; i < n; ++i) out.push_back(prefix + std::to_string(i));
  return out;
}

bool write_mps(const MipModel& model, const CoinForm& f, const std::string& path) {
  CoinMpsIO writer;
  writer.messageHandler()->setLogLevel(0);
  // The C-string overload: CoinUtils 2.11's std::vector<std::string> one leaks its arrays.
  const std::vector<std::string> cols = names_or_default(model.column_names, model.columns.size(), "x");
  const std::vector<std::string> rows = names_or_default(model.row_names, model.rows.size(), "r");
  std::vector<const char*> col_ptrs, row_ptrs;
  for (const std::string& n : cols) col_ptrs.push_back(n.c_str());
  for (const std::string& n : rows) row_ptrs.push_back(n.c_str());
  writer.setMpsData(f.matrix, DBL_MAX, f.col_lb.data(), f.col_ub.data(), f.obj.data(),
                    f.integer.data(), f.row_lb.data(), f.row_ub.data(), col_ptrs.data(),
                    row_ptrs.data());
  return writer.writeMps(path.c_str(), 0, 1) == 0;  // uncompressed, extra accuracy
}

bool write_lp(const MipModel& model, const CoinForm& f, const std::string& path) {
  CoinLpIO writer;
  writer.messageHandler()->setLogLevel(0);
  writer.setLpDataWithoutRowAndColNames(f.matrix, f.col_lb.data(), f.col_ub.data(), f.obj.data(),
                                        f.integer.data(), f.row_lb.data(), f.row_ub.data());
  std::vector<std::string> rows = names_or_default(model.row_names, model.rows.size(), "r");
  rows.push_back("value");
  const std::vector<std::string> cols = names_or_default(model.column_names, model.columns.size(), "x");
  std::vector<const char*> row_ptrs, col_ptrs;
  for (const std::string& n : rows) row_ptrs.push_back(n.c_str());
  for (const std::string& n : cols) col_ptrs.push_back(n.c_str());
  writer.setLpDataRowAndColNames(row_ptrs.data(), col_ptrs.data());
  constexpr int kAcross = 8, kDecimals = 15;
  return writer.writeLp(path.c_str(), 1e-12, kAcross, kDecimals, true) == 0;
}

}  // namespace

bool write_mip_file_with_cbc(const MipModel& model, const std::string& path, MipFileFormat format) {
  const CoinForm form = coin_form(model);
  return format == MipFileFormat::Lp ? write_lp(model, form, path) : write_mps(model, form, path);
}

}  // namespace hs::solver
