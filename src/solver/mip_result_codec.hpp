#pragma once
// Byte encoding of a MipResult, for the pipe between a solver child process and its parent.
#include <optional>
#include <string>

#include "solver/mip_model.hpp"

namespace hs::solver {

std::string encode_mip_result(const MipResult& result);
// nullopt when the bytes are truncated or malformed.
std::optional<MipResult> decode_mip_result(const std::string& bytes);

}  // namespace hs::solver
