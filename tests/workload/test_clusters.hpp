#pragma once
// Small cluster builders for the workload tests (the built-in clusters live in io/).
#include <string>

#include "model/cluster.hpp"

namespace hs::test {

// n nodes x (cores, gpus per node[, mics per node]) named n1..nN, no topology.
inline Cluster uniform_cluster(int nodes, int cores, int gpus, int mics = 0) {
  Cluster c;
  c.name = "test" + std::to_string(nodes);
  c.gres_types = {"gpu"};
  if (mics > 0) c.gres_types.push_back("mic");
  for (int i = 0; i < nodes; ++i) {
    Node n;
    n.name = "n" + std::to_string(i + 1);
    n.cores = cores;
    n.gres = {gpus, mics, 0, 0};
    c.nodes.push_back(n);
  }
  return c;
}

inline Cluster paper1024() { return uniform_cluster(1024, 8, 2); }

// Eurora: 64 x 16 cores; nodes 1-32 with 2 GPUs, 33-64 with 2 MICs.
inline Cluster eurora_like() {
  Cluster c = uniform_cluster(64, 16, 0, 0);
  c.gres_types = {"gpu", "mic"};
  for (int i = 0; i < 64; ++i) c.nodes[i].gres = {i < 32 ? 2 : 0, i < 32 ? 0 : 2, 0, 0};
  return c;
}

}  // namespace hs::test
