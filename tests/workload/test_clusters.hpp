#pragma once
// Small cluster builders for the workload tests (the built-in clusters live in io/).
#include <string>

#include "model/cluster.hpp"
#include "support/uniform_cluster.hpp"

namespace hs::test {

inline Cluster paper1024() { return uniform_cluster(1024, 8, 2); }

// Eurora: 64 x 16 cores; nodes 1-32 with 2 GPUs, 33-64 with 2 MICs.
inline Cluster eurora_like() {
  Cluster c = uniform_cluster(64, 16, 0, 0);
  c.gres_types = {"gpu", "mic"};
  for (int i = 0; i < 64; ++i) c.nodes[i].gres = {i < 32 ? 2 : 0, i < 32 ? 0 : 2, 0, 0};
  return c;
}

}  // namespace hs::test
