#include "policy/window/window_schedulers.hpp"

#include "policy/window/window_scheduler.hpp"
#include <cstdint>
#include <optional>

#include "solver/cbc_window_solver.hpp"
#include "solver/solvers.hpp"
#include "solver/window_lp.hpp"
#include "util/error.hpp"

namespace hs {
namespace {

using window::Model;

std::optional<Model> model_of(std::string_view name) {
  if (name == "ipsched") return Model::Ipsched;
  if (name == "aucsched1") return Model::Aucsched1;
  if (name == "aucsched2") return Model::Aucsched2;
  if (name == "aucsched3") return Model::Aucsched3;
  return std::nullopt;
}

void read_common(Params& p, window::WindowConfig& c) {
  c.interval = p.get_int("sched_interval", 5, 1, 86400,
                         "seconds between scheduling passes (SCHED_INTERVAL)");
  c.window = static_cast<int>(p.get_int("window", 200, 1, 100000,
                                        "jobs taken from the queue front per pass (MAX_JOB_COUNT)"));
  c.priority = window::parse_priority_kind(
      p.get_choice("priority", "basic", {"basic", "multifactor"},
                   "job priorities: basic (FCFS) or multifactor (age + size)"));
  c.solver = p.get_choice("solver", "lagrangian", solver::window_solver_names(),
                          "window solver backend");
  c.solver_effort = p.get_int("solver_effort", 0, 0, INT64_MAX / 2,
                              "deterministic work limit per solve; 0 = the solver's default");
  if (c.solver_effort > 0 && !solver::counts_effort(c.solver))
    throw InputError({"<options>", 0}, "solver_effort", std::to_string(c.solver_effort),
                     "solver=" + c.solver + " counts no effort units; limit it with solver_time_limit");
  c.solver_exact_bids = static_cast<std::int32_t>(p.get_int(
      "solver_exact_bids", 0, 0, 100000,
      "lagrangian: windows of at most this many bids are solved exactly (the exact solver); "
      "0 = off"));
  if (c.solver_exact_bids > 0 && (c.solver != "lagrangian" || !solver::clp_available()))
    throw InputError({"<options>", 0}, "solver_exact_bids", std::to_string(c.solver_exact_bids),
                     c.solver != "lagrangian" ? "applies to solver=lagrangian only"
                                              : "needs the exact solver (a build with CBC/CLP)");
  const bool enumerate_given = p.has("solver_enumerate_bids");
  c.solver_enumerate_bids = static_cast<std::int32_t>(p.get_int(
      "solver_enumerate_bids", solver::kDefaultEnumerateBids, 0, 100000,
      "lagrangian: windows of at most this many usable bids are first enumerated, a proof of "
      "optimality when it completes within its small cap; 0 = off"));
  if (enumerate_given && c.solver_enumerate_bids > 0 && c.solver != "lagrangian")
    throw InputError({"<options>", 0}, "solver_enumerate_bids",
                     std::to_string(c.solver_enumerate_bids), "applies to solver=lagrangian only");
  c.solver_lp_bound = p.get_int("solver_lp_bound", 0, 0, 1,
                                "lagrangian: 1 = after the search, tighten each window's bound by "
                                "more Lagrangian steps and its LP relaxation (CLP builds); the "
                                "bound and gap change, never the answer; costs CPU time") == 1;
  if (c.solver_lp_bound && c.solver != "lagrangian")
    throw InputError({"<options>", 0}, "solver_lp_bound", "1", "applies to solver=lagrangian only");
  // CBC only stops on time, so it gets its own default; the others default to none.
  const double default_limit = c.solver == "cbc" ? solver::CbcWindowSolver::kDefaultTimeLimit : 0.0;
  c.solver_time_limit = p.get_double(
      "solver_time_limit", default_limit, 0.0, 3600.0,
      "wall-clock cap per solve in seconds; 0 = none (deterministic); cbc defaults to 5");
  c.skip_repeated_passes =
      p.get_choice("idle_passes", "skip", {"skip", "solve"},
                   "skip: a pass whose inputs equal those of the last pass that started "
                   "nothing is not solved again (same outcome, less time); solve: always solve") ==
      "skip";
  c.starvation = p.get_choice("starvation", "reserve", {"reserve", "none"},
                              "reserve: the top waiting job keeps a backfill-style "
                              "reservation that no other start may delay; none: no guard, "
                              "large jobs can starve (the documents' setting)") == "reserve"
                     ? window::Starvation::Reserve
                     : window::Starvation::None;
  c.starvation_wait = p.get_int("starvation_wait", 0, 0, 1000000000,
                                "starvation=reserve: seconds the top job must have waited before "
                                "it gets the reservation; 0 = from its first pass, as EASY "
                                "backfill");
  // Measured on SDSC-SP2, KTH-SP2, a generated year and ESP (docs/window-schedulers.md):
  // must_start is faster where first solves were capped and as good or better for IPSCHED,
  // but costs the auctions mean wait on SDSC-SP2.
  const bool ipsched = c.model == Model::Ipsched;
  c.top_must_start =
      p.get_choice("fits_now", ipsched ? "must_start" : "two_solves", {"two_solves", "must_start"},
                   "starvation=reserve, top job fits now: two_solves = a solve without the "
                   "reservation, kept if it starts the top job, else one with it; must_start "
                   "= one solve in which the top job starts, placed where the rest fit best "
                   "(default: must_start for ipsched, two_solves for the auctions)") == "must_start";
  c.fits_now_effort = p.get_double(
      "fits_now_effort", 1.0, 0.001, 1.0,
      "fits_now=two_solves, solver=lagrangian: the first solve's share of the effort limit "
      "(its answer is kept only if it starts the top job); below 1 replays faster and moves "
      "schedules");
}

void read_ipsched(Params& p, window::WindowConfig& c) {
  c.objective = p.get_choice("objective", "priority_cores", {"priority", "priority_cores"},
                             "eq. 3.1 (priority) or the experiments' priority x cores") ==
                        "priority"
                    ? window::IpObjective::Priority
                    : window::IpObjective::PriorityCores;
  c.pricing_rounds = static_cast<int>(
      p.get_int("pricing_rounds", 3, 0, 100, "residual column-generation rounds per pass"));
  c.repack_losers = static_cast<int>(p.get_int(
      "repack_losers", 8, 0, 100000, "losing jobs tried in pairwise repacking per pricing round"));
  c.repack_pairs = static_cast<int>(p.get_int(
      "repack_pairs", 128, 0, 10000000, "most (loser, winner) repacking pairs per pricing round"));
  c.exhaustive_columns = p.get_choice("columns", "generated", {"generated", "exhaustive"},
                                      "generated columns, or every column (tiny instances)") ==
                         "exhaustive";
  c.exhaustive_cap = p.get_int("exhaustive_cap", 20000, 1, 10000000,
                               "most columns enumerated per job with columns=exhaustive");
  c.strict_timeout = p.get_choice("timeout_rule", "lenient", {"lenient", "strict"},
                                  "strict: an unproven solution also counts as a time-out") ==
                     "strict";
}

void read_auction(Params& p, window::WindowConfig& c) {
  const bool first = c.model == Model::Aucsched1;
  c.max_bids_per_job = static_cast<int>(p.get_int(
      "max_bids_per_job", 15, 1, 10000, "MAXBIDSPERJOB (15 in the thesis; 5 in 000's tests)"));
  c.max_bids = static_cast<int>(p.get_int("max_bids", first ? 150 : 3000, 1, 1000000,
                                          "MAXBIDS: total bids per pass"));
  c.weighting = p.get_choice("weighting", "alpha", {"alpha", "lexicographic"},
                             "alpha: the documents' weight; lexicographic: priority sum first, "
                             "strictly") == "lexicographic"
                    ? window::Weighting::Lexicographic
                    : window::Weighting::Alpha;
  if (first)
    c.slurm_bids = p.get_bool("slurm_bids", true, "add the Slurm model's own choice as a bid");
}

}  // namespace

std::vector<std::string> window_scheduler_names() {
  return {"ipsched", "aucsched1", "aucsched2", "aucsched3"};
}

std::unique_ptr<Scheduler> make_window_scheduler(std::string_view name, Params& params) {
  const auto model = model_of(name);
  if (!model)
    throw InputError({"<options>", 0}, "scheduler", std::string(name),
                     "unknown window scheduler; expected ipsched|aucsched1|aucsched2|aucsched3");
  window::WindowConfig config;
  config.model = *model;
  read_common(params, config);
  if (*model == Model::Ipsched)
    read_ipsched(params, config);
  else
    read_auction(params, config);
  return std::make_unique<window::WindowScheduler>(std::string(name), config);
}

namespace window {

const std::vector<PassStats>& pass_stats(const Scheduler& scheduler) {
  static const std::vector<PassStats> none;
  const auto* w = dynamic_cast<const WindowScheduler*>(&scheduler);
  return w ? w->stats() : none;
}

std::vector<PassStats> take_pass_stats(Scheduler& scheduler) {
  auto* w = dynamic_cast<WindowScheduler*>(&scheduler);
  return w ? w->take_stats() : std::vector<PassStats>{};
}

bool observe_solves(Scheduler& scheduler, SolveObserver observer) {
  auto* w = dynamic_cast<WindowScheduler*>(&scheduler);
  if (w) w->observe_solves(std::move(observer));
  return w != nullptr;
}

}  // namespace window
}  // namespace hs
