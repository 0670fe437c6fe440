#pragma once
// Reader for a site's Slurm configuration: slurm.conf (NodeName, PartitionName, GresTypes,
// scheduler settings, Include), then gres.conf and topology.conf from the same directory
// when they exist. Details and every simplification: docs/input-formats.md.
#include <map>
#include <string>
#include <vector>

#include "model/cluster.hpp"
#include "util/error.hpp"

namespace hs {

struct SlurmConfig {
  std::string path;                             // the slurm.conf read
  Cluster cluster;                              // nodes in natural name order
  std::map<std::string, std::string> settings;  // scheduler-relevant keys, lower case
  std::map<std::string, InputLocation> setting_lines;  // where each setting was written
  std::vector<std::string> warnings;            // "file:line: ..." for ignored input
};

// InputError (file, line, key, value) for malformed values, unknown node or switch names,
// duplicate nodes or partitions, topology cycles and more than kMaxGresTypes gres types.
SlurmConfig load_slurm_conf(const std::string& path);

}  // namespace hs
