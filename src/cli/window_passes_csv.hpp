#pragma once
// `simulate --out DIR` with a window scheduler: passes.csv, one row per scheduling pass with
// the window's size, the solver's answer, its proven bound and the gap between them. Only
// deterministic figures (no wall times), so two replays write the same bytes.
#include <string>
#include <vector>

#include "policy/window/window_schedulers.hpp"

namespace hs::cli {

// Throws InputError naming the path when it cannot be written.
void write_window_passes_csv(const std::string& path, const std::vector<window::PassStats>& passes);

}  // namespace hs::cli
