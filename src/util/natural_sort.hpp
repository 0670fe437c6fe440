#pragma once
#include <string_view>

namespace hs {
// Slurm orders nodes by a "natural" comparison of names: digit runs compare as numbers,
// so n2 < n10. Equal numbers with different zero padding fall back to plain comparison.
bool natural_less(std::string_view a, std::string_view b);
}  // namespace hs
