#include "cli/comparison_slurm.hpp"

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "cli/exit_codes.hpp"
#include "cli/slurm_sweep.hpp"
#include "cli/sweep_spec.hpp"
#include "util/error.hpp"

namespace hs::cli {

namespace {

std::string check_file(const ComparisonSpec& s, std::size_t index) {
  return comparison_run_dir(s, index / s.repeat, index % s.repeat) + "/check.txt";
}

// A run's exit code from its check.txt (0, or 1 with violations); nullopt while it has none.
std::optional<int> finished_run(const ComparisonSpec& s, std::size_t index) {
  std::ifstream in(check_file(s, index));
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("violations ", 0) == 0)
      return line == "violations 0" ? int(kExitOk) : int(kExitViolations);
  return std::nullopt;
}

std::string quoted_for_shell(const std::string& text) {
  std::string q = "'";
  for (char c : text) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::size_t run_count(const ComparisonSpec& spec) {
  return spec.schedulers.size() * static_cast<std::size_t>(spec.repeat);
}

// Returns the sweep file's path; see the header for a fresh sweep and a foreign one.
std::string claim_sweep_file(const ComparisonSpec& spec, const std::string& state_dir) {
  const std::string path = state_dir + "/sweep.txt", text = sweep_spec_text(spec);
  std::ifstream in(path);
  if (in) {
    std::stringstream have;
    have << in.rdbuf();
    if (have.str() != text)
      throw InputError({path, 0}, "--out", spec.out_dir,
                       "holds another sweep (other options or hetsched version); choose another "
                       "--out or delete " + path);
    return path;
  }
  std::error_code ignored;
  for (std::size_t i = 0; i < run_count(spec); ++i) std::filesystem::remove(check_file(spec, i), ignored);
  std::filesystem::create_directories(state_dir);
  std::ofstream out(path);
  out << text;
  if (!out) throw InputError({path, 0}, "--out", spec.out_dir, "cannot write the sweep file");
  return path;
}

}  // namespace

std::vector<TaskResult> run_comparison_on_slurm(const ComparisonSpec& spec) {
  const std::string state_dir = std::filesystem::absolute(spec.out_dir + "/sweep").string();
  const std::string sweep_file = claim_sweep_file(spec, state_dir);
  SlurmSweep sweep;
  sweep.runs = run_count(spec);
  sweep.finished = [&spec](std::size_t i) { return finished_run(spec, i); };
  sweep.describe = [&spec](std::size_t i) {
    return spec.schedulers[i / spec.repeat] + " seed " + std::to_string(spec.seed + i % spec.repeat);
  };
  sweep.state_dir = state_dir;
  sweep.task_command = quoted_for_shell(std::filesystem::read_symlink("/proc/self/exe").string()) +
                       " sweep-task " + quoted_for_shell(sweep_file);
  sweep.workdir = std::filesystem::current_path().string();
  return run_on_slurm(sweep, spec.executor);
}

}  // namespace hs::cli
