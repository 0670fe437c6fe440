#include "cli/solve_command.hpp"

#include <fstream>
#include <iostream>

#include "cli/args.hpp"
#include "cli/exit_codes.hpp"
#include "cli/solve_report.hpp"
#include "solver/mip_model.hpp"
#include "solver/solvers.hpp"
#include "solver/window_lp.hpp"
#include "util/error.hpp"
#include "window_file/window_file.hpp"

namespace hs::cli {

namespace {

const InputLocation kCommandLine{"<command line>", 0};

Args solve_args() {
  Args args("solve FILE",
            "Solves one window file (docs/window-format.md), checks the answer with the\n"
            "independent checker and prints objective, bound, status and check. A window saved\n"
            "by `simulate --dump-windows` is solved with the replay's solver and effort unless\n"
            "--solver/--effort say otherwise, and the replay's objective is compared.");
  args.declare({"solver", "NAME", "window solver (hetsched list solvers)", "the replay's, else lagrangian"});
  args.declare({"effort", "N", "effort limit in work units (0 = the solver's default)", "the replay's, else 0"});
  args.declare({"time-limit", "SECONDS", "wall-clock cap (makes the solve machine-dependent)", "0"});
  args.declare({"seed", "N", "solver seed", "1"});
  args.declare({"enumerate-bids", "N",
                "lagrangian: enumerate windows of at most N usable bids first (a proof of "
                "optimality when it completes)", "the replay's, else 64"});
  args.declare({"exact-bids", "N",
                "lagrangian: windows of at most N bids are solved by `exact` (LP branch and "
                "bound seeded by lagrangian: never worse, a proof when its tree closes; CLP "
                "builds)", "400 for lagrangian on a window not saved by a replay (with CLP), else 0"});
  args.declare({"lp-bound", "0|1",
                "lagrangian: after the search, tighten the bound by more Lagrangian steps and "
                "the LP relaxation (the answer is the same)", "1"});
  args.declare({"export", "lp|mps", "write the window as an LP or MPS model to --out instead of solving", ""});
  args.declare({"out", "FILE", "solution as JSON (or the exported model)", ""});
  return args;
}

solver::MipFileFormat export_format(const std::string& name) {
  if (name == "lp") return solver::MipFileFormat::Lp;
  if (name == "mps") return solver::MipFileFormat::Mps;
  throw InputError(kCommandLine, "--export", name, "expected lp or mps");
}

int export_window(const window_file::WindowFile& file, const Args& args) {
  const solver::MipFileFormat format = export_format(args.get("export", ""));
  const std::string out = args.get("out", "");
  if (out.empty()) throw InputError(kCommandLine, "--out", "", "--export needs --out FILE");
  if (auto why = solver::write_mip_file(solver::window_to_mip(file.problem), out, format)) {
    std::cerr << "hetsched: error: " << *why << "\n";
    return kExitBadInput;
  }
  std::cout << "wrote      " << out << " (" << args.get("export", "") << ", "
            << file.problem.bids.size()
            << " binary columns; minimises the negated bid values, so its optimum is minus"
               " the window's)\n";
  return kExitOk;
}

// `hetsched solve`'s --exact-bids for windows not saved from a replay: `exact` proves most
// windows of this size on uncrowded machines in milliseconds and otherwise stops at its
// own cap (about a second), never below the default's answer (docs/solver.md).
constexpr std::int64_t kSolveExactBids = 400;

SolveReport solve_window(const window_file::WindowFile& file, const std::string& path,
                         const Args& args) {
  SolveReport report;
  report.window_path = path;
  report.replay = file.replay;
  const bool replayed = file.replay.has_value();
  report.solver = args.get("solver", replayed ? file.replay->solver
                                              : std::string(solver::kDefaultWindowSolver));
  report.effort_limit =
      args.get_int("effort", replayed ? file.replay->effort_limit : 0, 0, INT64_MAX);
  if (report.effort_limit > 0 && !solver::counts_effort(report.solver))
    throw InputError(kCommandLine, "--effort", std::to_string(report.effort_limit),
                     "the " + report.solver + " solver counts no effort units; limit it with --time-limit");
  solver::SolverOptions options;
  options.effort_limit = report.effort_limit;
  options.seed = static_cast<std::uint64_t>(args.get_int("seed", 1, 0, INT64_MAX));
  options.time_limit_s = static_cast<double>(args.get_int("time-limit", 0, 0, 86400));
  options.lp_bound = args.get_int("lp-bound", 1, 0, 1) == 1;
  options.enumerate_bids = static_cast<std::int32_t>(args.get_int(
      "enumerate-bids", replayed ? file.replay->enumerate_bids : solver::kDefaultEnumerateBids, 0,
      100000));
  // A window of one's own gets the best answer this build has for a small window; a
  // replay's keeps the replay's solver, so its objective can be compared.
  const bool exact_by_default =
      !replayed && report.solver == "lagrangian" && solver::clp_available();
  const std::int64_t exact_default = exact_by_default ? kSolveExactBids : 0;
  options.exact_bids =
      static_cast<std::int32_t>(args.get_int("exact-bids", exact_default, 0, 100000));
  if (options.exact_bids > 0 && (report.solver != "lagrangian" || !solver::clp_available()))
    throw InputError(kCommandLine, "--exact-bids", std::to_string(options.exact_bids),
                     "needs the lagrangian solver and a build with CLP");
  report.exact_bids = options.exact_bids;
  report.result = solver::make_window_solver(report.solver)->solve(file.problem, options);
  report.has_solution = report.result.call == solver::CallStatus::Ok &&
                        (report.result.status == solver::SolveStatus::Optimal ||
                         report.result.status == solver::SolveStatus::Feasible);
  if (report.has_solution) report.defect = solver::check_solution(file.problem, report.result.solution);
  return report;
}

void write_solution(const std::string& out, const window_file::WindowFile& file,
                    const SolveReport& report) {
  std::ofstream stream(out, std::ios::binary | std::ios::trunc);
  if (!stream) throw InputError(kCommandLine, "--out", out, "cannot write the solution file");
  write_solve_json(stream, file, report);
}

}  // namespace

int run_solve_command(int argc, char** argv) {
  Args args = solve_args();
  const bool has_file = argc > 2 && std::string(argv[2]).rfind("--", 0) != 0 &&
                        std::string(argv[2]) != "-h";
  args.parse(argc, argv, has_file ? 3 : 2);
  if (args.help_requested()) {
    std::cout << args.usage();
    return kExitOk;
  }
  if (!has_file) throw InputError(kCommandLine, "FILE", "", "hetsched solve needs a window file");
  const std::string path = argv[2];
  const window_file::WindowFile file = window_file::read_window_file(path);
  if (args.has("export")) return export_window(file, args);
  const SolveReport report = solve_window(file, path, args);
  print_solve_report(std::cout, file, report);
  if (args.has("out")) write_solution(args.get("out", ""), file, report);
  if (report.result.call == solver::CallStatus::Error) return kExitInternal;
  return report.defect ? kExitViolations : kExitOk;
}

}  // namespace hs::cli
