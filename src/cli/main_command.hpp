#pragma once

namespace hs::cli {
// Dispatches subcommands; returns the process exit code (see docs/cli.md).
int run_main(int argc, char** argv);
}  // namespace hs::cli
