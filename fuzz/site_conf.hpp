#pragma once
// The fixed slurm.conf that the gres.conf and topology.conf targets put next to the fuzzed
// file (load_slurm_conf reads both from the slurm.conf's directory).
#include <string_view>

namespace hs::fuzz {

inline constexpr std::string_view kSiteSlurmConf =
    "ClusterName=fuzz\n"
    "GresTypes=gpu,mic\n"
    "TopologyPlugin=topology/tree\n"
    "NodeName=DEFAULT Sockets=2 CoresPerSocket=8 ThreadsPerCore=1 RealMemory=64000\n"
    "NodeName=cn[01-04]\n"
    "NodeName=gn[01-04] Gres=gpu:k80:2,mic:1\n"
    "PartitionName=cpu Nodes=cn[01-04] Default=YES MaxTime=1-00:00:00\n"
    "PartitionName=gpu Nodes=gn[01-04]\n";

}  // namespace hs::fuzz
