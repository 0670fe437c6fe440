#pragma once
// Runs the experiments of `hetsched reproduce`: experiments sharing a cluster and a workload
// become one comparison (run_comparison, identical inputs for all their schedulers), whose
// mean ± std per summary.csv field, checker violations and wall time are kept in
// <out>/<group>/result.csv so a later invocation with reuse can rebuild the document
// without rerunning.
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cli/executor_spec.hpp"
#include "cli/repro_data.hpp"

namespace hs::cli::repro {

struct RunGroup {
  std::string cluster, workload;        // shared by all schedulers of the group
  std::vector<std::string> schedulers;  // scheduler specs, first-seen order
  std::vector<std::string> tables;      // tables that read this group
  std::string dir;                      // <out>/gNN
};

struct RunSettings {
  int repeat = 5;
  int parallel = 2;
  ExecutorSpec executor;               // local processes or one Slurm job array per group
  std::uint64_t seed = 1;
  bool quick = false;
  bool reuse = false;  // take a group's finished result.csv instead of running it
  bool document_only = false;          // run nothing: reuse what is finished, list the rest
  std::set<std::string> workloads;     // keep only these published workload labels (empty = all)
  std::string out_dir = "out/reproduce";
};

struct MeanStd {
  double mean = 0, std = 0;
};

struct GroupResult {
  bool ran = false;        // false: the comparison failed or was not run
  bool skipped = false;    // not run (document_only and no finished result)
  bool reused = false;
  std::string error;       // why it did not run
  int repeat = 0;
  std::size_t jobs = 0;    // jobs in the first repetition's workload
  std::size_t runs = 0;
  std::size_t violations = 0;    // checker violations summed over all runs
  std::size_t failed_runs = 0;   // runs that crashed or had violations
  double wall_seconds = 0;
  std::vector<std::string> missing;  // schedulers of the group without results (document_only)
  std::string command;           // `hetsched compare ...` rerunning exactly this group
  std::map<std::string, std::map<std::string, MeanStd>> metrics;  // scheduler spec -> field
};

// The workload spec an experiment runs under the settings (quick spec in quick mode).
const std::string& workload_used(const Experiment& e, bool quick);

// Experiments of the chosen tables (all when `tables` is empty; quick mode keeps only the
// rows with a quick workload), grouped by (cluster, workload) in experiment-list order.
std::vector<RunGroup> plan_groups(const std::vector<Experiment>& experiments,
                                  const std::set<std::string>& tables, const RunSettings& s);

// The `hetsched compare` command equivalent to one group.
std::string compare_command(const RunGroup& g, int repeat, std::uint64_t seed, int parallel,
                            const std::string& executor = "local");

// Runs (or reuses) one group; never throws for a failing comparison (the error is kept).
GroupResult run_group(const RunGroup& g, const RunSettings& s);

}  // namespace hs::cli::repro
