#include "util/memory_usage.hpp"

#include <sys/resource.h>

namespace hs {

double peak_resident_mib() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0.0;
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // Linux reports KiB
}

}  // namespace hs
