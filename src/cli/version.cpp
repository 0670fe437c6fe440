#include "cli/version.hpp"

#ifndef HETSCHED_VERSION
#define HETSCHED_VERSION "0.1.0"
#endif

namespace hs::cli {
std::string version_string() { return HETSCHED_VERSION; }
}  // namespace hs::cli
