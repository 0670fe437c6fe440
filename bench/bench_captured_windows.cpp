// Solver quality and latency on window problems captured from real replays, as opposed to
// bench_window_solver's random windows: replays a workload under a window scheduler, keeps
// every window problem it solved, and re-solves the largest ones with the default solver
// (or --solver NAME) and (with --cbc) with CBC under a time limit.
//
//   bench_captured_windows [--case NAME]... [--windows N] [--max-bids B] [--solver NAME]
//                          [--cbc] [--cbc-limit S] [--per-window]
//
// --per-window: a line per window before the case's summary ("# case rank bids objective
// effort status cpu_ms bound"), for comparing two builds window by window.
// --max-bids B: only windows of at most B bids are ranked (e.g. 400, the windows
// `hetsched solve` hands to `exact`).
// Cases: tsubame (AUCSCHED2, 600 TSUBAME-like jobs on tsubame2: 1408 nodes x 12 cores, 3
// GPUs, switch tree), esp (AUCSCHED2, heterogeneous ESP on paper1024). Windows are ranked
// by bid count, then job count; the N largest are solved (ties by capture order).
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "io/builtin_clusters.hpp"
#include "policy/window/window_scheduler.hpp"
#include "policy/window/window_schedulers.hpp"
#include "sim/bind.hpp"
#include "sim/simulator.hpp"
#include "solver/mip_model.hpp"
#include "solver/solvers.hpp"
#include "util/memory_usage.hpp"
#include "util/params.hpp"
#include "workload/registry.hpp"

namespace {

using namespace hs::solver;

struct ReplayCase {
  std::string name, cluster, workload, scheduler;
};

const ReplayCase kCases[] = {
    {"tsubame", "tsubame2", "tsubame:jobs=600", "aucsched2"},
    {"esp", "paper1024", "esp-het", "aucsched2"},
};

struct Config {
  std::vector<std::string> cases;
  int windows = 20;
  std::size_t max_bids = 0;  // 0: no limit
  std::string solver = "lagrangian";
  bool with_cbc = false;
  double cbc_limit_s = 5.0;
  bool per_window = false;
};

double thread_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return 1000.0 * static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e6;
}

double percentile(std::vector<double> values, double q) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const auto index = static_cast<std::size_t>(q * static_cast<double>(values.size() - 1) + 0.5);
  return values[std::min(index, values.size() - 1)];
}

[[noreturn]] void usage_error(const std::string& message) {
  std::fprintf(stderr, "bench_captured_windows: %s\n", message.c_str());
  std::exit(2);
}

Config parse(int argc, char** argv) {
  Config c;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) usage_error("missing value after " + arg);
      return argv[++i];
    };
    if (arg == "--case") c.cases.push_back(next());
    else if (arg == "--windows") c.windows = std::stoi(next());
    else if (arg == "--max-bids") c.max_bids = static_cast<std::size_t>(std::stoul(next()));
    else if (arg == "--solver") c.solver = next();
    else if (arg == "--cbc") c.with_cbc = true;
    else if (arg == "--cbc-limit") c.cbc_limit_s = std::stod(next());
    else if (arg == "--per-window") c.per_window = true;
    else usage_error("unknown argument " + arg);
  }
  if (c.cases.empty()) c.cases = {"tsubame", "esp"};
  const std::vector<std::string> solvers = window_solver_names();
  if (std::find(solvers.begin(), solvers.end(), c.solver) == solvers.end())
    usage_error("unknown solver " + c.solver);
  return c;
}

// Every window problem the scheduler solved while replaying the case (seed 1).
std::vector<WindowProblem> capture(const ReplayCase& c) {
  hs::Cluster cluster = *hs::builtin_cluster(c.cluster);
  hs::Workload workload = hs::generate_workload(c.workload, cluster, 1);
  hs::bind_workload(cluster, workload);
  // The windows docs/solver.md measured: no reservation dimensions (the default until
  // starvation=reserve became it).
  hs::Params params = hs::Params::parse("starvation=none", "<bench>");
  auto scheduler = hs::make_window_scheduler(c.scheduler, params);
  std::vector<WindowProblem> problems;
  dynamic_cast<hs::window::WindowScheduler&>(*scheduler).observe_problems(
      [&problems](const WindowProblem& p) { problems.push_back(p); });
  hs::simulate(cluster, workload, *scheduler, hs::SimConfig{});
  return problems;
}

std::vector<WindowProblem> largest(std::vector<WindowProblem> problems, int count,
                                   std::size_t max_bids) {
  if (max_bids > 0)
    problems.erase(std::remove_if(problems.begin(), problems.end(),
                                  [max_bids](const auto& p) { return p.bids.size() > max_bids; }),
                   problems.end());
  std::stable_sort(problems.begin(), problems.end(), [](const auto& a, const auto& b) {
    if (a.bids.size() != b.bids.size()) return a.bids.size() > b.bids.size();
    return a.job_count > b.job_count;
  });
  if (static_cast<int>(problems.size()) > count) problems.resize(static_cast<std::size_t>(count));
  return problems;
}

void run_case(const Config& config, const ReplayCase& c) {
  const std::vector<WindowProblem> captured = capture(c);
  const std::vector<WindowProblem> problems = largest(captured, config.windows, config.max_bids);
  auto solver = make_window_solver(config.solver);
  auto cbc = config.with_cbc && cbc_available() ? make_window_solver("cbc") : nullptr;
  std::vector<double> cpu_ms;
  double jobs = 0, bids = 0, mean_ratio = 0, min_ratio = 1.0;
  int proven = 0, compared = 0, none = 0, better = 0, worse = 0, close = 0;
  for (const WindowProblem& problem : problems) {
    jobs += problem.job_count;
    bids += static_cast<double>(problem.bids.size());
    const double start = thread_cpu_ms();
    const SolveResult r = solver->solve(problem, {});
    cpu_ms.push_back(thread_cpu_ms() - start);
    proven += r.status == SolveStatus::Optimal;
    if (config.per_window)
      std::printf("# %s %zu %zu %.17g %lld %s %.1f %.17g\n", c.name.c_str(), cpu_ms.size(),
                  problem.bids.size(), r.solution.objective, static_cast<long long>(r.effort),
                  r.status == SolveStatus::Optimal ? "optimal" : "feasible", cpu_ms.back(), r.bound);
    if (!cbc) continue;
    SolverOptions limit;
    limit.time_limit_s = config.cbc_limit_s;
    const SolveResult reference = cbc->solve(problem, limit);
    if (reference.call != CallStatus::Ok || reference.solution.objective <= 0.0) {
      ++none;
      continue;
    }
    const double ratio = r.solution.objective / reference.solution.objective;
    ++compared;
    mean_ratio += ratio;
    min_ratio = std::min(min_ratio, ratio);
    better += ratio > 1.0 + 1e-12;
    worse += ratio < 1.0 - 1e-12;
    close += ratio >= 1.0 - 1e-5;
  }
  const double n = std::max<double>(1.0, static_cast<double>(problems.size()));
  std::printf("%-8s %8zu %7zu %6.1f %7.0f | %8.2f %8.2f %3d", c.name.c_str(), captured.size(),
              problems.size(), jobs / n, bids / n, percentile(cpu_ms, 0.5), percentile(cpu_ms, 0.99),
              proven);
  if (cbc)
    std::printf(" | %3d %4d %4d %4d %4d %.6f %.6f", compared, none, better, worse, close,
                compared ? mean_ratio / compared : 0.0, min_ratio);
  std::printf("\n");
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  const Config config = parse(argc, argv);
  std::printf("captured windows: %d largest per replay%s, solver %s (default effort)%s\n",
              config.windows,
              config.max_bids > 0 ? (" of at most " + std::to_string(config.max_bids) + " bids").c_str() : "",
              config.solver.c_str(), config.with_cbc ? ", CBC with a time limit" : "");
  std::printf("case     captured  solved   jobs    bids |  cpu p50  cpu p99 opt%s\n",
              config.with_cbc ? " | cmp none >cbc <cbc ~cbc mean/cbc min/cbc" : "");
  for (const std::string& name : config.cases) {
    const auto* c = std::find_if(std::begin(kCases), std::end(kCases),
                                 [&name](const ReplayCase& k) { return k.name == name; });
    if (c == std::end(kCases)) usage_error("unknown case " + name + " (tsubame, esp)");
    run_case(config, *c);
  }
  std::printf("peak resident %.0f MiB (whole bench)\n", hs::peak_resident_mib());
  return 0;
}
