// A Slurm accounting dump (tests/io/data/sacct_smalltree.txt) replayed as `--workload`
// under the Slurm model on the cluster it was written for.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>

#include "cli/exit_codes.hpp"
#include "cli_test_support.hpp"

namespace hs::cli {
namespace {

using namespace test;

const std::string kDump = kSource + "/tests/io/data/sacct_smalltree.txt";

std::vector<std::string> csv_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(SacctReplay, DumpReplaysUnderTheSlurmModel) {
  const std::string dir = temp_dir("sacct-replay");
  for (const char* scheduler : {"backfill", "backfill-easy"}) {
    const Outcome o = run({"simulate", "--cluster", kTinyCluster, "--workload", kDump,
                           "--scheduler", scheduler, "--out", dir});
    ASSERT_EQ(o.code, kExitOk) << o.err << o.out;
    EXPECT_NE(o.out.find("(19 jobs, seed"), std::string::npos) << o.out;
    EXPECT_NE(o.out.find("checker    OK"), std::string::npos) << o.out;
    EXPECT_NE(o.out.find("input      " + kDump + ": 3 records skipped: never started"),
              std::string::npos)
        << o.out;
    const std::vector<std::string> jobs = csv_lines(read_file(dir + "/jobs.csv"));
    ASSERT_EQ(jobs.size(), 20u);  // header + 19 jobs
    for (std::size_t i = 1; i < jobs.size(); ++i)
      EXPECT_EQ(jobs[i].find("rejected"), std::string::npos) << jobs[i];
    const std::string manifest = read_file(dir + "/run.json");
    EXPECT_NE(manifest.find("6 job steps skipped"), std::string::npos) << manifest;
  }
}

TEST(SacctReplay, GpuJobRunsOnGpuNodesAndTimeoutIsKilledAtItsLimit) {
  const std::string dir = temp_dir("sacct-replay-gpu");
  const Outcome o = run({"simulate", "--cluster", kTinyCluster, "--workload", kDump,
                         "--scheduler", "backfill", "--out", dir});
  ASSERT_EQ(o.code, kExitOk) << o.err;
  const std::vector<std::string> jobs = csv_lines(read_file(dir + "/jobs.csv"));
  auto row = [&](const std::string& id) {
    const auto it = std::find_if(jobs.begin(), jobs.end(),
                                 [&](const std::string& l) { return l.rfind(id + ",", 0) == 0; });
    return it == jobs.end() ? std::string() : *it;
  };
  const std::string gpu = row("102");
  EXPECT_NE(gpu.find(",gpu,"), std::string::npos) << gpu;
  EXPECT_NE(gpu.find("gn0"), std::string::npos) << gpu;
  EXPECT_EQ(gpu.find("cn0"), std::string::npos) << gpu;
  const std::string timeout = row("105");
  EXPECT_NE(timeout.find(",600,"), std::string::npos) << timeout;  // run = limit, not 630
}

}  // namespace
}  // namespace hs::cli
