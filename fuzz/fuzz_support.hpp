#pragma once
// The reader fuzz targets: each hands a byte string to one reader (writing it to a scratch
// file where the reader takes a path). InputError is the reader's normal answer to bad input
// and is swallowed here; any other exception escapes, and in a fuzzer terminates the process,
// so it counts as a finding, as do crashes, sanitizer reports and hangs.
// Used by the libFuzzer executables (fuzz_main.cpp, -DHETSCHED_FUZZ=ON, scripts/fuzz.sh) and
// by the regression test that replays their findings (tests/bridge/fuzz_regressions_test.cpp).
#include <string>
#include <string_view>
#include <vector>

namespace hs::fuzz {

// The target names: slurm_conf, gres_conf, topology_conf, swf, swf_gzip, job_file, sacct,
// scontrol_jobs, scontrol_nodes, scontrol_reservations, window_file, window_solve (a small
// window file solved by every solver that counts effort, each answer checked).
const std::vector<std::string>& target_names();

// Runs target `name` on `bytes`. Unknown names throw std::invalid_argument.
void run_target(const std::string& name, std::string_view bytes);

// The input cut at lines "%%" into at most `max_parts` parts (the last keeps the rest), so
// that one input can describe several files (slurm.conf and the file it includes).
std::vector<std::string_view> split_parts(std::string_view text, std::size_t max_parts);

}  // namespace hs::fuzz
