#pragma once
// The report of shadow mode: for each job, when and where the policy would have started it
// against when and where Slurm did, so an admin can judge a policy on live traffic.
#include <cstdint>
#include <map>
#include <string>

#include "bridge/slurm_bridge.hpp"

namespace hs::bridge {

// Markdown: a summary (jobs compared, same node set, |start difference| mean / median / max,
// jobs the policy would have started earlier or later) and one row per job.
std::string shadow_report(const std::map<std::int64_t, ShadowPrediction>& predictions,
                          const std::string& scheduler);

}  // namespace hs::bridge
