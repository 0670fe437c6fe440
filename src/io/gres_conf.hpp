#pragma once
// gres.conf: per-node device lists that override the counts slurm.conf's Gres= gives.
//   NodeName=n[1-4] Name=gpu Type=tesla File=/dev/nvidia[0-3]   -> 4 gpus (gpu:tesla) each
//   NodeName=n5 Name=mic Count=2                                  -> 2 mics
//   Name=gpu File=/dev/nvidia0          (no NodeName: every node whose slurm.conf Gres has gpu)
//   AutoDetect=nvml                     (ignored: devices cannot be probed offline)
// Several lines for the same node and name add up (one line per device type or file).
// Type= must be a kind slurm.conf's Gres= gives some node (gpu:tesla:N); the counts of a
// name replace slurm.conf's, its kinds included.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace hs {

// node name -> gres name -> count per node
using NodeGresTable = std::map<std::string, std::map<std::string, std::int64_t>>;

// Rewrites `table` for every (node, name) that gres.conf mentions. `known_types` are the
// gres names the cluster may use. InputError for unknown nodes or names, bad counts and
// lines without Name=; warnings for ignored keys.
void apply_gres_conf(const std::string& path, NodeGresTable& table,
                     const std::vector<std::string>& known_types,
                     std::vector<std::string>& warnings);

}  // namespace hs
