#pragma once
// Seeded random window instances that look like the documents' windows (AUCSCHED2-style
// bids on a 1-D node array): nodes with some cores and GPUs already taken by running jobs;
// jobs asking for n nodes with k cores and g GPUs per node (g sometimes a range); bids are
// contiguous runs of nodes that can host the job, aligned to a free run's start or end
// (preference near 1) or inside it (lower preference); value = priority + alpha * preference
// with alpha = P_min / (bids + 1), as in the thesis. For tests and benchmarks.
#include <cstdint>

#include "solver/window_problem.hpp"

namespace hs::solver {

struct RandomWindowSpec {
  std::int32_t nodes = 128;
  std::int32_t cores_per_node = 12;
  std::int32_t gpus_per_node = 3;
  std::int32_t jobs = 50;
  std::int32_t max_bids_per_job = 15;
  std::int32_t max_nodes_per_job = 0;  // 0 = max(1, nodes / 16)
  double busy_node_fraction = 0.5;     // nodes partly used by running jobs
  double gpu_job_fraction = 0.5;
  double gpu_range_fraction = 0.3;     // of GPU jobs: moldable GPU count per node
  std::uint64_t seed = 1;
};

// Dimension 0 = cores, 1 = GPUs. Jobs with no place to run get no bids.
WindowProblem make_random_window(const RandomWindowSpec& spec);

// Sets `part` beside `window` (same dimensions): its nodes and jobs follow the window's, so
// the two share nothing and form independent parts (window_parts.hpp).
void append_beside(WindowProblem& window, const WindowProblem& part);

}  // namespace hs::solver
