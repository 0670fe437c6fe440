#pragma once
// Scratch files for the io tests: each test writes its inputs under a fresh directory.
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "util/error.hpp"

namespace hs::testing {

inline std::filesystem::path scratch_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("hetsched-io-test-" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

inline std::string write_file(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out << text;
  return path.string();
}

// Runs `call`, expects an InputError, and returns it for further checks.
template <class Call>
InputError expect_input_error(Call&& call) {
  try {
    call();
  } catch (const InputError& e) {
    return e;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected InputError, got another exception: " << e.what();
    return InputError({}, "", "", "");
  }
  ADD_FAILURE() << "expected InputError, nothing was thrown";
  return InputError({}, "", "", "");
}

inline std::string source_path(const std::string& relative) {
  return std::string(HETSCHED_SOURCE_DIR) + "/" + relative;
}
inline std::string shared_path(const std::string& relative) {
  return std::string(HETSCHED_SHARED_DIR) + "/" + relative;
}

}  // namespace hs::testing
