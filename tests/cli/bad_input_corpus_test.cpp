// Issue 22's bad-input corpus: tests/cli/data/bad_inputs/*.case, each a command line run on
// inputs it carries, with the exit code and the start of the message it must give. So no
// change can make one of them crash, hang or go silent. A case file:
//   args: simulate --cluster {dir}/slurm.conf --workload S --out {out}
//   exit: 2
//   stderr: hetsched: error: {dir}/slurm.conf:3: field 'CPUs'
//   --- slurm.conf
//   (the file's bytes, up to the next "--- NAME" line or the end)
// {dir} is the case's scratch directory (its files are written there), {out} a fresh output
// directory under it, {src} the source tree. "stderr:" must start a line of stderr (warnings
// about other lines of the inputs may come before it).
// A bad input that is not fatal (a job rejected, a line ignored) exits 0 and instead names
// a line its report must contain: "stdout: rejected   job 1: unknown partition".
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>

#include "cli_test_support.hpp"

namespace hs::cli {
namespace {

namespace fs = std::filesystem;
using namespace test;

struct BadInputCase {
  std::string name;
  std::string args, stderr_start, stdout_part;
  int exit = -1;
  bool has_args = false;  // "args:" given (it may be empty: hetsched with no arguments)
  std::vector<std::pair<std::string, std::string>> files;  // name, bytes
};

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t pos = 0; (pos = text.find(from, pos)) != std::string::npos; pos += to.size())
    text.replace(pos, from.size(), to);
  return text;
}

// The header line "key: value" into `c`; false for an unknown key.
bool read_header(const std::string& line, BadInputCase& c) {
  const auto colon = line.find(':');
  if (colon == std::string::npos) return false;
  const std::string key = line.substr(0, colon);
  const std::string value = line.substr(std::min(line.size(), colon + 2));
  if (key == "args") {
    c.args = value;
    c.has_args = true;
  } else if (key == "exit") {
    c.exit = std::stoi(value);
  } else if (key == "stderr") {
    c.stderr_start = value;
  } else if (key == "stdout") {
    c.stdout_part = value;
  } else {
    return false;
  }
  return true;
}

BadInputCase parse_case(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  BadInputCase c{path.stem().string(), "", "", "", -1, false, {}};
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("--- ", 0) == 0) {
      c.files.push_back({line.substr(4), ""});
    } else if (!c.files.empty()) {
      c.files.back().second += line + (lines.eof() ? "" : "\n");
    } else if (!line.empty()) {
      EXPECT_TRUE(read_header(line, c)) << path << ": " << line;
    }
  }
  return c;
}

std::vector<std::string> split_args(const std::string& args) {
  std::istringstream in(args);
  return {std::istream_iterator<std::string>(in), std::istream_iterator<std::string>()};
}

bool has_line_starting(const std::string& text, const std::string& start) {
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line))
    if (line.rfind(start, 0) == 0) return true;
  return start.empty();
}

// Writes the case's files, runs its command line and checks exit code and message.
void run_case(const BadInputCase& c) {
  SCOPED_TRACE(c.name);
  const std::string dir = temp_dir("corpus-" + c.name);
  for (const auto& [name, bytes] : c.files) {
    const fs::path path = fs::path(dir) / name;
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << bytes;
  }
  const auto expand = [&](std::string s) {
    return replace_all(replace_all(replace_all(s, "{dir}", dir), "{out}", dir + "/out"), "{src}", kSource);
  };
  std::vector<std::string> args;
  for (const std::string& a : split_args(c.args)) args.push_back(expand(a));
  const Outcome o = run(args);
  EXPECT_EQ(o.code, c.exit) << o.err << o.out;
  EXPECT_TRUE(has_line_starting(o.err, expand(c.stderr_start))) << "whole stderr: " << o.err;
  EXPECT_NE(o.out.find(expand(c.stdout_part)), std::string::npos) << "whole stdout: " << o.out;
}

std::vector<fs::path> case_files() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(kSource + "/tests/cli/data/bad_inputs"))
    if (e.path().extension() == ".case") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(BadInputCorpus, EveryCaseGivesItsExitCodeAndMessage) {
  const auto files = case_files();
  for (const fs::path& path : files) {
    const BadInputCase c = parse_case(path);
    ASSERT_TRUE(c.has_args) << path << ": no args:";
    // Never silent: a failure names the problem on stderr, a success in its report.
    ASSERT_FALSE(c.stderr_start.empty() && c.stdout_part.empty()) << path << ": expects nothing";
    ASSERT_TRUE(c.exit != 0 || !c.stdout_part.empty()) << path << ": a success must report why";
    run_case(c);
  }
  std::cout << "bad-input corpus: " << files.size() << " cases\n";
  EXPECT_GE(files.size(), 150u);
}

}  // namespace
}  // namespace hs::cli
