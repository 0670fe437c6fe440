#pragma once

namespace hs::cli {

// `hetsched bridge`: schedules the held jobs of a live Slurm with a hetsched scheduler.
int run_bridge_command(int argc, char** argv);

}  // namespace hs::cli
