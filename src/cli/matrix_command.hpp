#pragma once

namespace hs::cli {
// `hetsched matrix`: every scheduler x allocator x predictor of Netti et al. on one
// Eurora-like workload, each run checked, one table plus a CSV (docs/heuristic-policies.md).
int run_matrix_command(int argc, char** argv);
}  // namespace hs::cli
