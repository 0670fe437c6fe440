#pragma once
// A comparison of schedulers on identical inputs, as a library call: `compare` is its CLI,
// `reproduce` runs one per published table.
#include <cstdint>
#include <string>
#include <vector>

#include "cli/executor_spec.hpp"
#include "report/comparison_report.hpp"

namespace hs::cli {

struct ComparisonSpec {
  std::string cluster;                  // built-in name or slurm.conf path
  std::string workload;                 // generator spec or file
  std::string add_gpus;                 // optional GPU rule for traces
  std::string swf_partitions;           // optional SWF partition map, "1=cpu,2=gpu"
  std::vector<std::string> schedulers;  // scheduler specs
  std::vector<std::string> options;     // "k=v" given to every scheduler
  int repeat = 1;                       // repetition r uses seed + r
  std::uint64_t seed = 1;
  int parallel = 1;                     // child processes at once (local executor)
  ExecutorSpec executor;                // local processes or a Slurm job array
  std::string out_dir;
  bool write_report = true;             // report.md/html with plots
  bool eurora_queues = false;           // add the Eurora queues to a cluster without partitions (matrix)
};

struct ComparisonResult {
  int exit_code = 0;                 // worst of the runs (cli/exit_codes.hpp)
  std::vector<std::string> failures; // one line per run that failed or had violations
  std::size_t jobs = 0;              // jobs per workload (first repetition)
  std::string cluster_text;
  ComparisonInput input;
  std::vector<MetricRow> rows;       // mean ± std per metric and scheduler
  ReportFiles files;                 // empty when write_report is false
  std::size_t runs = 0;
  double wall_seconds = 0;
};

ComparisonResult run_comparison(const ComparisonSpec& spec, const std::string& command_text);

// Where run (scheduler index, repetition) writes its outputs: <out>/runs/<label>/r<rep>.
std::string comparison_run_dir(const ComparisonSpec& spec, std::size_t scheduler, std::size_t rep);

// Run `index` (scheduler index * repeat + repetition) of a comparison alone, as one task of
// a Slurm job array does; its outputs are the ones run_comparison writes for that run.
int run_comparison_task(const ComparisonSpec& spec, std::size_t index);

// Metric × scheduler table, "mean ± std" cells, aligned for a terminal.
void print_comparison_table(const ComparisonResult& result, std::size_t repetitions);

}  // namespace hs::cli
