// Replays every input the reader fuzzers (fuzz/, scripts/fuzz.sh) ever found, kept under
// tests/io/data/fuzz_regressions/<target>/, through the same target code: each must end in
// a normal outcome (a result or an InputError), never another exception or a crash (the
// sanitizer stage, scripts/test-sanitizers.sh, runs this test under ASan + UBSan too).
// The fuzzers' seed inputs (fuzz/seeds/) are replayed as well.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "fuzz_support.hpp"

namespace hs::fuzz {
namespace {

namespace fs = std::filesystem;
const fs::path kRoot = HETSCHED_SOURCE_DIR;

std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Runs every file under dir/<target>/ through its target; returns how many were replayed.
int replay_all(const fs::path& dir) {
  int replayed = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (!entry.is_directory()) continue;  // README.md
    const std::string target = entry.path().filename().string();
    const auto& names = target_names();
    EXPECT_NE(std::find(names.begin(), names.end(), target), names.end())
        << dir << ": '" << target << "' names no fuzz target";
    for (const auto& input : fs::directory_iterator(entry.path())) {
      SCOPED_TRACE(input.path().string());
      EXPECT_NO_THROW(run_target(target, read_bytes(input.path())));
      ++replayed;
    }
  }
  return replayed;
}

// No finding so far (README.md there has the runs); the test replays any that come.
TEST(FuzzRegressions, EveryFindingEndsInANormalOutcome) {
  const int replayed = replay_all(kRoot / "tests/io/data/fuzz_regressions");
  std::cout << "fuzz regressions replayed: " << replayed << "\n";
}

TEST(FuzzRegressions, SeedsEndInANormalOutcome) {
  EXPECT_GT(replay_all(kRoot / "fuzz/seeds"), 0);
}

TEST(FuzzRegressions, SplitPartsCutsAtPercentLines) {
  const auto parts = split_parts("a\n%%\nb\n%%\nc", 2);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[0], "a");
  EXPECT_EQ(parts[1], "b\n%%\nc");
  EXPECT_EQ(split_parts("no cut", 3).size(), 1u);
}

TEST(FuzzRegressions, UnknownTargetIsRefused) {
  EXPECT_THROW(run_target("no_such_reader", ""), std::invalid_argument);
}

}  // namespace
}  // namespace hs::fuzz
