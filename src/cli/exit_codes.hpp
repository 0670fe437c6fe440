#pragma once

namespace hs::cli {
// Process exit codes (docs/cli.md).
enum ExitCode : int {
  kExitOk = 0,
  kExitViolations = 1,   // the run finished but the invariant checker found violations
  kExitBadInput = 2,     // usage error or invalid input (file, option, value)
  kExitInternal = 3,     // a bug: a policy proposed an invalid decision, or similar
};
}  // namespace hs::cli
