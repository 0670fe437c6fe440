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

// A built-in cluster name or a path to a slurm.conf (gres.conf/topology.conf beside it).
// Prints the reader's warnings. `slurm_options`: what a slurm.conf sets for the Slurm model.
Cluster load_cluster(const std::string& spec, std::vector<OptionDefault>* slurm_options = nullptr);

// Whether a --workload spec names a file rather than a generator: it contains '/', its name
// part (before any ':') has a '.' (tiny.jobs, t.swf.gz, ./x), or the path exists. Generator
// names have neither, so a mistyped or missing file is reported as a file, not as an
// unknown generator.
bool names_a_file(const std::string& spec);

// A path to a job file / SWF trace, or a generator spec "name[:k=v,...]" drawn with `seed`.
// `gpu_rule` (may be empty) adds GPU requests, e.g. "fraction=0.3,gpus=2" (docs/workloads.md).
Workload load_workload(const std::string& spec, const Cluster& cluster, std::uint64_t seed,
                       const std::string& gpu_rule);

// Creates the output directory `dir` and checks that a file can be written in it, before any
// run starts; InputError naming `--out` and the directory otherwise.
void prepare_output_dir(const std::string& dir);

// One line describing a cluster: nodes, cores, gres totals, topology.
std::string describe_cluster(const Cluster& cluster);

}  // namespace hs::cli
