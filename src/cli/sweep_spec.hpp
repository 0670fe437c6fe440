#pragma once
// A comparison written down for the tasks of a Slurm job array: each task reads it back and
// runs one of its runs (`hetsched sweep-task FILE INDEX`). One "key=value" per line, the first
// line naming the hetsched version, so a restarted sweep can tell whether the runs already in
// its output directory belong to it.
#include <string>

#include "cli/comparison.hpp"

namespace hs::cli {

std::string sweep_spec_text(const ComparisonSpec& spec);

// InputError naming the file, line, field and value for anything it does not expect.
ComparisonSpec read_sweep_spec(const std::string& path);

}  // namespace hs::cli
