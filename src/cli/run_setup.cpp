#include "cli/run_setup.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "io/builtin_clusters.hpp"
#include "io/job_file.hpp"
#include "io/slurm_time.hpp"
#include "model/request_fit.hpp"
#include "io/swf_reader.hpp"
#include "workload/gpu_rule.hpp"
#include "util/error.hpp"
#include "util/unwritable.hpp"
#include "workload/registry.hpp"

namespace hs::cli {

namespace {

bool is_trace_file(const std::string& workload_spec) {
  std::error_code ec;
  return names_a_file(workload_spec) && std::filesystem::is_regular_file(workload_spec, ec) &&
         is_swf_trace_file(workload_spec);
}

Cluster load_trace_cluster(const std::string& workload_spec, std::vector<std::string>& warnings) {
  if (!is_trace_file(workload_spec))
    throw InputError({"<command line>", 0}, "--cluster", std::string(kTraceClusterSpec),
                     "`trace` is the machine an SWF trace's header describes, but the workload '" +
                         workload_spec + "' is not an SWF trace file");
  return swf_trace_cluster(workload_spec, &warnings);
}

}  // namespace

std::string default_cluster_for(const std::string& workload_spec) {
  return is_trace_file(workload_spec) ? std::string(kTraceClusterSpec) : kDefaultCluster;
}

Cluster load_cluster(const std::string& spec, std::vector<OptionDefault>* slurm_options,
                     const std::string& workload_spec) {
  std::vector<std::string> warnings;
  Cluster cluster = spec == kTraceClusterSpec ? load_trace_cluster(workload_spec, warnings)
                                              : load_cluster_spec(spec, &warnings, slurm_options);
  for (const std::string& w : warnings) std::cerr << "hetsched: warning: " << w << "\n";
  return cluster;
}

namespace {

// Jobs planned with kUnlimitedPlanningTime are counted in the workload's notes, so that the
// run's header and run.json say which limit stood in for UNLIMITED.
void note_unlimited_jobs(const Cluster& cluster, Workload& workload) {
  const auto count = std::count_if(workload.jobs.begin(), workload.jobs.end(),
                                   [&](const Job& job) { return runs_unlimited(cluster, job); });
  if (count == 0) return;
  workload.notes.push_back(std::to_string(count) + " job(s) with time limit UNLIMITED and no "
                           "MaxTime: planned as running at most " +
                           format_slurm_time(kUnlimitedPlanningTime) +
                           " (Slurm's backfill horizon)");
}

const InputLocation kCommandLine{"<command line>", 0};

SwfOptions swf_options(const WorkloadInputs& inputs, const Cluster& cluster) {
  SwfOptions options;
  if (inputs.swf_partitions.empty()) return options;
  options.partitions =
      parse_swf_partition_map(inputs.swf_partitions, kCommandLine, "--swf-partitions");
  for (const auto& [number, name] : options.partitions)
    if (!cluster.partitions.empty() && cluster.find_partition(name) == nullptr)
      throw InputError(kCommandLine, "--swf-partitions", inputs.swf_partitions,
                       "cluster " + cluster.name + " has no partition '" + name + "'");
  return options;
}

}  // namespace

bool names_a_file(const std::string& spec) {
  std::error_code ec;
  const std::string name = spec.substr(0, spec.find(':'));
  return spec.find('/') != std::string::npos || name.find('.') != std::string::npos ||
         std::filesystem::exists(spec, ec);
}

Workload load_workload(const std::string& spec, const Cluster& cluster, std::uint64_t seed,
                       const WorkloadInputs& inputs) {
  const SwfOptions swf = swf_options(inputs, cluster);
  const bool file = names_a_file(spec);
  if (!file && !swf.partitions.empty())
    throw InputError(kCommandLine, "--swf-partitions", inputs.swf_partitions,
                     "applies to SWF traces; workload '" + spec + "' is a generator");
  Workload workload = file ? load_workload_file(spec, swf) : generate_workload(spec, cluster, seed);
  if (!inputs.add_gpus.empty()) add_gpu_requests(workload, parse_gpu_rule(inputs.add_gpus), seed);
  note_unlimited_jobs(cluster, workload);
  return workload;
}

Workload load_workload(const std::string& spec, const Cluster& cluster, std::uint64_t seed,
                       const std::string& gpu_rule) {
  return load_workload(spec, cluster, seed, WorkloadInputs{gpu_rule, ""});
}

std::vector<std::string> describe_inputs(const WorkloadInputs& inputs, std::uint64_t seed) {
  std::vector<std::string> lines;
  if (!inputs.add_gpus.empty())
    lines.push_back("add-gpus " + describe(parse_gpu_rule(inputs.add_gpus)) + " (seed " +
                    std::to_string(seed) + ")");
  if (!inputs.swf_partitions.empty())
    lines.push_back("swf-partitions " +
                    format_swf_partition_map(parse_swf_partition_map(
                        inputs.swf_partitions, kCommandLine, "--swf-partitions")));
  return lines;
}

void prepare_output_dir(const std::string& dir) {
  const InputLocation where{"<command line>", 0};
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    throw InputError(where, "--out", dir,
                     "cannot create the directory: " + why_not_creatable(dir, ec));
  const std::filesystem::path probe = std::filesystem::path(dir) / ".hetsched-write-test";
  const bool writable = static_cast<bool>(std::ofstream(probe));
  std::filesystem::remove(probe, ec);
  if (!writable)
    throw InputError(where, "--out", dir,
                     "cannot write files in the directory: " + why_not_writable(dir));
}

std::string describe_cluster(const Cluster& cluster) {
  std::string text = cluster.name + ": " + std::to_string(cluster.node_count()) + " nodes, " +
                     std::to_string(cluster.total_cores()) + " cores";
  for (std::size_t t = 0; t < cluster.gres_types.size(); ++t)
    text += ", " + std::to_string(cluster.total_gres(static_cast<int>(t))) + " " +
            cluster.gres_types[t];
  if (cluster.topology)
    text += ", switch tree of " + std::to_string(cluster.topology->switches.size()) +
            " switches (" + std::to_string(cluster.topology->max_level()) + " levels)";
  return text;
}

}  // namespace hs::cli
