#pragma once

namespace hs {
class Cluster;
}

namespace hs::cli {
// `hetsched matrix`: every scheduler x allocator x predictor of Netti et al. on one
// Eurora-like workload, each run checked, one table plus a CSV (docs/heuristic-policies.md).
int run_matrix_command(int argc, char** argv);

// Adds the Eurora queues (workload/eurora.hpp) as partitions over all nodes when the
// cluster has none, so queue default/max wall times exist for the predictors.
void add_eurora_queues(Cluster& cluster);
}  // namespace hs::cli
