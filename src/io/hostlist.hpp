#pragma once
// Slurm hostlist expressions: "n[001-128]", "pre[1,3,5-7]suf", several bracket groups
// ("r[1-2]n[1-4]" = every combination, leftmost group slowest), and top-level comma lists
// ("n[1-4],gpu[1-2]"). Inside brackets: comma-separated decimal numbers or lo-hi ranges;
// a range is zero padded to the number of digits written for lo.
#include <string>
#include <string_view>
#include <vector>

#include "util/error.hpp"

namespace hs {

inline constexpr std::size_t kMaxHostlistHosts = 1'000'000;

// Names in the order written. InputError (field "hostlist") for reversed ranges,
// unbalanced or nested brackets, empty items, non-numeric bracket items, and expressions
// naming more than kMaxHostlistHosts hosts.
std::vector<std::string> expand_hostlist(std::string_view text, const InputLocation& where);

}  // namespace hs
