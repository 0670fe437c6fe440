#pragma once
// Slurm's time formats, as used by MaxTime/DefaultTime in slurm.conf and by sbatch -t:
//   "minutes", "minutes:seconds", "hours:minutes:seconds",
//   "days-hours", "days-hours:minutes", "days-hours:minutes:seconds",
//   and "UNLIMITED" / "INFINITE" (case-insensitive) where allowed.
#include <string>
#include <string_view>

#include "model/types.hpp"
#include "util/error.hpp"

namespace hs {

// Seconds. UNLIMITED/INFINITE give kNoTime when allow_unlimited, else InputError.
// Every other malformed or overflowing text is an InputError naming `field`.
Time parse_slurm_time(std::string_view text, const InputLocation& where,
                      const std::string& field, bool allow_unlimited);

// Exact inverse for seconds >= 0: "hh:mm:ss" below a day, "d-hh:mm:ss" from a day on
// (hours may exceed 99: "100:00:00" is never produced); kNoTime gives "UNLIMITED".
std::string format_slurm_time(Time seconds);

}  // namespace hs
