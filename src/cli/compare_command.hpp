#pragma once

namespace hs::cli {
// `hetsched compare`: several schedulers on identical inputs, R repetitions over seeds,
// runs in parallel processes, mean ± std of every metric side by side, a report with plots.
// With no options: the headline experiment (heterogeneous ESP on the 1024-node 8-core 2-GPU
// machine; Slurm backfill vs IPSCHED vs AUCSCHED1 vs AUCSCHED2).
int run_compare_command(int argc, char** argv);
}  // namespace hs::cli
