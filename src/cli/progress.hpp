#pragma once
// A one-line progress indicator on stderr, shown only when stderr is a terminal (or forced),
// so logs and CI output stay clean.
#include <cstddef>
#include <functional>
#include <string>

#include "model/types.hpp"

namespace hs::cli {

// Returns a SimConfig::progress callback, or an empty function when progress is off.
std::function<void(Time, std::size_t, std::size_t)> make_progress(const std::string& label,
                                                                  bool force);
void finish_progress(bool shown);
bool progress_enabled(bool force);

}  // namespace hs::cli
