#pragma once
// A node's configured generic resources as slurm.conf writes them in Gres=:
// "gpu:2", "gpu:tesla:2", "gpu:2(S:0-1)", "gpu" (= 1), "mic:1,gpu:k80:2", counts with
// K/M/G suffixes (x1024). Every unit counts under its name ("gpu"); a typed unit counts
// under "name:type" ("gpu:tesla") as well, the typed-GRES kinds of Cluster::gres_types.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "util/error.hpp"

namespace hs {

// name -> count and name:type -> count ("mic:1,gpu:k80:2" -> gpu 2, gpu:k80 2, mic 1).
std::map<std::string, std::int64_t> parse_node_gres(std::string_view text,
                                                    const InputLocation& where);

// Gres names: letters, digits, '_' and '-', starting with a letter.
bool is_gres_name(std::string_view name);
// Gres types (Slurm's Type, e.g. "a100", "1080ti"): letters, digits, '_', '-', '.', not
// starting with punctuation.
bool is_gres_type(std::string_view type);

}  // namespace hs
