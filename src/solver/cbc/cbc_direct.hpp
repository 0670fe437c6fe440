#pragma once
// The raw, in-process CBC call (C interface). Never call this from a scheduler directly:
// solve_mip_cbc runs it in a child process so CBC's crashes and overrun limits stay contained.
#include "solver/mip_model.hpp"

namespace hs::solver {

MipResult solve_mip_cbc_in_process(const MipModel& model, double time_limit_s);

}  // namespace hs::solver
