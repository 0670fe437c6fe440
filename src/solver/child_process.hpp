#pragma once
// Runs a piece of work in a forked child and returns the bytes it produced through a pipe,
// with a hard wall-clock limit enforced by the parent (SIGKILL). Used to isolate fragile
// third-party solvers: a crash, hang or abort in the child never takes down or blocks the
// caller. The child inherits the parent's memory, so the work's input needs no copying.
#include <functional>
#include <string>

namespace hs::solver {

struct ChildOutcome {
  enum class Kind { Completed, Crashed, Killed, Failed };
  Kind kind = Kind::Failed;
  std::string payload;  // bytes the work returned (Completed only)
  std::string message;  // what went wrong otherwise
};

// `work` runs in the child; its return value is written to the pipe. The child's stdout is
// redirected to /dev/null. A child that exits without writing its whole payload counts as
// Crashed; one still running after `hard_limit_s` is killed (Killed).
ChildOutcome run_in_child(const std::function<std::string()>& work, double hard_limit_s);

}  // namespace hs::solver
