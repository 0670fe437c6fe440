#pragma once
// One window-scheduling pass shared by the four models: take the window, generate bids (or
// IPSCHED columns), value them, solve, verify, start. The models differ only in the config.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "policy/window/auction_bids.hpp"
#include "policy/window/candidate.hpp"
#include "policy/window/problem_builder.hpp"
#include "policy/window/reservation.hpp"
#include "policy/window/window_job.hpp"
#include "policy/window/window_priority.hpp"
#include "policy/window/window_schedulers.hpp"
#include "solver/window_problem.hpp"

namespace hs::window {

enum class Model { Ipsched, Aucsched1, Aucsched2, Aucsched3 };
enum class Weighting { Alpha, Lexicographic };
enum class IpObjective { Priority, PriorityCores };
enum class Starvation { None, Reserve };

struct WindowConfig {
  Model model = Model::Aucsched1;
  Time interval = 5;
  int window = 200;
  int max_bids_per_job = 15;
  int max_bids = 150;
  IpObjective objective = IpObjective::PriorityCores;
  PriorityKind priority = PriorityKind::Basic;
  Weighting weighting = Weighting::Alpha;
  std::string solver = "lagrangian";
  std::int64_t solver_effort = 0;
  std::int32_t solver_exact_bids = 0;  // SolverOptions::exact_bids
  std::int32_t solver_enumerate_bids = 0;  // SolverOptions::enumerate_bids
  bool solver_lp_bound = false;        // SolverOptions::lp_bound
  double solver_time_limit = 0.0;
  Starvation starvation = Starvation::Reserve;  // the documents: None
  Time starvation_wait = 0;  // reserve: the top job's wait before it gets the reservation
  // reserve, top job fits now: one solve in which it must start (true), or a solve without
  // the reservation kept only if it starts the top job, else one with it (false)
  bool top_must_start = false;    // the factory's default: true for IPSCHED
  double fits_now_effort = 1.0;   // two solves: the first's share of the effort limit
  bool slurm_bids = true;          // AUCSCHED1
  int pricing_rounds = 3;          // IPSCHED
  int repack_losers = 8;           // IPSCHED: losers tried in pairwise repacking per round
  int repack_pairs = 128;          // IPSCHED: most (loser, winner) pairs per round
  bool exhaustive_columns = false; // IPSCHED: enumerate every column (tiny instances)
  std::int64_t exhaustive_cap = 20000;
  bool skip_repeated_passes = true; // an idle pass with the last idle pass's inputs is skipped
  bool strict_timeout = false;     // IPSCHED: an unproven solution at the limit also times out
};

class WindowScheduler : public Scheduler {
 public:
  WindowScheduler(std::string name, WindowConfig config);
  std::string name() const override { return name_; }
  // Every candidate node set is drawn inside hs::job_node_mask (partition, -C, -x).
  RequestSupport supports() const override { return {.node_mask = true}; }
  Decisions decide(const SystemView& view, std::span<const Event> events) override;
  const std::vector<PassStats>& stats() const { return stats_; }
  std::vector<PassStats> take_stats() { return std::exchange(stats_, {}); }
  const WindowConfig& config() const { return config_; }
  // Called with every window problem before it is solved (for offline solver studies,
  // e.g. bench_captured_windows); decisions are unaffected.
  using ProblemObserver = std::function<void(const solver::WindowProblem&)>;
  void observe_problems(ProblemObserver observer) { observer_ = std::move(observer); }
  // Called after every solver call with the problem and the solver's answer.
  void observe_solves(SolveObserver observer) { solve_observer_ = std::move(observer); }

 private:
  struct Pass;
  // Everything a pass's outcome depends on: bids and solves are pure functions of it.
  struct PassKey {
    std::vector<std::pair<JobRef, std::int64_t>> window;  // job and priority, in window order
    FreeArrays free;
    std::vector<char> holds;
    std::optional<std::pair<int, Time>> reservation;  // slot and start
    FreeArrays reservation_spare;
    bool operator==(const PassKey&) const = default;
  };
  static PassKey key_of(const Pass& pass);
  static bool repeats(const PassKey& key, const Pass& pass);  // key == key_of(pass), no copy
  Time key_changes_at(const Pass& pass) const;
  Time guard_due_at(const Pass& pass) const;
  Time first_tick_at_or_after(Time t) const;
  void run_pass(const SystemView& view, Decisions& out);
  std::vector<WindowJob> take_window(const SystemView& view) const;
  std::vector<Candidate> auction_bids(const Pass& pass);
  std::vector<double> values(const Pass& pass, const std::vector<Candidate>& cands) const;
  solver::SolveResult solve(const Pass& pass, const std::vector<Candidate>& cands,
                            const std::vector<double>& vals, PassStats& stats);
  std::int64_t first_solve_effort() const;
  static double must_start_bonus(const Pass& pass, const std::vector<Candidate>& cands,
                                 const std::vector<double>& vals);
  std::vector<Candidate> solve_model(const Pass& pass, PassStats& stats);
  std::vector<Candidate> solve_guarded(Pass& pass, PassStats& stats);
  std::vector<Candidate> solve_auction(const Pass& pass, PassStats& stats);
  std::vector<Candidate> solve_ipsched(const Pass& pass, PassStats& stats);
  bool limit_hit(const solver::SolveResult& r) const;
  void report_solve(const Pass& pass, const solver::WindowProblem& problem,
                    const solver::SolveResult& result, const PassStats& stats) const;

  std::string name_;
  WindowConfig config_;
  std::unique_ptr<solver::WindowSolver> solver_;
  std::unique_ptr<solver::WindowSolver> fallback_;
  std::set<JobRef> rejected_;
  Time next_pass_ = 0;
  int window_now_;  // IPSCHED halves it after a time-out
  std::vector<PassStats> stats_;
  ProblemObserver observer_;
  SolveObserver solve_observer_;
  // Key of the last pass when it started nothing: an identical pass would start nothing again.
  std::optional<PassKey> idle_key_;
  Time quiet_until_ = kNoTime;  // with idle_key_: when the key can next change without events
  BidMemo bid_memo_;  // bids of the last passes' jobs on their free state
  ReservationMemo reservation_memo_;
  LayoutCache layouts_;
  FreeStateSerials free_serials_;  // numbers the passes' free states for the memos
};

}  // namespace hs::window
