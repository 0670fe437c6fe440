#pragma once
// topology.conf (Slurm's topology/tree plugin): a tree of switches.
//   SwitchName=s0 Nodes=n[1-16]        leaf switch and the nodes below it
//   SwitchName=s8 Switches=s[0-7]      parent switch and its child switches
// Other keys (LinkSpeed, ...) are ignored with a warning.
#include <string>
#include <vector>

#include "model/cluster.hpp"

namespace hs {

// Builds and finalizes the tree over `cluster`'s nodes (names resolved to indices in the
// cluster's current order). InputError for unknown nodes or switches, duplicate switch
// names, a switch with both Nodes= and Switches=, a node under two leaves, a switch with
// two parents, and cycles. Nodes under no switch and several top switches give warnings.
SwitchTree read_topology_conf(const std::string& path, const Cluster& cluster,
                              std::vector<std::string>& warnings);

}  // namespace hs
