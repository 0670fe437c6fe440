#include "cli/version.hpp"

#include "hetsched_commit.hpp"  // generated at build time: HETSCHED_COMMIT

#ifndef HETSCHED_VERSION
#define HETSCHED_VERSION "0.1.0"
#endif

namespace hs::cli {
std::string version_string() { return std::string(HETSCHED_VERSION) + " (commit " + HETSCHED_COMMIT + ")"; }
std::string commit_string() { return HETSCHED_COMMIT; }
}  // namespace hs::cli
