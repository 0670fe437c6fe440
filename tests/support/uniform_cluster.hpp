#pragma once
// The cluster most tests start from: n identical nodes, no topology, no partitions.
#include <string>

#include "model/cluster.hpp"

namespace hs::test {

// n nodes x (cores, gpus[, mics]) named n1..nN; gres types "gpu" (and "mic" when asked).
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

}  // namespace hs::test
