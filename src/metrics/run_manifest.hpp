#pragma once
// run.json: what produced a run's outputs — version and commit, the command line, the
// cluster, the workload with its seed, the decisions taken while reading it and the
// transformations applied to it (--add-gpus, --swf-partitions), and the
// scheduler with every effective option — so a result can be traced and re-run.
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace hs {

struct RunManifest {
  std::string version;    // "0.1.0 (commit ...)"
  std::string command;    // the command line as given
  std::string cluster;    // description (name, nodes, cores, gres, topology)
  std::string workload;   // generator spec or file path
  std::int64_t jobs = 0;  // jobs in the workload after reading
  std::uint64_t seed = 0;
  std::vector<std::string> input_notes;  // e.g. SWF records skipped, with counts
  // What the run did to the workload after reading it, with effective parameters, e.g.
  // "add-gpus fraction=0.3,gpus=2,gpus_max=0,gres=gpu (seed 1)", "swf-partitions 1=cpu".
  std::vector<std::string> transformations;
  std::string scheduler;
  std::string options;    // effective options, "key=value, ..."
  std::vector<std::string> site_options;  // "key=value" of those taken from slurm.conf
};

void write_run_manifest(std::ostream& out, const RunManifest& manifest);
// Writes DIR/run.json; throws InputError when the file cannot be written.
void write_run_manifest(const std::string& dir, const RunManifest& manifest);

}  // namespace hs
