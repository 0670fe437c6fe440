// Every solver's claims against a reference optimum, on windows of many shapes
// (solver/varied_windows.hpp), where the other benches use the documents' shapes only.
//
//   bench_solver_audit [--size small|medium] [--first SEED] [--count N] [--cbc-limit S]
//                      [--per-window] [--write-windows DIR]
//
// The reference is `exhaustive` on windows of at most 16 jobs, otherwise CBC (`--cbc-limit`,
// default 30 s) when it proves its answer; a window neither settles is skipped and counted.
// Each configuration is checked by check_claims: a worked call, a checked answer, no
// objective above the optimum, no bound below it, no answer called optimal that is not.
// Prints a line per defect, then per configuration: windows, answers at the optimum, answers
// called optimal, defects, and CPU p50 / p99 / max (thread CPU time). Exits 1 on any defect.
// --per-window: "# seed config objective bound status cpu_ms optimum reference seconds" for
// every solve (the reference's wall time).
// --write-windows DIR: every window whose answer some configuration left below the optimum
// or unproven, as DIR/varied-SIZE-SEED.json (docs/window-format.md).
#include <time.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "solver/reference_optimum.hpp"
#include "solver/solvers.hpp"
#include "solver/varied_windows.hpp"
#include "solver/window_lp.hpp"
#include "util/memory_usage.hpp"
#include "window_file/window_file.hpp"

namespace {

using namespace hs::solver;

struct Config {
  VariedWindowSize size = VariedWindowSize::Small;
  std::uint64_t first = 1;
  std::uint64_t count = 500;
  double cbc_limit_s = 30.0;
  bool per_window = false;
  std::string write_dir;
};

// A solver with the options a caller of the project passes it.
struct Setting {
  const char* label;
  const char* solver;
  SolverOptions options;
};

std::vector<Setting> settings() {
  SolverOptions replay;  // as the window schedulers pass it
  replay.enumerate_bids = kDefaultEnumerateBids;
  SolverOptions solve_command = replay;  // as `hetsched solve` passes it
  solve_command.lp_bound = true;
  SolverOptions whole;
  whole.split_parts = false;
  SolverOptions exact_stage = replay;
  exact_stage.exact_bids = 400;
  SolverOptions small_limit;
  small_limit.effort_limit = 20'000;
  std::vector<Setting> out = {{"lagrangian", "lagrangian", replay},
                              {"lagrangian+lp-bound", "lagrangian", solve_command},
                              {"lagrangian-whole", "lagrangian", whole},
                              {"lagrangian+exact-400", "lagrangian", exact_stage},
                              {"lagrangian@20k", "lagrangian", small_limit},
                              {"greedy", "greedy", {}}};
  if (clp_available()) {
    out.push_back({"exact", "exact", {}});
    out.push_back({"exact@20k", "exact", small_limit});
  }
  return out;
}

struct Tally {
  int windows = 0, at_optimum = 0, called_optimal = 0, defects = 0;
  std::vector<double> cpu_ms;
};

double thread_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

double percentile(std::vector<double> values, double q) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  return values[static_cast<std::size_t>(q * static_cast<double>(values.size() - 1) + 0.5)];
}

const char* size_name(VariedWindowSize size) { return size == VariedWindowSize::Medium ? "medium" : "small"; }

void write_window(const Config& config, std::uint64_t seed, const WindowProblem& p) {
  hs::window_file::WindowFile file;
  file.problem = p;
  for (std::int32_t d = 0; d < p.dims; ++d) file.dimension_names.push_back("d" + std::to_string(d));
  hs::window_file::write_window_file(
      config.write_dir + "/varied-" + size_name(config.size) + "-" + std::to_string(seed) + ".json", file);
}

// Audits one window; false when no reference settles it.
bool audit_window(std::uint64_t seed, const Config& config, const std::vector<Setting>& runs,
                  std::vector<Tally>& tallies, std::vector<double>& cbc_seconds) {
  const WindowProblem p = make_varied_window(seed, config.size);
  const std::optional<ReferenceOptimum> reference = reference_optimum(p, config.cbc_limit_s);
  if (!reference) return false;
  const double optimum = reference->value;
  if (std::strcmp(reference->solver, "cbc") == 0) cbc_seconds.push_back(reference->seconds);
  const double tolerance = 1e-9 * (std::fabs(optimum) + 1.0);
  bool missed = false;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const double start = thread_cpu_ms();
    const SolveResult r = make_window_solver(runs[k].solver)->solve(p, runs[k].options);
    const double cpu = thread_cpu_ms() - start;
    Tally& t = tallies[k];
    ++t.windows;
    t.cpu_ms.push_back(cpu);
    const bool at = r.solution.objective >= optimum - tolerance;
    t.at_optimum += at;
    t.called_optimal += r.status == SolveStatus::Optimal;
    missed = missed || !at || r.status != SolveStatus::Optimal;
    if (auto defect = check_claims(p, r, optimum)) {
      ++t.defects;
      std::printf("DEFECT seed %llu %s: %s (%s; %d jobs, %d nodes, %d dims, %zu bids)\n",
                  static_cast<unsigned long long>(seed), runs[k].label, defect->c_str(), reference->solver,
                  p.job_count, p.node_count, p.dims, p.bids.size());
    }
    if (config.per_window)
      std::printf("# %llu %s %.17g %.17g %s %.3f %.17g %s %.3f\n", static_cast<unsigned long long>(seed),
                  runs[k].label, r.solution.objective, r.bound,
                  hs::window_file::solve_status_name(r.status).c_str(), cpu, optimum, reference->solver,
                  reference->seconds);
  }
  if (missed && !config.write_dir.empty()) write_window(config, seed, p);
  return true;
}

Config parse(int argc, char** argv) {
  Config c;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const char* next = i + 1 < argc ? argv[i + 1] : nullptr;
    if (a == "--size" && next) {
      c.size = std::strcmp(next, "medium") == 0 ? VariedWindowSize::Medium : VariedWindowSize::Small;
      ++i;
    } else if (a == "--first" && next) {
      c.first = std::strtoull(argv[++i], nullptr, 10);
    } else if (a == "--count" && next) {
      c.count = std::strtoull(argv[++i], nullptr, 10);
    } else if (a == "--cbc-limit" && next) {
      c.cbc_limit_s = std::atof(argv[++i]);
    } else if (a == "--per-window") {
      c.per_window = true;
    } else if (a == "--write-windows" && next) {
      c.write_dir = argv[++i];
    } else {
      std::fprintf(stderr, "bench_solver_audit: unknown or incomplete option '%s'\n", a.c_str());
      std::exit(2);
    }
  }
  return c;
}

}  // namespace

int main(int argc, char** argv) {
  const Config config = parse(argc, argv);
  const std::vector<Setting> runs = settings();
  std::vector<Tally> tallies(runs.size());
  int unsettled = 0;
  std::vector<double> cbc_seconds;
  for (std::uint64_t seed = config.first; seed < config.first + config.count; ++seed) {
    if (!audit_window(seed, config, runs, tallies, cbc_seconds)) ++unsettled;
    std::fflush(stdout);
  }
  std::printf("%s windows, seeds %llu-%llu: %llu audited, %d without a reference optimum\n",
              size_name(config.size), static_cast<unsigned long long>(config.first),
              static_cast<unsigned long long>(config.first + config.count - 1),
              static_cast<unsigned long long>(config.count) - unsettled, unsettled);
  std::printf("reference: CBC on %zu (wall p50 %.2f s, p99 %.2f s, max %.2f s), exhaustive on the rest\n",
              cbc_seconds.size(), percentile(cbc_seconds, 0.5), percentile(cbc_seconds, 0.99),
              percentile(cbc_seconds, 1.0));
  std::printf("%-22s %7s %10s %9s %7s | %8s %8s %8s\n", "configuration", "windows", "at optimum",
              "proven", "defects", "cpu p50", "cpu p99", "cpu max");
  int defects = 0;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const Tally& t = tallies[k];
    defects += t.defects;
    std::printf("%-22s %7d %10d %9d %7d | %8.2f %8.2f %8.2f\n", runs[k].label, t.windows, t.at_optimum,
                t.called_optimal, t.defects, percentile(t.cpu_ms, 0.5), percentile(t.cpu_ms, 0.99),
                percentile(t.cpu_ms, 1.0));
  }
  std::printf("peak resident %.0f MiB (whole bench)\n", hs::peak_resident_mib());
  return defects == 0 ? 0 : 1;
}
