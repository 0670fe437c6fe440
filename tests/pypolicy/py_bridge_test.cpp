// A Python policy on the bridge: one dry-run cycle on a job table captured from the lab.
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "cli/main_command.hpp"

namespace hs {
namespace {

const std::string kSource = HETSCHED_SOURCE_DIR;
const std::string kBridgeData = kSource + "/tests/bridge/data/";

struct Cycle {
  int code;
  std::string out;
  std::string err;
};

Cycle dry_cycle(const std::string& scheduler) {
  std::vector<std::string> args{"hetsched", "bridge", "--cluster", kBridgeData + "slurm.conf",
                                "--jobs-from", kBridgeData + "listing.txt", "--scheduler", scheduler};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  const int code = cli::run_main(static_cast<int>(argv.size()), argv.data());
  Cycle c{code, testing::internal::GetCapturedStdout(), testing::internal::GetCapturedStderr()};
  return c;
}

// The scontrol commands of the cycle, in order, without the wall-clock stamps (`at=<epoch>`)
// the job markers carry: two cycles may run in different seconds.
std::vector<std::string> commands(const std::string& out) {
  static const std::regex stamp("at=[0-9]+");
  std::vector<std::string> lines;
  std::string::size_type at = 0;
  while ((at = out.find("(dry run) ", at)) != std::string::npos) {
    const auto end = out.find('\n', at);
    lines.push_back(std::regex_replace(out.substr(at, end - at), stamp, "at=T"));
    at = end;
  }
  return lines;
}

TEST(PyBridge, PythonFcfsIssuesTheCommandsOfFifoFirstFit) {
  const Cycle py = dry_cycle("py:" + kSource + "/examples/python/fcfs.py:Fcfs");
  const Cycle cxx = dry_cycle("fifo+ff");
  ASSERT_EQ(py.code, 0) << py.err;
  EXPECT_NE(py.out.find("scontrol release 15"), std::string::npos) << py.out;
  EXPECT_EQ(commands(py.out), commands(cxx.out));
}

TEST(PyBridge, OverAllocationReleasesNothing) {
  const Cycle c = dry_cycle("py:" + kSource + "/tests/pypolicy/policies/faulty.py:OverAllocates");
  EXPECT_EQ(c.code, 3);
  EXPECT_NE(c.err.find("policy error: scheduler py:faulty.py:OverAllocates"), std::string::npos) << c.err;
  EXPECT_NE(c.err.find("allocation exceeds free resources"), std::string::npos) << c.err;
  EXPECT_EQ(c.out.find("scontrol release"), std::string::npos) << c.out;
}

}  // namespace
}  // namespace hs
