#pragma once
// Loading what a run needs from command-line specs: cluster, workload, scheduler. Shared by
// `simulate`, `compare` and `generate`.
#include <cstdint>
#include <string>
#include <vector>

#include "model/cluster.hpp"
#include "model/job.hpp"
#include "util/params.hpp"

namespace hs::cli {

inline constexpr const char* kDefaultCluster = "paper1024";
inline constexpr const char* kDefaultWorkload = "esp-het";
inline constexpr const char* kDefaultScheduler = "backfill";

// A built-in cluster name, a path to a slurm.conf (gres.conf/topology.conf beside it), or
// `trace`: the machine the header of the SWF trace `workload_spec` describes. Prints the
// reader's warnings. `slurm_options`: what a slurm.conf sets for the Slurm model.
Cluster load_cluster(const std::string& spec, std::vector<OptionDefault>* slurm_options = nullptr,
                     const std::string& workload_spec = "");

// The --cluster a run without one uses: `trace` for an SWF trace file (its header's
// machine), the documents' machine (kDefaultCluster) for anything else.
std::string default_cluster_for(const std::string& workload_spec);

// Whether a --workload spec names a file rather than a generator: it contains '/', its name
// part (before any ':') has a '.' (tiny.jobs, t.swf.gz, ./x), or the path exists. Generator
// names have neither, so a mistyped or missing file is reported as a file, not as an
// unknown generator.
bool names_a_file(const std::string& spec);

// What a run does to its workload after reading it (command-line options; empty = nothing).
struct WorkloadInputs {
  std::string add_gpus;        // --add-gpus: GPU rule, e.g. "fraction=0.3,gpus=2"
  std::string swf_partitions;  // --swf-partitions: SWF partition map, e.g. "1=cpu,2=gpu"
};

// A path to a job file / SWF trace / sacct dump, or a generator spec "name[:k=v,...]" drawn
// with `seed`, transformed as `inputs` says (docs/workloads.md, docs/input-formats.md).
// InputError for a partition map on anything but an SWF trace, or naming a partition the
// cluster does not have.
Workload load_workload(const std::string& spec, const Cluster& cluster, std::uint64_t seed,
                       const WorkloadInputs& inputs);
// The same with only a GPU rule (may be empty).
Workload load_workload(const std::string& spec, const Cluster& cluster, std::uint64_t seed,
                       const std::string& gpu_rule);

// One line per transformation `inputs` applies, with its effective parameters, e.g.
// "add-gpus fraction=0.3,gpus=2,gpus_max=0,gres=gpu (seed 1)"; for run headers and run.json.
std::vector<std::string> describe_inputs(const WorkloadInputs& inputs, std::uint64_t seed);

// Creates the output directory `dir` and checks that a file can be written in it, before any
// run starts; InputError naming `--out` and the directory otherwise.
void prepare_output_dir(const std::string& dir);

// One line describing a cluster: nodes, cores, gres totals, topology.
std::string describe_cluster(const Cluster& cluster);

}  // namespace hs::cli
