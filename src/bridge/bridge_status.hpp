#pragma once
// `hetsched bridge status`: what the bridge holds, has in flight and why, read from Slurm
// alone (the bridge keeps its state there, job_marker.hpp), so it works whether a bridge
// runs or not.
#include <string>

#include "bridge/live_queue.hpp"

namespace hs::bridge {

std::string status_text(const SlurmView& view, const std::string& partition, Time now,
                        Time start_grace);

}  // namespace hs::bridge
