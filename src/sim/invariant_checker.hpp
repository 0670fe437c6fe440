#pragma once
// Independent audit of a finished run, sharing no code path with the simulator's
// bookkeeping: sweeps every node's usage over time and re-checks each record.
#include <string>
#include <vector>

#include "sim/simulator.hpp"

namespace hs {

struct CheckReport {
  std::vector<std::string> violations;  // empty = the run is sound
  bool ok() const { return violations.empty(); }
};

// No node over capacity at any time, no start before submit, every allocation satisfying
// its request (incl. contiguity), every job completed/killed or rejected with a reason,
// end = start + min(run time, limit) (+ the sub-second timing of its StartDecision).
CheckReport check_run(const Cluster& cluster, const Workload& workload, const SimResult& result);

}  // namespace hs
