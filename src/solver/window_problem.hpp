#pragma once
// A solver-independent window problem with the one-bid-per-job structure shared by the
// documents' formulations: each job may win at most one of its bids; a bid fixes how much
// of every resource dimension it takes on each node it uses; node capacities bound the sum.
// The solver layer knows nothing of jobs' requests, priorities or topology: policies turn
// those into bid values and node uses.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hs::solver {

inline constexpr int kMaxDims = 10;  // e.g. cores, memory, up to eight gres types
using Amounts = std::array<std::int32_t, kMaxDims>;

struct NodeUse {
  std::int32_t node = 0;
  Amounts amount{};
};

struct Bid {
  std::int32_t job = 0;        // 0 .. job_count-1
  double value = 0.0;          // objective coefficient when the bid wins (> 0)
  std::vector<NodeUse> uses;   // ascending node, no node twice
};

struct WindowProblem {
  std::int32_t job_count = 0;
  std::int32_t node_count = 0;
  std::int32_t dims = 1;
  std::vector<std::int32_t> capacity;  // node_count * dims, row-major by node
  std::vector<Bid> bids;

  std::int32_t cap(std::int32_t node, std::int32_t dim) const {
    return capacity[static_cast<std::size_t>(node) * dims + dim];
  }
};

// Whether the bid fits the window's nodes when nothing else runs on them; a bid that does
// not is valid input but can never win.
inline bool fits_empty_cluster(const WindowProblem& problem, const Bid& bid) {
  for (const NodeUse& use : bid.uses)
    for (std::int32_t d = 0; d < problem.dims; ++d)
      if (use.amount[d] > problem.cap(use.node, d)) return false;
  return true;
}

struct WindowSolution {
  std::vector<std::int32_t> bid_of_job;  // winning bid index per job, -1 = job does not start
  double objective = 0.0;
};

// "Did the call work" (CallStatus) is kept apart from "what did the solve find".
enum class CallStatus { Ok, Error };
enum class SolveStatus {
  Optimal,         // proven optimal (within the stated gap tolerance)
  Feasible,        // a solution, limit reached before proof
  Infeasible,      // cannot happen for this structure (empty solution is feasible); kept for backends
  NoSolution,      // limit reached without any solution
  Error
};

// Where a SolveResult's bound comes from (reported with it; docs/solver.md).
enum class BoundSource : std::uint8_t {
  None,        // no bound was computed (e.g. a malformed problem)
  BestBids,    // every job at its most valuable usable bid (the trivial bound)
  Lagrangian,  // the best Lagrangian dual value
  Search,      // a complete search proved the answer optimal
  Lp,          // the LP relaxation with clique rows and cover cuts (window_lp_bound.hpp)
  Backend,     // the MIP backend's (CBC's) own bound
};

constexpr const char* bound_source_name(BoundSource source) {
  switch (source) {
    case BoundSource::BestBids: return "best-bids";
    case BoundSource::Lagrangian: return "lagrangian";
    case BoundSource::Search: return "search";
    case BoundSource::Lp: return "lp";
    case BoundSource::Backend: return "backend";
    case BoundSource::None: break;
  }
  return "none";
}

struct SolveResult {
  CallStatus call = CallStatus::Ok;
  SolveStatus status = SolveStatus::NoSolution;
  WindowSolution solution;
  double bound = 0.0;          // proven upper bound on the optimum (maximisation)
  double gap = 0.0;            // (bound - objective) / max(1, |bound|)
  BoundSource bound_source = BoundSource::None;
  std::int64_t effort = 0;     // deterministic work units spent
  // Of `effort`, the bound-only steps after the search (lagrangian's lp_bound), which the
  // effort limit does not cover (their own caps do); the search itself keeps the limit.
  std::int64_t bound_effort = 0;
  // Independent parts of the window proven optimal on their own (window_parts.hpp); the
  // window's other jobs were solved together. 0 = solved whole.
  std::int32_t parts = 0;
  double seconds = 0.0;        // wall time, for reporting only
  std::string message;
};

// What the window schedulers and `hetsched solve` pass as SolverOptions::enumerate_bids
// unless told otherwise (docs/solver.md, "Small windows enumerated").
inline constexpr std::int32_t kDefaultEnumerateBids = 64;

struct SolverOptions {
  std::int64_t effort_limit = 0;  // deterministic work units; 0 = solver default
  double time_limit_s = 0.0;      // wall-clock cap; 0 = none (default mode is deterministic)
  std::uint64_t seed = 1;
  // "lagrangian" only: windows of at most this many bids are solved by "exact" instead
  // (LP branch and bound, CLP builds); 0 = off (the default, which keeps every replay).
  std::int32_t exact_bids = 0;
  // "lagrangian" only: windows of at most this many usable bids are first enumerated
  // (enumeration_search.hpp, a small effort cap); when that completes the answer is proven
  // optimal and no Lagrangian work is done. 0 = off.
  std::int32_t enumerate_bids = 0;
  // "lagrangian" only: once the search is over, tighten the bound by more Lagrangian steps
  // and by the window's LP relaxation (CLP builds), and report the smallest. Only the bound,
  // gap and status can change, never the answer; costs CPU time, so off by default
  // (hetsched solve turns it on).
  bool lp_bound = false;
  // "lagrangian" only: a window whose jobs fall into independent parts is solved part by part
  // (window_parts.hpp). On by default; off solves every window whole, as before session 29.
  bool split_parts = true;
  std::int64_t lp_bound_iterations = 0;  // the LP's simplex pivot cap; 0 = its default
};

// Independent check of any solution: one bid per job at most, bid indices valid and
// belonging to the job, no node capacity exceeded, objective equal to the sum of values.
std::optional<std::string> check_solution(const WindowProblem& problem,
                                          const WindowSolution& solution);

// A solver's claims against the window's optimum, known from elsewhere (an exhaustive search
// or CBC): the call worked, the answer passes check_solution, it is not above the optimum,
// the bound is not below it, and an answer called optimal is the optimum. Within 10^-9 of
// the optimum plus the largest bid value. Audits only (bench_solver_audit).
std::optional<std::string> check_claims(const WindowProblem& problem, const SolveResult& result,
                                        double optimum);

class WindowSolver {
 public:
  virtual ~WindowSolver() = default;
  virtual std::string name() const = 0;
  virtual SolveResult solve(const WindowProblem& problem, const SolverOptions& options) = 0;
};

}  // namespace hs::solver
