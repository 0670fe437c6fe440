#pragma once
// The check a policy's decisions for one pass get before anything of them is applied: the
// same rules the simulator enforces start by start, run over the whole batch first, so a
// policy from outside the project (a Python class) can be refused with a clear message and
// nothing half-applied.
#include <optional>
#include <string>

#include "sim/scheduler.hpp"

namespace hs {

struct DecisionProblem {
  JobRef job = -1;        // the job concerned, -1 when none (a bad wake-up time)
  std::string what;       // "job 42: allocation exceeds free resources on node n3 ..."
};

// First problem of `d` against `view`: a start or rejection of a job that is not pending
// (or named twice), an allocation that breaks its job's request, starts that together
// exceed what is free, a wake-up time not after now. nullopt when all is sound.
std::optional<DecisionProblem> decision_problem(const SystemView& view, const Decisions& d);

}  // namespace hs
