#include "cli/sweep_task_command.hpp"

#include <cstdlib>
#include <iostream>
#include <string>

#include "cli/comparison.hpp"
#include "cli/sweep_spec.hpp"
#include "cli/version.hpp"
#include "util/error.hpp"

namespace hs::cli {

int run_sweep_task_command(int argc, char** argv) {
  const InputLocation where{"<command line>", 0};
  if (argc != 4) throw InputError(where, "sweep-task", "", "usage: hetsched sweep-task SWEEP_FILE INDEX");
  const std::string index_text = argv[3];
  char* end = nullptr;
  const unsigned long index = std::strtoul(index_text.c_str(), &end, 10);
  if (index_text.empty() || *end != '\0')
    throw InputError(where, "INDEX", index_text, "not a task index");
  const ComparisonSpec spec = read_sweep_spec(argv[2]);
  std::cout << "hetsched " << version_string() << " sweep-task " << argv[2] << " " << index
            << "\n" << std::flush;
  return run_comparison_task(spec, index);
}

}  // namespace hs::cli
