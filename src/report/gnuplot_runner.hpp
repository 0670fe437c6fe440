#pragma once
// Runs gnuplot on a script as a child process with a wall-clock limit. The plotter is an
// optional helper: every failure comes back as a message, never as an exception.
#include <string>

namespace hs::report {

// Absolute path of `program` (a bare name is searched on PATH); empty when not found or
// not executable.
std::string find_program(const std::string& program);

struct PlotRun {
  bool ok = false;
  std::string message;  // why it failed (first lines of gnuplot's stderr, timeout, ...)
};

// Runs `gnuplot_path script` with `dir` as working directory; stdout is discarded and
// stderr kept for the message. The child is killed after `timeout_s` seconds.
PlotRun run_gnuplot(const std::string& gnuplot_path, const std::string& dir,
                    const std::string& script, double timeout_s);

}  // namespace hs::report
