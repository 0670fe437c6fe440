// Window-solve latency and quality of the specialised solvers on seeded random windows.
// Usage: bench_window_solver [--instances N] [--cbc] [--cbc-limit S] [--solver NAME]
//                            [--effort N] [--json PATH] [--quick] [--cbc-cache PATH]
//                            [--shape NODESxJOBSxBIDS] [--busy FRACTION] [--first-instance K]
//                            [--per-instance] [--lp-bound] [--lp-iterations N]
//                            [--write-windows DIR] [--parts K] [--whole]
// --shape 1024x200x15 runs only the given shapes (repeatable). --busy (default 0.5) is the
// share of nodes running jobs already use in part: 0.0 gives every job its 15 distinct
// placements (about 2,900 bids per 200-job window), 0.5 about 8 (1,700 bids).
// --first-instance K draws windows K..K+N-1 (fresh windows beside the cached 0..N-1).
// --per-instance prints each window's objective and effort ("# shape instance objective
// effort status cpu-ms ms cbc cbc-objective [optimal] bound bound bound-source"), e.g. to
// compare two effort limits window by window.
// --lp-bound solves every window twice, without and with SolverOptions::lp_bound, stops if
// the two answers differ, and prints under each row the gap to the bound before and after,
// how often the LP bound was the tighter one, and the CPU time of the LP bound alone
// (window_lp_bound on the same window, timed separately); the row itself is the run with it.
// --lp-iterations sets its pivot cap (SolverOptions::lp_bound_iterations).
// --write-windows DIR also saves every window drawn as DIR/NODESxJOBSxBIDS-busyB-K.json
// (docs/window-format.md), so `hetsched solve` and other solvers (`--export mps`) can be
// run on exactly the bench's windows.
// --parts K draws K windows of the shape (seeds apart) and sets them side by side as one
// window of K independent parts (K x NODES nodes, K x JOBS jobs); --whole makes the solver
// solve every window whole (SolverOptions::split_parts off), for the before-and-after.
// Not with --cbc-cache (its lines do not name the parts).
// JSON goes to out/bench/bench_window_solver.json unless --json says otherwise.
// --cbc-cache keeps CBC's objective per instance in a text file ("nodes jobs bids instance
// objective" per line) so repeated runs while tuning skip the 3-5 s CBC solves.
// Prints one row per configuration and writes the same as JSON stamped with the setup.
// Times are thread CPU time (the target is "one core" on a shared machine) plus wall p50.
// CBC columns: instances compared, instances where CBC returned nothing in its limit, how
// many the solver beat / lost to / came within 1e-5 of (relative), and the mean and worst
// objective ratio solver / CBC; then the windows both proved optimal and how many of those
// differ in objective (a proven optimum must equal CBC's; cached CBC answers count as
// unproven).
#include <time.h>

#include <algorithm>
#include <cmath>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "solver/compact_problem.hpp"
#include "solver/mip_model.hpp"
#include "solver/random_instances.hpp"
#include "solver/solvers.hpp"
#include "solver/window_lp_bound.hpp"
#include "util/memory_usage.hpp"
#include "window_file/window_file.hpp"

namespace {

using namespace hs::solver;

struct Config {
  int instances = 20;
  int first_instance = 0;  // --first-instance: draw windows first..first+instances-1
  bool with_cbc = false;
  double cbc_limit_s = 5.0;
  std::string solver = "lagrangian";
  std::int64_t effort = 0;
  std::string json_path = "out/bench/bench_window_solver.json";
  bool quick = false;
  bool per_instance = false;
  std::string cbc_cache;
  double busy_node_fraction = 0.5;  // --busy: share of nodes partly used by running jobs
  std::vector<std::array<int, 3>> shapes;  // --shape NODESxJOBSxBIDS (repeatable)
  bool lp_bound = false;           // --lp-bound: solve without and with the LP bound
  std::int64_t lp_iterations = 0;  // --lp-iterations: its pivot cap (0 = default)
  std::string write_windows_dir;   // --write-windows: save each window drawn here
  int parts = 1;                   // --parts: independent windows side by side
  bool whole = false;              // --whole: SolverOptions::split_parts off
};

struct Case {
  std::int32_t nodes, jobs, bids;
};

struct Row {
  Case shape;
  double p50_ms = 0, p99_ms = 0, max_ms = 0, wall_p50_ms = 0, mean_gap = 0, max_gap = 0;
  int proven = 0;
  double mean_effort = 0;
  std::int64_t max_effort = 0;  // the effort limit should cap this
  double mean_bids = 0;  // bids per window (distinct placements found)
  int cbc_compared = 0, cbc_worse = 0, cbc_better = 0, cbc_none = 0, cbc_close = 0;
  // Windows both proved optimal, and how many of those have different objectives (> 1e-9
  // relative): a proven optimum must equal CBC's.
  int both_proven = 0, proven_mismatch = 0;
  double min_ratio_to_cbc = 1.0, mean_ratio_to_cbc = 1.0;
  // --lp-bound: gap without the LP bound, the LP bound's own CPU time and pivots, how often
  // it was the reported bound and how often its LP ended optimal.
  double before_mean_gap = 0, before_max_gap = 0, lp_p50_ms = 0, lp_p99_ms = 0, lp_max_ms = 0;
  double lp_mean_iterations = 0;
  int lp_tighter = 0, lp_optimal = 0;
};

// CPU time of this thread: the machine may be shared, and the target is "on one core".
double thread_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return 1000.0 * static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e6;
}

double percentile(std::vector<double> values, double q) {
  std::sort(values.begin(), values.end());
  const auto index = static_cast<std::size_t>(q * static_cast<double>(values.size() - 1) + 0.5);
  return values[std::min(index, values.size() - 1)];
}

Config parse(int argc, char** argv) {
  Config c;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "missing value after %s\n", arg.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (arg == "--instances") c.instances = std::stoi(next());
    else if (arg == "--first-instance") c.first_instance = std::stoi(next());
    else if (arg == "--cbc") c.with_cbc = true;
    else if (arg == "--cbc-limit") c.cbc_limit_s = std::stod(next());
    else if (arg == "--solver") c.solver = next();
    else if (arg == "--effort") c.effort = std::stoll(next());
    else if (arg == "--json") c.json_path = next();
    else if (arg == "--quick") c.quick = true;
    else if (arg == "--per-instance") c.per_instance = true;
    else if (arg == "--cbc-cache") c.cbc_cache = next();
    else if (arg == "--busy") c.busy_node_fraction = std::stod(next());
    else if (arg == "--lp-bound") c.lp_bound = true;
    else if (arg == "--lp-iterations") c.lp_iterations = std::stoll(next());
    else if (arg == "--write-windows") c.write_windows_dir = next();
    else if (arg == "--parts") c.parts = std::max(1, std::stoi(next()));
    else if (arg == "--whole") c.whole = true;
    else if (arg == "--shape") {
      std::array<int, 3> shape{};
      if (std::sscanf(next().c_str(), "%dx%dx%d", &shape[0], &shape[1], &shape[2]) != 3) {
        std::fprintf(stderr, "--shape wants NODESxJOBSxBIDS\n");
        std::exit(2);
      }
      c.shapes.push_back(shape);
    }
    else {
      std::fprintf(stderr, "unknown argument %s\n", arg.c_str());
      std::exit(2);
    }
  }
  if (c.parts > 1 && !c.cbc_cache.empty()) {
    std::fprintf(stderr, "--parts does not go with --cbc-cache (its lines do not name the parts)\n");
    std::exit(2);
  }
  return c;
}

RandomWindowSpec spec_for(const Config& config, const Case& shape, int instance) {
  RandomWindowSpec spec;
  spec.busy_node_fraction = config.busy_node_fraction;
  spec.nodes = shape.nodes;
  spec.jobs = shape.jobs;
  spec.max_bids_per_job = shape.bids;
  spec.cores_per_node = 12;  // TSUBAME-like nodes
  spec.gpus_per_node = 3;
  spec.seed = 1000003ULL * static_cast<std::uint64_t>(shape.nodes) + 7919ULL * shape.jobs +
              31ULL * shape.bids + static_cast<std::uint64_t>(instance);
  return spec;
}

// Instance `instance` of the shape; with --parts K, K windows of the shape (their seeds apart)
// side by side: nodes and jobs of the k-th follow those of the ones before.
WindowProblem draw_window(const Config& config, const Case& shape, int instance) {
  WindowProblem window = make_random_window(spec_for(config, shape, instance));
  for (int k = 1; k < config.parts; ++k) {
    RandomWindowSpec spec = spec_for(config, shape, instance);
    spec.seed += 0x9e3779b97f4a7c15ULL * static_cast<std::uint64_t>(k);
    append_beside(window, make_random_window(spec));
  }
  return window;
}

// --write-windows: the window as a window file, named by shape, busy share and instance.
void write_window(const Config& config, const Case& shape, int instance,
                  const WindowProblem& problem) {
  std::filesystem::create_directories(config.write_windows_dir);
  char name[96];
  std::snprintf(name, sizeof name, "%dx%dx%d-busy%g%s-%d.json", shape.nodes, shape.jobs,
                shape.bids, config.busy_node_fraction,
                config.parts > 1 ? ("-parts" + std::to_string(config.parts)).c_str() : "", instance);
  hs::window_file::WindowFile file;
  file.problem = problem;
  file.dimension_names = {"cores", "gpus"};  // make_random_window's two dimensions
  hs::window_file::write_window_file(config.write_windows_dir + "/" + name, file);
}

struct CbcAnswer {
  double objective = -1.0;  // negative: CBC crashed or found nothing in its time
  bool proven = false;      // CBC proved it optimal (unknown, so false, when cached)
};

// CBC's objective for an instance: from the cache when present, else solved (and cached).
CbcAnswer cbc_objective(const Config& config, WindowSolver& cbc, const WindowProblem& problem,
                     const Case& shape, int instance) {
  if (!config.cbc_cache.empty()) {
    std::ifstream in(config.cbc_cache);
    long long n, j, b, i;
    double objective;
    while (in >> n >> j >> b >> i >> objective)
      if (n == shape.nodes && j == shape.jobs && b == shape.bids && i == instance)
        return {objective, false};
  }
  SolverOptions cbc_options;
  cbc_options.time_limit_s = config.cbc_limit_s;
  const SolveResult c = cbc.solve(problem, cbc_options);
  const double objective =
      c.call != CallStatus::Ok || c.solution.objective <= 0.0 ? -1.0 : c.solution.objective;
  if (!config.cbc_cache.empty()) {
    std::ofstream out(config.cbc_cache, std::ios::app);
    out.precision(17);
    out << shape.nodes << ' ' << shape.jobs << ' ' << shape.bids << ' ' << instance << ' '
        << objective << '\n';
  }
  return {objective, c.call == CallStatus::Ok && c.status == SolveStatus::Optimal};
}

struct LpSamples {
  std::vector<double> gaps_before, cpu_ms;
};

// --lp-bound: the same window without the LP bound (its answer must be identical) and the
// LP bound alone, timed.
void compare_lp_bound(const Config& config, WindowSolver& solver, const WindowProblem& problem,
                      const SolveResult& with_lp, Row& row, LpSamples& samples) {
  SolverOptions options;
  options.effort_limit = config.effort;
  options.split_parts = !config.whole;
  const SolveResult without = solver.solve(problem, options);
  if (without.solution.bid_of_job != with_lp.solution.bid_of_job) {
    std::fprintf(stderr, "the LP bound changed the answer\n");
    std::exit(1);
  }
  samples.gaps_before.push_back(without.gap);
  row.lp_tighter += with_lp.bound_source == BoundSource::Lp;
  const CompactProblem compact = compact_used_nodes(problem);
  LpBoundOptions lp_options;
  if (config.lp_iterations > 0) lp_options.max_iterations = config.lp_iterations;
  const double cpu_start = thread_cpu_ms();
  const LpBound lp = window_lp_bound(compact, lp_options);
  samples.cpu_ms.push_back(thread_cpu_ms() - cpu_start);
  row.lp_optimal += lp.optimal;
  row.lp_mean_iterations += static_cast<double>(lp.iterations) / config.instances;
}

void summarize_lp(const LpSamples& s, Row& row) {
  if (s.cpu_ms.empty()) return;
  for (double g : s.gaps_before) row.before_mean_gap += g / static_cast<double>(s.gaps_before.size());
  row.before_max_gap = *std::max_element(s.gaps_before.begin(), s.gaps_before.end());
  row.lp_p50_ms = percentile(s.cpu_ms, 0.50);
  row.lp_p99_ms = percentile(s.cpu_ms, 0.99);
  row.lp_max_ms = *std::max_element(s.cpu_ms.begin(), s.cpu_ms.end());
}

Row run_case(const Config& config, const Case& shape) {
  Row row{shape};
  auto solver = make_window_solver(config.solver);
  auto cbc = config.with_cbc && cbc_available() ? make_window_solver("cbc") : nullptr;
  std::vector<double> ms, cpu_ms, gaps, ratios;
  LpSamples lp_samples;
  for (int i = config.first_instance; i < config.first_instance + config.instances; ++i) {
    const WindowProblem problem = draw_window(config, shape, i);
    if (!config.write_windows_dir.empty()) write_window(config, shape, i, problem);
    row.mean_bids += static_cast<double>(problem.bids.size()) / config.instances;
    SolverOptions options;
    options.effort_limit = config.effort;
    options.lp_bound = config.lp_bound;
    options.lp_bound_iterations = config.lp_iterations;
    options.split_parts = !config.whole;
    const double cpu_start = thread_cpu_ms();
    const SolveResult r = solver->solve(problem, options);
    cpu_ms.push_back(thread_cpu_ms() - cpu_start);
    if (r.call != CallStatus::Ok) {
      std::fprintf(stderr, "solve failed: %s\n", r.message.c_str());
      std::exit(1);
    }
    ms.push_back(1000.0 * r.seconds);
    gaps.push_back(r.gap);
    row.proven += r.status == SolveStatus::Optimal;
    row.mean_effort += static_cast<double>(r.effort) / config.instances;
    row.max_effort = std::max(row.max_effort, r.effort);
    if (config.lp_bound) compare_lp_bound(config, *solver, problem, r, row, lp_samples);
    const CbcAnswer cbc_answer = cbc ? cbc_objective(config, *cbc, problem, shape, i) : CbcAnswer{};
    if (config.per_instance)
      std::printf("# %dx%dx%d %d %.17g %lld %s %.1f ms cbc %.17g%s bound %.17g %s\n", shape.nodes,
                  shape.jobs, shape.bids, i, r.solution.objective, static_cast<long long>(r.effort),
                  r.status == SolveStatus::Optimal ? "optimal" : "feasible", cpu_ms.back(),
                  cbc_answer.objective, cbc_answer.proven ? " optimal" : "", r.bound,
                  bound_source_name(r.bound_source));
    if (!cbc) continue;
    const double cbc_value = cbc_answer.objective;
    if (cbc_value <= 0.0) {
      ++row.cbc_none;  // CBC crashed or found nothing in its time
      continue;
    }
    ++row.cbc_compared;
    if (cbc_answer.proven && r.status == SolveStatus::Optimal) {
      ++row.both_proven;
      row.proven_mismatch += std::fabs(r.solution.objective - cbc_value) > 1e-9 * cbc_value;
    }
    const double ratio = r.solution.objective / cbc_value;
    ratios.push_back(ratio);
    row.cbc_worse += ratio < 1.0 - 1e-12;
    row.cbc_better += ratio > 1.0 + 1e-12;
    row.cbc_close += ratio >= 1.0 - 1e-5;  // same started jobs, placements within preferences
  }
  row.p50_ms = percentile(cpu_ms, 0.50);
  row.p99_ms = percentile(cpu_ms, 0.99);
  row.max_ms = *std::max_element(cpu_ms.begin(), cpu_ms.end());
  row.wall_p50_ms = percentile(ms, 0.50);
  summarize_lp(lp_samples, row);
  for (double g : gaps) row.mean_gap += g / static_cast<double>(gaps.size());
  row.max_gap = *std::max_element(gaps.begin(), gaps.end());
  if (!ratios.empty()) {
    row.min_ratio_to_cbc = *std::min_element(ratios.begin(), ratios.end());
    row.mean_ratio_to_cbc = 0.0;
    for (double q : ratios) row.mean_ratio_to_cbc += q / static_cast<double>(ratios.size());
  }
  return row;
}

void print_row(const Row& r, bool with_cbc) {
  std::printf("%6d %5d %4d %6.0f | %8.2f %8.2f %8.2f %8.2f | %9.2e %9.2e %3d | %10.0f %10lld", r.shape.nodes,
              r.shape.jobs, r.shape.bids, r.mean_bids, r.p50_ms, r.p99_ms, r.max_ms, r.wall_p50_ms, r.mean_gap, r.max_gap,
              r.proven, r.mean_effort, static_cast<long long>(r.max_effort));
  if (with_cbc)
    std::printf(" | %3d %4d %4d %4d %4d %.6f %.6f | %4d %4d", r.cbc_compared, r.cbc_none, r.cbc_better,
                r.cbc_worse, r.cbc_close,
                r.mean_ratio_to_cbc, r.min_ratio_to_cbc, r.both_proven, r.proven_mismatch);
  std::printf("\n");
}

void print_lp_row(const Row& r) {
  std::printf("    lp bound: gap mean %.2e -> %.2e, max %.2e -> %.2e; LP cpu p50 %.2f p99 %.2f "
              "max %.2f ms, %.0f pivots; reported bound from the LP %d, LP optimal %d\n",
              r.before_mean_gap, r.mean_gap, r.before_max_gap, r.max_gap, r.lp_p50_ms, r.lp_p99_ms,
              r.lp_max_ms, r.lp_mean_iterations, r.lp_tighter, r.lp_optimal);
}

std::string git_commit() {
  std::string commit = "unknown";
  if (FILE* pipe = popen("git rev-parse --short HEAD 2>/dev/null", "r")) {
    char buffer[64] = {};
    if (std::fgets(buffer, sizeof buffer, pipe)) {
      commit = buffer;
      commit.erase(commit.find_last_not_of("\n") + 1);
    }
    pclose(pipe);
  }
  return commit;
}

void write_json(const Config& c, const std::vector<Row>& rows) {
  const std::filesystem::path parent = std::filesystem::path(c.json_path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent);
  std::ofstream out(c.json_path);
  out << "{\n  \"bench\": \"window_solver\",\n  \"commit\": \"" << git_commit() << "\",\n"
      << "  \"config\": {\"solver\": \"" << c.solver << "\", \"instances\": " << c.instances
      << ", \"first_instance\": " << c.first_instance
      << ", \"effort_limit\": " << c.effort << ", \"cbc\": " << (c.with_cbc ? "true" : "false")
      << ", \"cbc_limit_s\": " << c.cbc_limit_s << ", \"busy_node_fraction\": " << c.busy_node_fraction
      << ", \"lp_bound\": " << (c.lp_bound ? "true" : "false")
      << ", \"lp_iterations\": " << c.lp_iterations
      << ", \"node\": {\"cores\": 12, \"gpus\": 3}, \"generator\": \"make_random_window defaults\"},\n"
      << "  \"rows\": [\n";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    out << "    {\"nodes\": " << r.shape.nodes << ", \"jobs\": " << r.shape.jobs
        << ", \"bids_per_job\": " << r.shape.bids << ", \"mean_bids\": " << r.mean_bids
        << ", \"cpu_p50_ms\": " << r.p50_ms
        << ", \"cpu_p99_ms\": " << r.p99_ms << ", \"cpu_max_ms\": " << r.max_ms
        << ", \"wall_p50_ms\": " << r.wall_p50_ms
        << ", \"mean_gap\": " << r.mean_gap << ", \"max_gap\": " << r.max_gap
        << ", \"proven_optimal\": " << r.proven << ", \"mean_effort\": " << r.mean_effort
        << ", \"max_effort\": " << r.max_effort;
    if (c.lp_bound)
      out << ", \"gap_without_lp_mean\": " << r.before_mean_gap << ", \"gap_without_lp_max\": "
          << r.before_max_gap << ", \"lp_cpu_p50_ms\": " << r.lp_p50_ms << ", \"lp_cpu_p99_ms\": "
          << r.lp_p99_ms << ", \"lp_cpu_max_ms\": " << r.lp_max_ms << ", \"lp_mean_pivots\": "
          << r.lp_mean_iterations << ", \"bound_from_lp\": " << r.lp_tighter
          << ", \"lp_optimal\": " << r.lp_optimal;
    if (c.with_cbc)
      out << ", \"cbc_compared\": " << r.cbc_compared << ", \"cbc_no_solution\": " << r.cbc_none
          << ", \"better_than_cbc\": " << r.cbc_better
          << ", \"worse_than_cbc\": " << r.cbc_worse << ", \"within_1e-5_of_cbc\": " << r.cbc_close << ", \"mean_ratio_to_cbc\": "
          << r.mean_ratio_to_cbc << ", \"min_ratio_to_cbc\": " << r.min_ratio_to_cbc
          << ", \"both_proven\": " << r.both_proven << ", \"proven_mismatch\": " << r.proven_mismatch;
    out << "}" << (i + 1 < rows.size() ? "," : "") << "\n";
  }
  out << "  ],\n  \"peak_rss_mib\": " << hs::peak_resident_mib() << "\n}\n";
}

}  // namespace

int main(int argc, char** argv) {
  const Config config = parse(argc, argv);
  std::vector<Case> cases;
  for (std::int32_t nodes : {128, 1024, 1408})
    for (std::int32_t jobs : {50, 200})
      for (std::int32_t bids : {15, 5}) cases.push_back({nodes, jobs, bids});
  if (config.quick) cases = {{1408, 200, 15}};
  if (!config.shapes.empty()) cases.clear();
  for (const auto& s : config.shapes) cases.push_back({s[0], s[1], s[2]});
  std::printf("window solver bench: solver=%s instances=%d effort=%lld cbc=%s (%.1f s)\n",
              config.solver.c_str(), config.instances, static_cast<long long>(config.effort),
              config.with_cbc ? "yes" : "no", config.cbc_limit_s);
  std::printf(" nodes  jobs bids  /win | cpu p50  cpu p99  cpu max wall p50 |  mean gap   max gap opt |"
              "     effort max effort%s\n", config.with_cbc ? " | cmp none >cbc <cbc ~cbc mean/cbc min/cbc | both-opt differ" : "");
  std::vector<Row> rows;
  for (const Case& shape : cases) {
    rows.push_back(run_case(config, shape));
    print_row(rows.back(), config.with_cbc);
    if (config.lp_bound) print_lp_row(rows.back());
    std::fflush(stdout);
  }
  write_json(config, rows);
  std::printf("wrote %s\npeak resident %.0f MiB (whole bench)\n", config.json_path.c_str(),
              hs::peak_resident_mib());
  return 0;
}
