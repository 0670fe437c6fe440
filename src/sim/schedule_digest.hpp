#pragma once
// A 64-bit digest (FNV-1a) of everything a run's schedule decided: each job's status, start,
// end and allocation. Replays with equal digests made the same decisions (barring a hash
// collision): tests pin it and benchmarks print it to show that a speed-up changed nothing.
#include <cstdint>

#include "sim/simulator.hpp"

namespace hs {

std::uint64_t schedule_digest(const SimResult& result);

}  // namespace hs
