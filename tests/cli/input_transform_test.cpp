// Input transformations (--add-gpus, --swf-partitions): applied, and recorded in simulate's
// run header and run.json so a result can be traced to what was done to the trace.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "cli/exit_codes.hpp"
#include "cli_test_support.hpp"

namespace hs::cli {
namespace {

using namespace test;

// Partitions 1 and 2 (field 16), one job without one (-1).
std::string write_trace(const std::string& dir) {
  const std::string path = dir + "/site.swf";
  std::ofstream(path) << "1 0 1 100 4 -1 -1 4 200 -1 1 7 1 -1 1 1 -1 -1\n"
                      << "2 5 1 100 4 -1 -1 4 200 -1 1 7 1 -1 1 2 -1 -1\n"
                      << "3 9 1 100 4 -1 -1 4 200 -1 1 7 1 -1 1 -1 -1 -1\n";
  return path;
}

TEST(InputTransforms, SwfPartitionsAndAddGpusAreAppliedAndRecorded) {
  const std::string dir = temp_dir("transforms");
  const Outcome o = run({"simulate", "--cluster", kTinyCluster, "--workload", write_trace(dir),
                         "--swf-partitions", "1=cpu,2=gpu", "--add-gpus", "fraction=1,gpus=1",
                         "--seed", "7", "--out", dir + "/run"});
  ASSERT_EQ(o.code, kExitOk) << o.err << o.out;
  EXPECT_NE(o.out.find("transform  add-gpus fraction=1,gpus=1,gpus_max=0,gres=gpu (seed 7)"),
            std::string::npos)
      << o.out;
  EXPECT_NE(o.out.find("transform  swf-partitions 1=cpu,2=gpu"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("SWF partition -1 not in the partition map"), std::string::npos) << o.out;
  const std::string manifest = read_file(dir + "/run/run.json");
  EXPECT_NE(manifest.find("\"input_transformations\": [\"add-gpus fraction=1,gpus=1,gpus_max=0,"
                          "gres=gpu (seed 7)\", \"swf-partitions 1=cpu,2=gpu\"]"),
            std::string::npos)
      << manifest;
  const std::string jobs = read_file(dir + "/run/jobs.csv");
  EXPECT_NE(jobs.find("\n1,q1,u7,cpu,"), std::string::npos) << jobs;
  EXPECT_NE(jobs.find("\n2,q1,u7,gpu,"), std::string::npos) << jobs;
  EXPECT_NE(jobs.find("\n3,q1,u7,,"), std::string::npos) << jobs;
}

TEST(InputTransforms, RunWithoutTransformationsRecordsAnEmptyList) {
  const std::string dir = temp_dir("transforms-none");
  const Outcome o = run({"simulate", "--cluster", kTinyCluster, "--workload", write_trace(dir),
                         "--out", dir + "/run"});
  ASSERT_EQ(o.code, kExitOk) << o.err;
  EXPECT_EQ(o.out.find("transform "), std::string::npos) << o.out;
  EXPECT_NE(read_file(dir + "/run/run.json").find("\"input_transformations\": []"),
            std::string::npos);
}

TEST(InputTransforms, PartitionMapErrorsNameTheOptionAndValue) {
  const std::string dir = temp_dir("transforms-bad");
  const std::string trace = write_trace(dir);
  const Outcome unknown = run({"simulate", "--cluster", kTinyCluster, "--workload", trace,
                               "--swf-partitions", "1=cpu,2=gpus", "--out", dir + "/run"});
  EXPECT_EQ(unknown.code, kExitBadInput);
  EXPECT_NE(unknown.err.find("--swf-partitions"), std::string::npos) << unknown.err;
  EXPECT_NE(unknown.err.find("no partition 'gpus'"), std::string::npos) << unknown.err;
  const Outcome malformed = run({"simulate", "--cluster", kTinyCluster, "--workload", trace,
                                 "--swf-partitions", "one=cpu", "--out", dir + "/run"});
  EXPECT_EQ(malformed.code, kExitBadInput);
  EXPECT_NE(malformed.err.find("one=cpu"), std::string::npos) << malformed.err;
  const Outcome not_swf = run({"simulate", "--cluster", kTinyCluster, "--workload", kTinyJobs,
                               "--swf-partitions", "1=cpu", "--out", dir + "/run"});
  EXPECT_EQ(not_swf.code, kExitBadInput);
  EXPECT_NE(not_swf.err.find("SWF traces only"), std::string::npos) << not_swf.err;
  const Outcome generator = run({"simulate", "--cluster", kTinyCluster, "--workload", "esp",
                                 "--swf-partitions", "1=cpu", "--out", dir + "/run"});
  EXPECT_EQ(generator.code, kExitBadInput);
  EXPECT_NE(generator.err.find("is a generator"), std::string::npos) << generator.err;
}

}  // namespace
}  // namespace hs::cli
