#include "policy/window/window_scheduler.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <utility>

#include "model/job_nodes.hpp"
#include "policy/window/auction_bids.hpp"
#include "policy/window/ipsched_columns.hpp"
#include "policy/window/problem_builder.hpp"
#include "policy/window/reservation.hpp"
#include "policy/window/switch_level.hpp"
#include "solver/solvers.hpp"
#include "solver/specialised_solvers.hpp"

namespace hs::window {

struct WindowScheduler::Pass {
  const SystemView* view = nullptr;
  std::vector<WindowJob> window;
  std::vector<const Job*> jobs;
  std::vector<std::vector<char>> masks;
  FreeArrays free;
  std::uint64_t free_serial = 0;  // FreeStateSerials number of `free`
  DimensionLayout layout;
  const Reservation* reservation = nullptr;  // the ReservationMemo's answer, or none
  std::vector<char> holds;  // per slot: bids still hold resources at the reservation start
  int must_start = -1;      // a slot whose job every answer must start (see solve_guarded)
  std::int64_t first_effort = 0;  // > 0: this solve's effort limit instead of solver_effort
};

WindowScheduler::WindowScheduler(std::string name, WindowConfig config)
    : name_(std::move(name)),
      config_(std::move(config)),
      solver_(solver::make_window_solver(config_.solver)),
      fallback_(solver::make_window_solver("greedy")),
      window_now_(config_.window) {}

Decisions WindowScheduler::decide(const SystemView& view, std::span<const Event> events) {
  Decisions out;
  for (const Event& e : events) {
    if (e.kind == EventKind::NodesChanged) {  // live: nodes blocked, or moved between partitions
      idle_key_.reset();
      free_serials_.renumber();
    }
    if (e.kind != EventKind::Submitted) continue;
    if (auto why = window_unsupported_reason(view.job(e.job))) {
      out.rejections.push_back(Rejection{e.job, *why, true});
      rejected_.insert(e.job);
    }
  }
  const bool waiting = std::any_of(view.pending.begin(), view.pending.end(),
                                   [&](JobRef j) { return !rejected_.count(j); });
  if (!waiting) return out;
  // A pass runs on every submit/end event and every sched_interval while jobs wait. (The
  // simulator flags a run as stalled when a pass starts nothing and no event is left, even
  // with a wake-up pending, so event passes may not be deferred to the next tick.)
  if (view.now < next_pass_ && events.empty()) {
    if (next_pass_ != kNoTime) out.wake_at = next_pass_;
    return out;
  }
  next_pass_ = view.now + config_.interval;
  run_pass(view, out);
  if (idle_key_ && config_.skip_repeated_passes) next_pass_ = first_tick_at_or_after(quiet_until_);
  const bool left = view.pending.size() > out.starts.size() + out.rejections.size();
  if (left && next_pass_ != kNoTime) out.wake_at = next_pass_;
  return out;
}

// Passes keep the grid of the last pass that ran (next_pass_ + k * interval); the ticks
// before `t` would only repeat an idle pass, so they are not requested at all.
Time WindowScheduler::first_tick_at_or_after(Time t) const {
  if (t == kNoTime) return kNoTime;
  if (t <= next_pass_) return next_pass_;
  const Time ticks = (t - next_pass_ + config_.interval - 1) / config_.interval;
  if (ticks > (kNoTime - next_pass_) / config_.interval) return kNoTime;
  return next_pass_ + ticks * config_.interval;
}

// Earliest time after `now` at which the pass key can change without a submission or an
// end: multifactor priorities age, and a window job's bids start to overlap the
// reservation once now + its time limit passes the reservation's start. kNoTime when
// only events can change it.
Time WindowScheduler::key_changes_at(const Pass& pass) const {
  const Time now = pass.view->now;
  if (config_.priority != PriorityKind::Basic) return now + 1;
  if (!pass.reservation) return guard_due_at(pass);
  const Reservation& r = *pass.reservation;
  if (r.start <= now) return now + 1;
  Time first = r.start;
  for (int s = 0; s < static_cast<int>(pass.window.size()); ++s)
    if (s != r.slot && !pass.holds[s])
      first = std::min(first, r.start - pass.jobs[s]->req.time_limit + 1);
  return std::max(first, now + 1);
}

// When the top job's wait reaches starvation_wait (it gets the reservation then); kNoTime
// without the guard or when the reservation is already due.
Time WindowScheduler::guard_due_at(const Pass& pass) const {
  if (config_.starvation != Starvation::Reserve || pass.window.empty()) return kNoTime;
  const Time due = pass.jobs[0]->submit + config_.starvation_wait;
  return due > pass.view->now ? due : kNoTime;
}

WindowScheduler::PassKey WindowScheduler::key_of(const Pass& pass) {
  PassKey key;
  for (const WindowJob& w : pass.window) key.window.emplace_back(w.ref, w.priority);
  key.free = pass.free;
  key.holds = pass.holds;
  if (pass.reservation) {
    key.reservation.emplace(pass.reservation->slot, pass.reservation->start);
    key.reservation_spare = pass.reservation->spare;
  }
  return key;
}

bool WindowScheduler::repeats(const PassKey& key, const Pass& pass) {
  if (key.window.size() != pass.window.size()) return false;
  for (std::size_t s = 0; s < pass.window.size(); ++s)
    if (key.window[s] != std::pair(pass.window[s].ref, pass.window[s].priority)) return false;
  if (key.holds != pass.holds || key.reservation.has_value() != (pass.reservation != nullptr))
    return false;
  if (pass.reservation &&
      (*key.reservation != std::pair(pass.reservation->slot, pass.reservation->start) ||
       key.reservation_spare != pass.reservation->spare))
    return false;
  return key.free == pass.free;
}

std::vector<WindowJob> WindowScheduler::take_window(const SystemView& view) const {
  std::vector<WindowJob> all;
  for (JobRef j : view.pending) {
    if (rejected_.count(j)) continue;
    all.push_back(describe(view.job(j), j,
                           job_priority(config_.priority, *view.cluster, *view.workload, j, view.now)));
  }
  std::stable_sort(all.begin(), all.end(), [](const WindowJob& a, const WindowJob& b) {
    return a.priority != b.priority ? a.priority > b.priority : a.ref < b.ref;
  });
  if (static_cast<int>(all.size()) > window_now_) all.resize(window_now_);
  return all;
}

void WindowScheduler::run_pass(const SystemView& view, Decisions& out) {
  const auto started = std::chrono::steady_clock::now();  // reporting only
  Pass pass;
  pass.view = &view;
  pass.window = take_window(view);
  if (pass.window.empty()) return;
  pass.free = free_serials_.update(*view.cluster, *view.free);
  pass.free_serial = free_serials_.number();
  for (const WindowJob& w : pass.window) {
    pass.jobs.push_back(&view.job(w.ref));
    pass.masks.push_back(window_node_mask(*view.cluster, view.job(w.ref)));
  }
  if (config_.starvation == Starvation::Reserve && guard_due_at(pass) == kNoTime)
    pass.reservation = reservation_memo_.plan(view, pass.free, pass.free_serial, pass.window[0], 0,
                                              pass.masks[0]);
  pass.layout = layouts_.of(*view.cluster, pass.reservation != nullptr);
  pass.holds.assign(pass.window.size(), 0);
  if (pass.reservation)
    for (int s = 0; s < static_cast<int>(pass.window.size()); ++s)
      pass.holds[s] = overlaps_reservation(*pass.reservation, pass.window[s], s, view.now,
                                           pass.jobs[s]->req.time_limit);

  PassStats stats;
  stats.now = view.now;
  stats.window = static_cast<int>(pass.window.size());
  if (config_.skip_repeated_passes && idle_key_ && repeats(*idle_key_, pass)) {
    stats.repeated = true;
    quiet_until_ = key_changes_at(pass);
    stats_.push_back(stats);
    free_serials_.keep(std::move(pass.free));
    return;
  }
  const auto winners = solve_guarded(pass, stats);
  std::vector<std::string> problems;
  out.starts = verified_starts(view, pass.window, winners, problems);
  stats.started = static_cast<int>(out.starts.size());
  stats.rejected_proposals = static_cast<int>(problems.size());
  if (!problems.empty())
    stats.first_problem = std::make_shared<const std::string>(std::move(problems.front()));
  // IPSCHED's window size is state too: only a pass at the full window may be skipped later.
  const bool idle = out.starts.empty() && !stats.timed_out && window_now_ == config_.window;
  idle_key_ = idle ? std::optional<PassKey>(key_of(pass)) : std::nullopt;
  if (idle) quiet_until_ = key_changes_at(pass);
  free_serials_.keep(std::move(pass.free));
  stats.pass_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  stats_.push_back(stats);
}

std::vector<Candidate> WindowScheduler::solve_model(const Pass& pass, PassStats& stats) {
  return config_.model == Model::Ipsched ? solve_ipsched(pass, stats) : solve_auction(pass, stats);
}

// A reservation starting now means the top job fits now. The reservation pins one placement
// of it, which can rule out the co-allocation that starts it beside others (the documents'
// motivating example). So with fits_now=two_solves (the auctions' default) the pass first
// solves without it, with fits_now_effort of the effort limit, keeps that answer if it
// starts the top job, and otherwise (or on an IPSCHED time-out) solves again with the
// reservation. With fits_now=must_start (IPSCHED's default) it solves once, without the
// reservation, with the top job bound to start, placed wherever the rest fit best; should
// that answer still leave it out (a fallback), the reservation solve follows.
std::vector<Candidate> WindowScheduler::solve_guarded(Pass& pass, PassStats& stats) {
  if (!pass.reservation || pass.reservation->start > pass.view->now)
    return solve_model(pass, stats);
  const int top = pass.reservation->slot;
  const Reservation* reservation = std::exchange(pass.reservation, nullptr);
  auto holds = std::exchange(pass.holds, std::vector<char>(pass.window.size(), 0));
  auto layout = std::exchange(pass.layout, layouts_.of(*pass.view->cluster, false));
  if (config_.top_must_start) pass.must_start = top;
  else pass.first_effort = first_solve_effort();
  auto winners = solve_model(pass, stats);
  pass.first_effort = 0;
  pass.must_start = -1;
  pass.reservation = reservation;
  pass.holds = std::move(holds);
  pass.layout = std::move(layout);
  const bool top_starts = std::any_of(winners.begin(), winners.end(),
                                      [top](const Candidate& c) { return c.slot == top; });
  if (top_starts || stats.timed_out) return winners;
  return solve_model(pass, stats);
}

// The effort limit of the solve without the reservation: its answer is thrown away unless it
// starts the top job, so a share of the limit (the default solver only; a time-out under
// strict_timeout would end the pass, so there it keeps the whole limit).
std::int64_t WindowScheduler::first_solve_effort() const {
  if (config_.fits_now_effort >= 1.0 || config_.solver != "lagrangian" || config_.strict_timeout)
    return 0;
  const std::int64_t limit = config_.solver_effort > 0 ? config_.solver_effort
                                                       : solver::LagrangianSolver::kDefaultEffort;
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(config_.fits_now_effort * limit));
}

std::vector<Candidate> WindowScheduler::auction_bids(const Pass& pass) {
  AuctionConfig ac;
  ac.max_bids_per_job = config_.max_bids_per_job;
  ac.max_bids = config_.max_bids;
  ac.gres_ranges = config_.model != Model::Aucsched1;
  ac.per_switch = config_.model == Model::Aucsched3;
  ac.slurm_bids = config_.model == Model::Aucsched1 && config_.slurm_bids;
  ac.table = config_.model == Model::Aucsched1 ? PreferenceTable::Aucsched1
                                               : PreferenceTable::Aucsched2;
  AuctionInput in;
  in.cluster = pass.view->cluster;
  in.state = pass.view->free;
  in.window = pass.window;
  in.jobs = pass.jobs;
  in.masks = pass.masks;
  in.free = &pass.free;
  in.free_serial = pass.free_serial;
  return generate_auction_bids(in, ac, &bid_memo_);
}

namespace {

std::int64_t min_priority(const std::vector<WindowJob>& w) {
  std::int64_t m = w.front().priority;
  for (const auto& j : w) m = std::min(m, j.priority);
  return m;
}

// Smallest positive difference between window priorities (P_min if all are equal).
std::int64_t min_priority_gap(const std::vector<WindowJob>& w) {
  std::vector<std::int64_t> p;
  for (const auto& j : w) p.push_back(j.priority);
  std::sort(p.begin(), p.end());
  std::int64_t gap = 0;
  for (std::size_t k = 1; k < p.size(); ++k)
    if (p[k] != p[k - 1] && (gap == 0 || p[k] - p[k - 1] < gap)) gap = p[k] - p[k - 1];
  return gap == 0 ? p.front() : gap;
}

std::int32_t max_gres(const Cluster& c, int type) {
  std::int32_t m = 0;
  if (type < 0) return 0;
  for (const Node& n : c.nodes) m = std::max(m, n.gres[type]);
  return m;
}

// Thesis eq. 6.5; gmax = largest per-node count of the job's gres type.
double topology_cost(const Cluster& cluster, std::int32_t gmax, const Candidate& c) {
  const double n = static_cast<double>(c.nodes.size()) / cluster.node_count();
  double level = 0.0;
  if (cluster.topology && cluster.topology->max_level() > 0)
    level = static_cast<double>(common_switch_level(*cluster.topology, c.nodes)) /
            cluster.topology->max_level();
  const double g = gmax > 0 ? static_cast<double>(c.gres_per_node) / gmax : 0.0;
  return 1.0 + n + level - g;
}

}  // namespace

std::vector<double> WindowScheduler::values(const Pass& pass,
                                            const std::vector<Candidate>& cands) const {
  std::vector<double> v(cands.size());
  const double jobs = static_cast<double>(pass.window.size());
  const double nodes = pass.view->cluster->node_count();
  const std::int64_t pmin = min_priority(pass.window);
  const bool lexi = config_.weighting == Weighting::Lexicographic;
  const Cluster& cluster = *pass.view->cluster;
  double beta = 0.0;
  std::vector<std::int32_t> gmax(kMaxGresTypes, 0);
  if (config_.model == Model::Aucsched3) {
    beta = lexi ? 1.0 / (3.0 * (jobs + 1.0))
                : static_cast<double>(std::min(min_priority_gap(pass.window), pmin)) / 3.0;
    for (int t = 0; t < kMaxGresTypes; ++t) gmax[t] = max_gres(cluster, t);
  }
  for (std::size_t i = 0; i < cands.size(); ++i) {
    const Candidate& c = cands[i];
    const WindowJob& job = pass.window[c.slot];
    const double p = static_cast<double>(job.priority);
    switch (config_.model) {
      case Model::Ipsched: {
        const double packing = 1.0 - static_cast<double>(c.nodes.size()) / (2.0 * nodes);
        v[i] = p * packing * (config_.objective == IpObjective::PriorityCores ? job.cores : 1);
        break;
      }
      case Model::Aucsched1:
      case Model::Aucsched2: {
        const double w = lexi ? 1.0 / (2.0 * (jobs + 1.0))
                              : static_cast<double>(pmin) / (cands.size() + 1.0);
        v[i] = p + w * c.preference;
        break;
      }
      case Model::Aucsched3: {
        const std::int32_t g = job.gres_type >= 0 ? gmax[job.gres_type] : 0;
        v[i] = std::max(1e-6, p - beta * topology_cost(cluster, g, c));
        break;
      }
    }
  }
  return v;
}

solver::SolveResult WindowScheduler::solve(const Pass& pass, const std::vector<Candidate>& cands,
                                           const std::vector<double>& vals, PassStats& stats) {
  ProblemInput in;
  in.layout = &pass.layout;
  in.free = &pass.free;
  in.window = pass.window;
  in.candidates = cands;
  const double bonus = must_start_bonus(pass, cands, vals);
  std::vector<double> bound_vals;
  if (bonus > 0) {
    bound_vals = vals;
    for (std::size_t i = 0; i < cands.size(); ++i)
      if (cands[i].slot == pass.must_start) bound_vals[i] += bonus;
  }
  in.values = bonus > 0 ? std::span<const double>(bound_vals) : std::span<const double>(vals);
  in.reservation = pass.reservation;
  in.holds_at_reservation = pass.holds;
  const solver::WindowProblem problem = build_problem(in);
  if (observer_) observer_(problem);
  solver::SolverOptions opt;
  opt.effort_limit = config_.solver_effort;
  if (pass.first_effort > 0) opt.effort_limit = pass.first_effort;
  opt.exact_bids = config_.solver_exact_bids;
  opt.enumerate_bids = config_.solver_enumerate_bids;
  opt.lp_bound = config_.solver_lp_bound;
  opt.time_limit_s = config_.solver_time_limit;
  solver::SolveResult r = solver_->solve(problem, opt);
  stats.solve_seconds += r.seconds;
  stats.solves += 1;
  stats.effort += r.effort;
  const bool bound_job_starts =
      bonus > 0 && r.solution.bid_of_job.size() > static_cast<std::size_t>(pass.must_start) &&
      r.solution.bid_of_job[pass.must_start] >= 0;
  stats.objective = r.solution.objective - (bound_job_starts ? bonus : 0.0);
  stats.bound = bonus > 0 ? std::max(stats.objective, r.bound - bonus) : r.bound;
  stats.bound_source = r.bound_source;
  stats.proven = r.status == solver::SolveStatus::Optimal;
  if (solve_observer_) report_solve(pass, problem, r, stats);
  stats.bids = static_cast<int>(cands.size());
  const bool has_solution = r.call == solver::CallStatus::Ok &&
                            (r.status == solver::SolveStatus::Optimal ||
                             r.status == solver::SolveStatus::Feasible);
  if (has_solution && !solver::check_solution(problem, r.solution)) return r;
  if (config_.model == Model::Ipsched) {
    r.status = has_solution ? solver::SolveStatus::Error : r.status;  // failed check counts as failure
    return r;
  }
  // Auctions fall back to the greedy solver, whose answer is checked the same way: one whole
  // pass, whatever the solver's effort limit (a safety net, and cheap).
  stats.fallback = true;
  solver::SolverOptions fallback_options = opt;
  fallback_options.effort_limit = 0;
  r = fallback_->solve(problem, fallback_options);
  stats.objective = r.solution.objective;
  stats.proven = false;
  if (r.call != solver::CallStatus::Ok || solver::check_solution(problem, r.solution)) {
    r.status = solver::SolveStatus::Error;
    r.solution.bid_of_job.assign(pass.window.size(), -1);
  }
  return r;
}

// What a bid of the job bound to start gets on top of its value so that every answer that
// starts it beats every answer that does not: more than all other jobs' best bids together.
double WindowScheduler::must_start_bonus(const Pass& pass, const std::vector<Candidate>& cands,
                                         const std::vector<double>& vals) {
  if (pass.must_start < 0) return 0.0;
  std::vector<double> best(pass.window.size(), 0.0);
  for (std::size_t i = 0; i < cands.size(); ++i)
    best[cands[i].slot] = std::max(best[cands[i].slot], vals[i]);
  double others = 0.0;
  for (std::size_t s = 0; s < best.size(); ++s)
    if (static_cast<int>(s) != pass.must_start) others += best[s];
  return others + 1.0;
}

void WindowScheduler::report_solve(const Pass& pass, const solver::WindowProblem& problem,
                                   const solver::SolveResult& result, const PassStats& stats) const {
  SolveRecord record{static_cast<std::int64_t>(stats_.size()), stats.now, stats.solves,
                     config_.solver, config_.solver_effort, config_.solver_time_limit,
                     config_.solver_enumerate_bids, &problem, &result, dimension_names(pass.layout, *pass.view->cluster),
                     {}, {}};
  for (const Node& node : pass.view->cluster->nodes) record.node_names.push_back(node.name);
  for (const Job* job : pass.jobs) record.job_ids.push_back(std::to_string(job->id));
  solve_observer_(record);
}

namespace {
std::vector<Candidate> winners_of(const std::vector<Candidate>& cands,
                                  const solver::WindowSolution& sol) {
  std::vector<Candidate> w;
  for (std::int32_t b : sol.bid_of_job)
    if (b >= 0) w.push_back(cands[b]);
  return w;
}
}  // namespace

std::vector<Candidate> WindowScheduler::solve_auction(const Pass& pass, PassStats& stats) {
  const auto cands = auction_bids(pass);
  if (cands.empty()) return {};
  const auto vals = values(pass, cands);
  const auto r = solve(pass, cands, vals, stats);
  if (r.status == solver::SolveStatus::Error) return {};
  return winners_of(cands, r.solution);
}

bool WindowScheduler::limit_hit(const solver::SolveResult& r) const {
  if (r.call != solver::CallStatus::Ok) return true;
  if (r.status == solver::SolveStatus::NoSolution || r.status == solver::SolveStatus::Error ||
      r.status == solver::SolveStatus::Infeasible)
    return true;
  return config_.strict_timeout && r.status == solver::SolveStatus::Feasible;
}

std::vector<Candidate> WindowScheduler::solve_ipsched(const Pass& pass, PassStats& stats) {
  ColumnPool pool;
  if (config_.exhaustive_columns) {
    for (int s = 0; s < static_cast<int>(pass.window.size()); ++s) {
      std::vector<Candidate> all;
      enumerate_columns(pass.free, pass.window[s], s, pass.masks[s], config_.exhaustive_cap, all);
      for (auto& c : all) pool.add(std::move(c));
    }
  } else {
    initial_columns(pass.free, pass.window, pass.masks, pool);
  }
  std::vector<Candidate> best;
  double best_objective = -1.0;
  for (int round = 0;; ++round) {
    if (pool.columns().empty()) return {};
    const auto vals = values(pass, pool.columns());
    const auto r = solve(pass, pool.columns(), vals, stats);
    if (limit_hit(r)) {
      // Thesis ch. 3: nothing starts this interval and the next window is half as large.
      stats.timed_out = true;
      window_now_ = std::max(1, window_now_ / 2);
      return {};
    }
    // The pool only grows, so an earlier round's answer is still feasible: a round whose
    // (heuristic) answer is worse does not replace it.
    if (r.solution.objective >= best_objective) {
      best_objective = r.solution.objective;
      best = winners_of(pool.columns(), r.solution);
    }
    if (round >= config_.pricing_rounds || config_.exhaustive_columns) break;
    FreeArrays residual = pass.free;
    for (const Candidate& c : best) residual.take(c, pass.window[c.slot]);
    if (residual_columns(residual, pass.window, pass.masks, best, config_.repack_losers,
                         config_.repack_pairs, pool) == 0)
      break;
  }
  window_now_ = std::min(config_.window, window_now_ * 2);
  return best;
}

}  // namespace hs::window
