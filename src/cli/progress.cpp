#include "cli/progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace hs::cli {

bool progress_enabled(bool force) { return force || isatty(STDERR_FILENO) == 1; }

std::function<void(Time, std::size_t, std::size_t)> make_progress(const std::string& label,
                                                                  bool force) {
  if (!progress_enabled(force)) return {};
  return [label](Time now, std::size_t done, std::size_t total) {
    const double pct = total == 0 ? 100.0 : 100.0 * static_cast<double>(done) / total;
    std::fprintf(stderr, "\r%s: %5.1f%% of jobs done, simulated time %lld s   ", label.c_str(),
                 pct, static_cast<long long>(now));
    std::fflush(stderr);
  };
}

void finish_progress(bool shown) {
  if (shown) std::fprintf(stderr, "\n");
}

}  // namespace hs::cli
