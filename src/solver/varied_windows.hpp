#pragma once
// Seeded windows of many shapes, for auditing solvers against a reference optimum
// (bench/bench_solver_audit.cpp, tests/solver/solver_audit_test.cpp). Where
// random_instances.hpp imitates the documents' windows (contiguous runs of nodes, two
// dimensions, priority plus preference), these vary what a site's windows may vary: 1-4
// dimensions, alike or uneven nodes (some with nothing free), bids on scattered nodes with
// the same or different amounts per node (zeros included), duplicate bids, jobs without
// bids, and values that tie, are small integers, carry a large per-job term (2^32 a job, as
// AUCSCHED2's windows do), reach 10^12, or grow with the bid's size.
#include <cstdint>

#include "solver/window_problem.hpp"

namespace hs::solver {

enum class VariedWindowSize : std::uint8_t {
  Small,   // 1-40 nodes, 1-30 jobs, up to ~10 bids a job
  Medium,  // 16-96 nodes, 20-60 jobs (about 80-400 bids)
};

WindowProblem make_varied_window(std::uint64_t seed, VariedWindowSize size);

}  // namespace hs::solver
