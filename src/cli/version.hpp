#pragma once
#include <string>

namespace hs::cli {
std::string version_string();  // e.g. "0.1.0 (commit 0123456789ab)"
std::string commit_string();   // short git hash, "+dirty" with local changes, or "unknown"
}  // namespace hs::cli
