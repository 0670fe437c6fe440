#include "cli/main_command.hpp"

#include <cstring>
#include <iostream>
#include <stdexcept>

#include "cli/bridge_command.hpp"
#include "cli/compare_command.hpp"
#include "cli/exit_codes.hpp"
#include "cli/list_command.hpp"
#include "cli/matrix_command.hpp"
#include "cli/reproduce_command.hpp"
#include "cli/simulate_command.hpp"
#include "cli/solve_command.hpp"
#include "cli/sweep_task_command.hpp"
#include "cli/version.hpp"
#include "util/error.hpp"

namespace hs::cli {

namespace {

struct Subcommand {
  const char* name;
  int (*run)(int, char**);
  const char* summary;
};

int run_version(int, char**) {
  std::cout << "hetsched " << version_string() << "\n";
  return kExitOk;
}

const Subcommand kSubcommands[] = {
    {"simulate", run_simulate_command, "replay a workload under one scheduler (default: het. ESP, backfill)"},
    {"compare", run_compare_command, "several schedulers on identical inputs, mean ± std, report with plots"},
    {"matrix", run_matrix_command, "allocator x scheduler x predictor matrix on an Eurora-like month"},
    {"reproduce", run_reproduce_command, "rerun the documents' result tables, write docs/reproduction.md"},
    {"solve", run_solve_command, "solve a window file, check the answer; or export it as LP/MPS"},
    {"bridge", run_bridge_command, "schedule the held jobs of a live Slurm with a hetsched scheduler"},
    {"generate", run_generate_command, "write a generated workload as a job file"},
    {"list", run_list_command, "list built-in clusters, workload generators, schedulers, solvers"},
    {"version", run_version, "print the version"},
};

// Not listed: what the tasks of a `--executor slurm` sweep run.
const Subcommand kHiddenSubcommands[] = {
    {"sweep-task", run_sweep_task_command, "one run of a sweep written by --executor slurm"},
};

void print_usage() {
  std::cout << "usage: hetsched <command> [options]   (hetsched <command> --help for details)\n\n"
               "hetsched: co-allocating job schedulers for heterogeneous clusters, with a\n"
               "Slurm 22.05 baseline model and a deterministic simulator.\n\ncommands:\n";
  for (const auto& c : kSubcommands) {
    std::string name = std::string("  ") + c.name;
    name.resize(14, ' ');
    std::cout << name << c.summary << "\n";
  }
  std::cout << "\nexit codes: 0 ok, 1 checker violations, 2 bad input, 3 internal error\n";
}

int dispatch(int argc, char** argv) {
  if (argc < 2 || !std::strcmp(argv[1], "-h") || !std::strcmp(argv[1], "--help") ||
      !std::strcmp(argv[1], "help")) {
    print_usage();
    return argc < 2 ? kExitBadInput : kExitOk;
  }
  for (const auto& c : kSubcommands)
    if (!std::strcmp(argv[1], c.name)) return c.run(argc, argv);
  for (const auto& c : kHiddenSubcommands)
    if (!std::strcmp(argv[1], c.name)) return c.run(argc, argv);
  std::cerr << "hetsched: unknown command '" << argv[1] << "'\n";
  print_usage();
  return kExitBadInput;
}

}  // namespace

int run_main(int argc, char** argv) {
  try {
    return dispatch(argc, argv);
  } catch (const InputError& e) {
    std::cerr << "hetsched: error: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const PolicyError& e) {
    std::cerr << "hetsched: policy error: " << e.what() << "\n";
    return kExitInternal;
  } catch (const std::logic_error& e) {
    std::cerr << "hetsched: internal error: " << e.what() << "\n";
    return kExitInternal;
  } catch (const std::exception& e) {
    std::cerr << "hetsched: error: " << e.what() << "\n";
    return kExitInternal;
  }
}

}  // namespace hs::cli
