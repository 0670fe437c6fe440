#include "cli/matrix_command.hpp"

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

#include "cli/args.hpp"
#include "cli/comparison.hpp"
#include "cli/executor_spec.hpp"
#include "cli/exit_codes.hpp"
#include "cli/run_setup.hpp"
#include "cli/single_run.hpp"
#include "cli/version.hpp"
#include "policy/heuristic/heuristic_schedulers.hpp"
#include "report/run_files.hpp"
#include "sim/bind.hpp"
#include "util/error.hpp"
#include "workload/eurora.hpp"

namespace hs::cli {

namespace {

Args matrix_args() {
  Args args("matrix",
            "Runs every combination of the heterogeneity-aware dispatchers of Netti et al.\n"
            "(schedulers x allocators x duration predictors) on one workload, checks each run\n"
            "with the invariant checker and prints average slowdown, wait, queue size at\n"
            "dispatch times and load ratio per resource. Runs are independent; --jobs runs\n"
            "them in parallel with identical results.");
  args.declare({"cluster", "NAME|FILE", "built-in cluster name or path to slurm.conf", "eurora"});
  args.declare({"workload", "SPEC|FILE", "generator spec or job file", "eurora:days=30"});
  args.declare({"seed", "N", "seed of the workload generator", "1"});
  args.declare({"out", "DIR", "write matrix.csv there (default: CSV after the table)", ""});
  args.declare({"jobs", "N", "runs in parallel (threads, local executor)", "1"});
  args.declare({"executor", "local|slurm[:K=V,..]",
                "where runs execute: threads here, or one Slurm job array (needs --out; docs/sweeps.md)", "local"});
  args.declare({"schedulers", "LIST", "comma list out of fifo,sjf,easy,prb,cph", "fifo,sjf,easy,prb,cph"});
  args.declare({"allocators", "LIST", "comma list out of ff,bf,balanced,weighted,pweighted",
                "ff,bf,balanced,weighted,pweighted"});
  args.declare({"predictors", "LIST", "comma list out of walltime,datadriven,oracle",
                "walltime,datadriven,oracle"});
  return args;
}

std::vector<std::string> split_list(const std::string& text, const std::string& option,
                                    const std::vector<heuristic::NamedItem>& known) {
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item.empty()) continue;
    bool ok = false;
    for (const auto& k : known) ok |= k.name == item;
    if (!ok) throw InputError({"<command line>", 0}, option, item, "unknown name");
    out.push_back(item);
  }
  if (out.empty()) throw InputError({"<command line>", 0}, option, text, "empty list");
  return out;
}

struct Cell {
  std::string scheduler, allocator, predictor;
  Summary summary;
  std::size_t violations = 0;
  std::string first_violation;
  std::string failure;  // the run threw (a bug), empty otherwise
  double wall_seconds = 0;
};

void run_cells(const Cluster& cluster, const Workload& workload, std::vector<Cell>& cells,
               int threads) {
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> done{0};
  std::mutex err_mutex;
  auto worker = [&] {
    for (std::size_t i = next++; i < cells.size(); i = next++) {
      Cell& c = cells[i];
      RunRequest req;
      req.scheduler_spec = c.scheduler + "+" + c.allocator + "+" + c.predictor;
      try {
        const RunOutcome run = run_checked(cluster, workload, req);
        c.summary = run.summary;
        c.violations = run.check.violations.size();
        if (!run.check.ok()) c.first_violation = run.check.violations.front();
        c.wall_seconds = run.wall_seconds;
      } catch (const std::exception& e) {  // a policy bug: report it, keep the other runs
        c.failure = e.what();
      }
      const std::lock_guard<std::mutex> lock(err_mutex);  // progress only; stdout stays ordered
      std::fprintf(stderr, "[%zu/%zu] %s %.1f s\n", ++done, cells.size(), req.scheduler_spec.c_str(),
                   c.wall_seconds);
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
}

// What the matrix reads of a run's summary.csv, as a Slurm task wrote it.
Summary summary_from_run(const Cluster& cluster, const std::string& path) {
  const report::SummaryFile file = report::read_summary_file(path);
  std::map<std::string, double> v;
  for (std::size_t i = 0; i < file.metrics.size(); ++i) v[file.metrics[i]] = file.values[i];
  const auto count = [&](const char* name) { return static_cast<std::int64_t>(v[name]); };
  Summary s;
  s.jobs = count("jobs");
  s.completed = count("completed");
  s.killed = count("killed");
  s.rejected = count("rejected");
  s.stalled = count("stalled");
  s.slowdown.mean = v["slowdown_mean"];
  s.bounded_slowdown.mean = v["bounded_slowdown_mean"];
  s.wait.mean = v["wait_mean"];
  s.wait.max = v["wait_max"];
  s.queue_mean = v["queue_mean"];
  s.queue_max = count("queue_max");
  s.queue_time_mean = v["queue_time_mean"];
  s.load_ratio_cores = v["load_ratio_cores"];
  for (const std::string& g : cluster.gres_types) s.load_ratio_gres.push_back(v["load_ratio_" + g]);
  s.utilization = v["utilization"];
  return s;
}

// The cells as one comparison (repeat 1) through --executor slurm; each cell's summary and
// checker verdict are read back from its run directory under `out_dir`.
void run_cells_on_slurm(const Cluster& cluster, const std::string& cluster_spec,
                        const std::string& workload, std::uint64_t seed, const std::string& out_dir,
                        const ExecutorSpec& executor, std::vector<Cell>& cells) {
  ComparisonSpec spec;
  spec.cluster = cluster_spec;
  spec.workload = workload;
  for (const Cell& c : cells) spec.schedulers.push_back(c.scheduler + "+" + c.allocator + "+" + c.predictor);
  spec.repeat = 1;
  spec.seed = seed;
  spec.out_dir = out_dir;
  spec.write_report = false;
  spec.executor = executor;
  spec.eurora_queues = workload.rfind("eurora", 0) == 0;
  run_comparison(spec, "hetsched matrix --executor " + executor.text);
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const std::string dir = comparison_run_dir(spec, i, 0);
    std::ifstream check(dir + "/check.txt");
    std::string line;
    while (std::getline(check, line) && line.rfind("violations ", 0) != 0)
      if (line.rfind("wall_seconds ", 0) == 0) cells[i].wall_seconds = std::stod(line.substr(13));
    if (line.rfind("violations ", 0) != 0) {
      cells[i].failure = "no complete outputs in " + dir + " (task logs in " + out_dir + "/sweep/logs)";
      continue;
    }
    cells[i].violations = std::stoul(line.substr(11));
    if (cells[i].violations) std::getline(check, cells[i].first_violation);
    cells[i].summary = summary_from_run(cluster, dir + "/summary.csv");
  }
}

double gres_load(const Cluster& cluster, const Summary& s, const char* name) {
  const int t = cluster.gres_index(name);
  return t >= 0 && t < static_cast<int>(s.load_ratio_gres.size()) ? s.load_ratio_gres[t] : 0.0;
}

void print_table(const Cluster& cluster, const std::vector<Cell>& cells, std::ostream& out) {
  char line[256];
  std::snprintf(line, sizeof line, "%-5s %-9s %-10s %10s %10s %8s %6s %6s %6s %6s %5s %8s\n",
                "sched", "alloc", "pred", "slowdown", "wait_s", "queue", "ld_cpu", "ld_gpu",
                "ld_mic", "util", "viol", "wall_s");
  out << line;
  for (const Cell& c : cells) {
    const Summary& s = c.summary;
    std::snprintf(line, sizeof line,
                  "%-5s %-9s %-10s %10.2f %10.0f %8.2f %6.3f %6.3f %6.3f %6.3f %5zu %8.2f\n",
                  c.scheduler.c_str(), c.allocator.c_str(), c.predictor.c_str(), s.slowdown.mean,
                  s.wait.mean, s.queue_mean, s.load_ratio_cores, gres_load(cluster, s, "gpu"),
                  gres_load(cluster, s, "mic"), s.utilization, c.violations, c.wall_seconds);
    out << line;
  }
}

void write_csv(const Cluster& cluster, const std::vector<Cell>& cells, std::ostream& out) {
  out << "scheduler,allocator,predictor,jobs,completed,killed,rejected,stalled,slowdown_mean,"
         "bounded_slowdown_mean,wait_mean_s,wait_max_s,queue_mean_at_dispatch,queue_max,"
         "queue_time_mean,load_ratio_cores,load_ratio_gpu,load_ratio_mic,utilization,"
         "violations\n";
  for (const Cell& c : cells) {
    const Summary& s = c.summary;
    out << c.scheduler << ',' << c.allocator << ',' << c.predictor << ',' << s.jobs << ','
        << s.completed << ',' << s.killed << ',' << s.rejected << ',' << s.stalled << ','
        << s.slowdown.mean << ',' << s.bounded_slowdown.mean << ',' << s.wait.mean << ','
        << s.wait.max << ',' << s.queue_mean << ',' << s.queue_max << ',' << s.queue_time_mean
        << ',' << s.load_ratio_cores << ',' << gres_load(cluster, s, "gpu") << ','
        << gres_load(cluster, s, "mic") << ',' << s.utilization << ',' << c.violations << '\n';
  }
}

void print_prediction_errors(const Cluster& cluster, const Workload& workload) {
  Workload bound = workload;
  bind_workload(cluster, bound);
  std::cout << "predictor MAE (jobs replayed as if started at submission):";
  for (const auto& e : heuristic::prediction_errors(cluster, bound))
    std::cout << "  " << e.predictor << " " << static_cast<long long>(e.mean_abs_error_s / 60 + 0.5)
              << " min";
  std::cout << "\n\n";
}

}  // namespace

void add_eurora_queues(Cluster& cluster) {
  if (!cluster.partitions.empty()) return;
  std::vector<NodeIndex> all;
  for (NodeIndex n = 0; n < cluster.node_count(); ++n) all.push_back(n);
  for (const EuroraQueue& q : eurora_queues())
    cluster.partitions.push_back({q.name, all, q.max_time, q.default_time, 1, q.name == "parallel"});
}

int run_matrix_command(int argc, char** argv) {
  Args args = matrix_args();
  args.parse(argc, argv, 2);
  if (args.help_requested()) {
    std::cout << args.usage();
    return kExitOk;
  }
  const auto seed = static_cast<std::uint64_t>(args.get_int("seed", 1, 0, INT64_MAX));
  const int threads = static_cast<int>(args.get_int("jobs", 1, 1, 256));
  Cluster cluster = load_cluster(args.get("cluster", "eurora"));
  const std::string workload_spec = args.get("workload", "eurora:days=30");
  if (workload_spec.rfind("eurora", 0) == 0) add_eurora_queues(cluster);
  const Workload workload = load_workload(workload_spec, cluster, seed, "");
  const auto scheds = split_list(args.get("schedulers", "fifo,sjf,easy,prb,cph"), "schedulers",
                                 heuristic_scheduler_list());
  const auto allocs = split_list(args.get("allocators", "ff,bf,balanced,weighted,pweighted"),
                                 "allocators", heuristic_allocator_list());
  const auto preds = split_list(args.get("predictors", "walltime,datadriven,oracle"), "predictors",
                                heuristic_predictor_list());
  const std::string out_dir = args.get("out", "");
  const ExecutorSpec executor = parse_executor(args.get("executor", "local"));
  if (executor.slurm && out_dir.empty())
    throw InputError({"<command line>", 0}, "--executor", executor.text,
                     "needs --out DIR on a file system the cluster's nodes share");
  if (!out_dir.empty()) prepare_output_dir(out_dir);
  std::vector<Cell> cells;
  for (const auto& s : scheds)
    for (const auto& p : preds)
      for (const auto& a : allocs) cells.push_back({s, a, p, {}, 0, "", "", 0});

  std::cout << "hetsched " << version_string() << " matrix\n"
            << "cluster    " << describe_cluster(cluster) << "\n"
            << "workload   " << workload_spec << " (" << workload.jobs.size() << " jobs, seed "
            << seed << ")\n"
            << "runs       " << cells.size() << " on "
            << (executor.slurm ? "Slurm (one job array)" : std::to_string(threads) + " thread(s)")
            << "\n";
  print_prediction_errors(cluster, workload);
  if (executor.slurm)
    run_cells_on_slurm(cluster, args.get("cluster", "eurora"), workload_spec, seed, out_dir,
                       executor, cells);
  else
    run_cells(cluster, workload, cells, threads);
  print_table(cluster, cells, std::cout);

  if (out_dir.empty()) {
    std::cout << "\n";
    write_csv(cluster, cells, std::cout);
  } else {
    std::ofstream csv(out_dir + "/matrix.csv");
    write_csv(cluster, cells, csv);
    if (!csv) throw InputError({out_dir + "/matrix.csv", 0}, "out", out_dir, "cannot write");
    std::cout << "\ncsv        " << out_dir << "/matrix.csv\n";
  }
  int code = kExitOk;
  for (const Cell& c : cells) {
    if (!c.failure.empty()) {
      std::cout << "FAILED " << c.scheduler << "+" << c.allocator << "+" << c.predictor << ": "
                << c.failure << "\n";
      code = kExitInternal;
      continue;
    }
    if (c.violations == 0) continue;
    std::cout << "VIOLATIONS in " << c.scheduler << "+" << c.allocator << "+" << c.predictor
              << ": " << c.first_violation << "\n";
    if (code == kExitOk) code = kExitViolations;
  }
  return code;
}

}  // namespace hs::cli
