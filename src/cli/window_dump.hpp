#pragma once
// `simulate --dump-windows DIR`: every solver call of a window scheduler's replay saved as a
// window file (docs/window-format.md) named pass-<pass, 6 digits>-t<time>-s<call>.json,
// with the replay's own answer in its "replay" record, so `hetsched solve` can re-solve it.
#include <string>

#include "policy/window/window_schedulers.hpp"

namespace hs::cli {

// Creates `dir` when missing. Throws InputError when it cannot be created.
window::SolveObserver make_window_dumper(const std::string& dir, const std::string& scheduler);

// The file name of one saved window, e.g. pass-000123-t4500-s1.json.
std::string dumped_window_name(std::int64_t pass, Time now, int solve);

}  // namespace hs::cli
