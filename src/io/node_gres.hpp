#pragma once
// A node's configured generic resources as slurm.conf writes them in Gres=:
// "gpu:2", "gpu:tesla:2", "gpu:2(S:0-1)", "gpu" (= 1), "mic:1,gpu:k80:2", counts with
// K/M/G suffixes (x1024). Types (tesla, k80) are not modelled: counts are summed per name.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "util/error.hpp"

namespace hs {

// Names in first-seen order are not needed by callers, so a map (name -> count) suffices.
std::map<std::string, std::int64_t> parse_node_gres(std::string_view text,
                                                    const InputLocation& where);

// Gres names: letters, digits, '_' and '-', starting with a letter.
bool is_gres_name(std::string_view name);

}  // namespace hs
