#pragma once
#include <string>

namespace hs::cli {
std::string version_string();  // e.g. "0.1.0"
}  // namespace hs::cli
