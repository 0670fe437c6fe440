#pragma once
// Memory figures for benchmarks and run reports (Linux; 0 where the system does not say).
#include <cstdint>

namespace hs {

// Largest resident set this process has had so far, in MiB (children not included).
double peak_resident_mib();

}  // namespace hs
