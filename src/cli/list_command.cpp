#include "cli/list_command.hpp"

#include <fstream>
#include <iostream>
#include <string>

#include "cli/args.hpp"
#include "cli/exit_codes.hpp"
#include "cli/run_setup.hpp"
#include "io/builtin_clusters.hpp"
#include "io/job_file.hpp"
#include "policy/registry.hpp"
#include "solver/solvers.hpp"
#include "util/error.hpp"
#include "workload/registry.hpp"

namespace hs::cli {

namespace {

void print_row(const std::string& name, const std::string& text) {
  std::string left = "  " + name;
  if (left.size() < 22) left.resize(22, ' ');
  else left += "  ";
  std::cout << left << text << "\n";
}

void list_clusters() {
  std::cout << "built-in clusters (or pass a path to slurm.conf):\n";
  for (const auto& [name, text] : builtin_cluster_list()) print_row(name, text);
  print_row(std::string(kTraceClusterSpec),
            "the machine an SWF trace's header describes (MaxNodes, MaxProcs); the default "
            "for an SWF --workload");
}

void list_workloads() {
  std::cout << "workload generators (--workload NAME[:key=value,...], or a job file / SWF trace):\n";
  for (const auto& g : workload_generators()) {
    print_row(g.name, g.description);
    std::string::size_type start = 0;
    while (start < g.params.size()) {  // one parameter per line
      const auto end = g.params.find("; ", start);
      print_row("", g.params.substr(start, end - start));
      start = end == std::string::npos ? g.params.size() : end + 2;
    }
  }
}

void list_schedulers() {
  std::cout << "schedulers (--scheduler NAME[:key=value,...]):\n";
  for (const auto& s : scheduler_list()) print_row(s.name, s.description);
}

void list_options(const std::string& scheduler) {
  const BuiltScheduler built = make_scheduler(scheduler, {});
  std::cout << "options of " << scheduler << " (--scheduler " << scheduler
            << ":key=value,... or --opt key=value):\n";
  for (const auto& doc : built.option_docs)
    print_row(doc.key, doc.description + " (default " + doc.default_value + ", " + doc.allowed + ")");
}

void list_solvers() {
  std::cout << "window solvers (option solver=NAME of the window schedulers):\n";
  for (const auto& s : solver::window_solver_names())
    print_row(s, std::string(solver::window_solver_summary(s)));
}

}  // namespace

int run_list_command(int argc, char** argv) {
  const std::string what = argc > 2 ? argv[2] : "all";
  if (what == "-h" || what == "--help") {
    std::cout << "usage: hetsched list [clusters|workloads|schedulers|solvers]\n"
                 "       hetsched list options SCHEDULER   (every option with default and range)\n";
    return kExitOk;
  }
  if (what == "options") {
    if (argc < 4) throw InputError({"<command line>", 0}, "list options", "", "name a scheduler");
    list_options(argv[3]);
    return kExitOk;
  }
  const bool all = what == "all";
  if (!all && what != "clusters" && what != "workloads" && what != "schedulers" && what != "solvers")
    throw InputError({"<command line>", 0}, "list", what,
                     "expected clusters, workloads, schedulers or solvers");
  if (all || what == "clusters") list_clusters();
  if (all || what == "workloads") list_workloads();
  if (all || what == "schedulers") list_schedulers();
  if (all || what == "solvers") list_solvers();
  return kExitOk;
}

int run_generate_command(int argc, char** argv) {
  Args args("generate", "Draws a workload from a generator and writes it as a job file\n"
                        "(docs/job-format.md), ready for --workload FILE.");
  args.declare({"workload", "SPEC", "generator spec name[:k=v,...]", kDefaultWorkload});
  args.declare({"cluster", "NAME|FILE", "cluster the sizes refer to", kDefaultCluster});
  args.declare({"seed", "N", "generator seed", "1"});
  args.declare({"add-gpus", "RULE", "add GPU requests, e.g. fraction=0.3,gpus=2", ""});
  args.declare({"out", "FILE", "output job file ('-' = stdout)", "-"});
  args.parse(argc, argv, 2);
  if (args.help_requested()) {
    std::cout << args.usage();
    return kExitOk;
  }
  const Cluster cluster = load_cluster(args.get("cluster", kDefaultCluster));
  const auto seed = static_cast<std::uint64_t>(args.get_int("seed", 1, 0, INT64_MAX));
  const Workload w = load_workload(args.get("workload", kDefaultWorkload), cluster, seed,
                                   args.get("add-gpus", ""));
  const std::string out = args.get("out", "-");
  if (out == "-") {
    write_job_file(w, std::cout);
    return kExitOk;
  }
  std::ofstream file(out);
  if (!file) throw InputError({out, 0}, "--out", out, "cannot open for writing");
  write_job_file(w, file);
  std::cerr << "wrote " << w.jobs.size() << " jobs to " << out << "\n";
  return kExitOk;
}

}  // namespace hs::cli
