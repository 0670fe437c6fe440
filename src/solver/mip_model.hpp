#pragma once
// A small solver-independent sparse MIP: columns with bounds, integrality and objective;
// rows as sparse linear forms with lower/upper bounds. Used to hand the window problem (or
// a policy's own formulation, e.g. IPSCHED's direct model on a small window) to CBC.
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "solver/window_problem.hpp"

namespace hs::solver {

inline constexpr double kMipInfinity = std::numeric_limits<double>::infinity();

struct MipColumn {
  double lower = 0.0;
  double upper = 1.0;
  bool integer = true;
  double objective = 0.0;
};

struct MipRow {
  std::vector<std::int32_t> columns;  // distinct column indices
  std::vector<double> coefficients;   // same length as columns
  double lower = -kMipInfinity;
  double upper = kMipInfinity;
};

struct MipModel {
  bool maximize = true;
  std::vector<MipColumn> columns;
  std::vector<MipRow> rows;
  // Optional names for LP/MPS files (empty, or one per column / row).
  std::vector<std::string> column_names;
  std::vector<std::string> row_names;
};

struct MipResult {
  CallStatus call = CallStatus::Ok;
  SolveStatus status = SolveStatus::NoSolution;
  std::vector<double> values;  // per column when a solution exists
  double objective = 0.0;
  double bound = 0.0;          // best proven bound in the model's sense
  double gap = 0.0;            // |bound - objective| / max(1, |bound|)
  double seconds = 0.0;
  std::string message;
};

// Structural problems (bad column index, length mismatch, NaN, lower > upper) or nullopt.
std::optional<std::string> find_model_defect(const MipModel& model);

// The window problem as a MIP: one binary per bid (fixed to 0 when the bid cannot fit the
// empty cluster), "at most one bid" rows for jobs with two or more bids, one capacity row
// per (node, dimension) that some bid draws on. Names: column "b<bid>_j<job>", rows
// "job<job>" and "cap_n<node>_d<dimension>".
MipModel window_to_mip(const WindowProblem& problem);

// The model as an LP or MPS file for other solvers, written by COIN-OR's own writers (CBC
// builds only). Both formats state a minimisation: a maximising model is written with its
// objective negated (the file's optimum is minus the model's). nullopt when written, else
// why not (no CBC backend, malformed model, I/O).
enum class MipFileFormat { Lp, Mps };
std::optional<std::string> write_mip_file(const MipModel& model, const std::string& path,
                                          MipFileFormat format);

// Worst violation of rows, bounds and integrality (0 when feasible); a cheap independent
// check for solutions coming back from a backend.
double max_violation(const MipModel& model, const std::vector<double>& values);

// True when this build has the CBC backend.
bool cbc_available();

// Solves with CBC in a forked child process (see docs/solver.md): the child gets
// `time_limit_s` as CBC's own (soft) limit; the parent kills it with SIGKILL at
// time_limit_s + grace_s and then reports NoSolution. A crash of the child is reported
// as call/status Error; the parent never hangs. Without CBC: call/status Error.
MipResult solve_mip_cbc(const MipModel& model, double time_limit_s, double grace_s = -1.0);

}  // namespace hs::solver
