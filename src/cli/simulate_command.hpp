#pragma once

namespace hs::cli {
// `hetsched simulate`: replays one workload on one cluster under one scheduler, prints the
// summary and the checker verdict, writes the per-job and summary outputs.
int run_simulate_command(int argc, char** argv);
}  // namespace hs::cli
