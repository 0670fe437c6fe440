// `simulate --dump-plans FILE`: the Slurm model's backfill reservations, pass by pass.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "cli/exit_codes.hpp"
#include "cli_test_support.hpp"

namespace hs::cli {
namespace {

using namespace test;

const std::string kLabJobs = kSource + "/examples/workloads/lab-mix-v-78.jobs";

TEST(PlanDump, EveryReservationIsWrittenWithItsPassAndNodes) {
  const std::string dir = temp_dir("dump-plans");
  const Outcome o = run({"simulate", "--cluster", kTinyCluster, "--workload", kLabJobs,
                         "--scheduler", "backfill", "--out", dir + "/out", "--dump-plans",
                         dir + "/plans.csv"});
  ASSERT_EQ(o.code, 0) << o.err;
  std::istringstream lines(read_file(dir + "/plans.csv"));
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line, "time,job,planned_start,nodes");
  int rows = 0;
  while (std::getline(lines, line)) {
    ++rows;
    long long now = 0, job = 0, start = 0;
    char nodes[256] = {};
    ASSERT_EQ(std::sscanf(line.c_str(), "%lld,%lld,%lld,\"%255[^\"]\"", &now, &job, &start, nodes),
              4)
        << line;
    EXPECT_GT(start, now) << line;  // a reservation is for later
    EXPECT_TRUE(nodes[1] == 'n') << line;  // cn..., gn...
  }
  EXPECT_GT(rows, 0);
}

TEST(PlanDump, NeedsTheSlurmModel) {
  const std::string dir = temp_dir("dump-plans-window");
  const Outcome o = run({"simulate", "--cluster", kTinyCluster, "--workload", kTinyJobs,
                         "--scheduler", "aucsched2", "--out", dir + "/out", "--dump-plans",
                         dir + "/plans.csv"});
  EXPECT_EQ(o.code, kExitBadInput);
  EXPECT_NE(o.err.find("--dump-plans"), std::string::npos) << o.err;
}

}  // namespace
}  // namespace hs::cli
