#pragma once
// The open window format (docs/window-format.md): one window problem as JSON, with optional
// names for dimensions, nodes and jobs and, for windows saved from a replay, a record of
// what the replay's solver found. One reader and one writer; the reader reports every
// defect as an InputError naming the file, the JSON path of the field and its value.
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "solver/window_problem.hpp"

namespace hs::window_file {

inline constexpr std::string_view kFormatName = "hetsched-window";
inline constexpr int kFormatVersion = 1;

// Where a saved window came from and what the replay's own solve found.
struct ReplayRecord {
  std::int64_t pass = 0;         // 0-based pass index of the replay
  std::int64_t time = 0;         // simulated time of the pass (s)
  std::int32_t solve = 1;        // 1-based solver call within the pass
  std::string scheduler;         // e.g. "aucsched2"
  std::string solver;            // the solver the replay used
  std::int64_t effort_limit = 0; // as the replay passed it (0 = solver default)
  double time_limit_s = 0.0;     // 0 = none (then the solve is deterministic)
  std::int32_t enumerate_bids = 0;  // lagrangian's SolverOptions::enumerate_bids (0 = off)
  std::string status;            // solve status name (solve_status_name)
  double objective = 0.0;
  double bound = 0.0;
};

struct WindowFile {
  solver::WindowProblem problem;
  std::vector<std::string> dimension_names;  // size dims
  std::vector<std::string> node_names;       // empty or size node_count
  std::vector<std::string> job_names;        // empty or size job_count
  std::optional<ReplayRecord> replay;
};

// Parses `text`; `label` (a path) names the input in errors. Throws hs::InputError.
WindowFile parse_window_json(std::string_view text, const std::string& label);
// Reads and parses the file at `path`. Throws hs::InputError (also when unreadable).
WindowFile read_window_file(const std::string& path);

// Writes `file` as JSON: one bid per line, numbers in shortest round-trip form, so a
// written file reads back to an identical problem. Same input -> same bytes.
void write_window_json(std::ostream& out, const WindowFile& file);
// Writes to `path` (via a temporary file and rename). Throws std::runtime_error on I/O failure.
void write_window_file(const std::string& path, const WindowFile& file);

// "optimal", "feasible", "infeasible", "no-solution", "error".
std::string solve_status_name(solver::SolveStatus status);

}  // namespace hs::window_file
