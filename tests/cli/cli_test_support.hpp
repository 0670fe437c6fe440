#pragma once
// Running the command line inside a test: captured output, scratch directories, files.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/main_command.hpp"

namespace hs::cli::test {

inline const std::string kSource = HETSCHED_SOURCE_DIR;
inline const std::string kTinyCluster = kSource + "/examples/clusters/small-tree/slurm.conf";
inline const std::string kTinyJobs = kSource + "/examples/workloads/tiny.jobs";

struct Outcome {
  int code;
  std::string out;
  std::string err;
};

inline Outcome run(std::vector<std::string> args) {
  args.insert(args.begin(), "hetsched");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  const int code = run_main(static_cast<int>(argv.size()), argv.data());
  Outcome o{code, testing::internal::GetCapturedStdout(), testing::internal::GetCapturedStderr()};
  return o;
}

// A fresh, empty directory under the system's temporary directory.
inline std::string temp_dir(const std::string& name) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("hetsched-cli-" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace hs::cli::test
