#pragma once

namespace hs::cli {
// `hetsched list [clusters|workloads|schedulers|solvers]`.
int run_list_command(int argc, char** argv);
// `hetsched generate --workload SPEC --cluster NAME --seed N --out FILE`: writes a job file.
int run_generate_command(int argc, char** argv);
}  // namespace hs::cli
