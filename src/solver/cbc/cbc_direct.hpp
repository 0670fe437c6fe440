#pragma once
// The raw, in-process CBC call (C interface). Never call this from a scheduler directly:
// solve_mip_cbc runs it in a child process so CBC's crashes and overrun limits stay contained.
#include "solver/mip_model.hpp"

namespace hs::solver {

MipResult solve_mip_cbc_in_process(const MipModel& model, double time_limit_s);

// Writes a well-formed `model` with CoinUtils' LP or MPS writer to `path` (a maximisation as
// the minimisation of the negated objective); false on an I/O error.
bool write_mip_file_with_cbc(const MipModel& model, const std::string& path, MipFileFormat format);

}  // namespace hs::solver
