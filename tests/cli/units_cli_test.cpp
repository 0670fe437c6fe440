// Jobs of units (`-n 8 -c 4 --gpus-per-task=1`) through `hetsched simulate`: the Slurm model
// and a heuristic run them checker-clean with a whole number of tasks on every node; a window
// scheduler rejects them with its reason.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/exit_codes.hpp"
#include "cli_test_support.hpp"

namespace hs::cli {
namespace {

using namespace test;

std::string units_jobs(const std::string& dir) {
  const std::string path = dir + "/units.jobs";
  std::ofstream out(path);
  out << "# hetsched-jobs v1\n"
         "1 0 600 -n 8 -c 4 --gpus-per-task=1 -t 20:00\n"  // 2 tasks per node of (8 cores, 2 GPUs)
         "2 0 600 -n 5 -c 3 -t 20:00\n"                    // 2 tasks of 3 cores fit a node
         "3 10 300 -n 3 --gpus-per-task=2 -t 10:00\n";
  return path;
}

std::vector<std::string> rows(const std::string& csv) {
  std::vector<std::string> out;
  std::istringstream in(csv);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

TEST(UnitsCli, SlurmModelAndHeuristicsRunUnitsWindowSchedulersReject) {
  const std::string dir = temp_dir("units");
  const std::string jobs = units_jobs(dir);
  for (const char* scheduler : {"backfill", "easy+balanced+walltime", "fifo+ff+walltime"}) {
    const Outcome o = run({"simulate", "--cluster", "S", "--workload", jobs, "--scheduler",
                           scheduler, "--out", dir + "/run"});
    ASSERT_EQ(o.code, kExitOk) << scheduler << o.err << o.out;
    EXPECT_NE(o.out.find("checker    OK"), std::string::npos) << scheduler << o.out;
    const std::vector<std::string> r = rows(read_file(dir + "/run/jobs.csv"));
    ASSERT_EQ(r.size(), 4u);
    for (std::size_t i = 1; i < r.size(); ++i)
      EXPECT_NE(r[i].find("completed"), std::string::npos) << scheduler << ": " << r[i];
    // Job 1: 4 nodes, each 8 cores and 2 GPUs (two tasks).
    EXPECT_NE(r[1].find(":8c+2gpu"), std::string::npos) << scheduler << ": " << r[1];
  }
  const Outcome w = run({"simulate", "--cluster", "S", "--workload", jobs, "--scheduler",
                         "aucsched2", "--out", dir + "/window"});
  EXPECT_EQ(w.code, kExitOk) << w.err;
  EXPECT_NE(w.out.find("does not model tasks spread as units"), std::string::npos) << w.out;
}

}  // namespace
}  // namespace hs::cli
