// scontrol as a child process: a call that never finishes is killed at its time limit, so a
// hung controller or munge cannot stop the bridge's cycles (or its SIGTERM) for ever.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "bridge/scontrol_process.hpp"

namespace hs::bridge {
namespace {

using std::chrono::seconds;

TEST(RunProcess, ACommandPastItsLimitIsKilledAndSaysSo) {
  std::string output;
  const auto began = std::chrono::steady_clock::now();
  EXPECT_EQ(run_process({"sh", "-c", "echo started; sleep 30"}, output, seconds(1)), kKilledAtLimit);
  EXPECT_LT(std::chrono::steady_clock::now() - began, seconds(20));
  EXPECT_EQ(output, "started\nkilled after 1 s without finishing");
}

TEST(RunProcess, ExitStatusAndOutputOfACommandThatFinishes) {
  std::string output;
  EXPECT_EQ(run_process({"sh", "-c", "echo out; echo err >&2; exit 3"}, output, seconds(10)), 3);
  EXPECT_EQ(output, "out\nerr\n");
  EXPECT_EQ(run_process({"hetsched-no-such-binary"}, output), 127);
  EXPECT_EQ(output.rfind("cannot run hetsched-no-such-binary", 0), 0u) << output;
}

// A stand-in scontrol that never answers, first on PATH for the duration of a test.
class HungScontrol {
 public:
  HungScontrol() : dir_(std::filesystem::temp_directory_path() / ("hetsched-hung-" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(dir_);
    std::ofstream(dir_ / "scontrol") << "#!/bin/sh\nsleep 30\n";
    std::filesystem::permissions(dir_ / "scontrol", std::filesystem::perms::owner_all);
    path_ = std::getenv("PATH") ? std::getenv("PATH") : "";
    ::setenv("PATH", (dir_.string() + ":" + path_).c_str(), 1);
  }
  ~HungScontrol() {
    ::setenv("PATH", path_.c_str(), 1);
    std::filesystem::remove_all(dir_);
  }

 private:
  std::filesystem::path dir_;
  std::string path_;
};

TEST(ScontrolProcess, AHungListingIsSlurmUnavailableAndAHungCommandFails) {
  HungScontrol hung;
  std::ostringstream echo;
  ScontrolProcess slurm(false, echo, seconds(1));
  try {
    slurm.list_jobs();
    ADD_FAILURE() << "a hung listing was taken as an answer";
  } catch (const SlurmUnavailable& e) {
    EXPECT_NE(std::string(e.what()).find("killed after 1 s without finishing"), std::string::npos) << e.what();
  }
  std::string error;
  EXPECT_FALSE(slurm.run({"scontrol", "release", "15"}, error));
  EXPECT_EQ(error, "exit 124: killed after 1 s without finishing");
}

}  // namespace
}  // namespace hs::bridge
