#pragma once
// Preference values F of bids (thesis eq. 4.12 and 5.7) with the documents' constants
// (Table 4.4 for AUCSCHED1, Table 5.2 for AUCSCHED2/3).
#include <cstdint>

#include "policy/window/candidate.hpp"
#include "policy/window/window_job.hpp"

namespace hs::window {

struct PreferenceConstants {
  double k1 = 0, k2 = 0, k3 = 0, k4 = 0;
};

enum class PreferenceTable { Aucsched1, Aucsched2 };

PreferenceConstants preference_constants(PreferenceTable table, JobType type, BidClass cls);

// F = 1 - k1 - k2 |N_c|/(|N|+1) - k3 |S_c|/(|S|+1) + k4 (R_i^gres+1)/(R_j^gres,max+1).
// Slurm bids have all k = 0 (F = 1).
double preference(PreferenceTable table, const WindowJob& job, const Candidate& bid,
                  std::int32_t node_count, std::int32_t nodeset_count);

}  // namespace hs::window
