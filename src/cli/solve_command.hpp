#pragma once

namespace hs::cli {
// `hetsched solve FILE`: solves a window file (docs/window-format.md) with a named solver,
// checks the answer independently and reports it, or (--export lp|mps) writes the window
// as a model for other solvers.
int run_solve_command(int argc, char** argv);
}  // namespace hs::cli
