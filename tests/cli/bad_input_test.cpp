// Issue 22: bad inputs a new user runs into, seen from the command line. Each must end in a
// clear message naming the input (exit 2), or in a run whose report says what happened to
// every job — never in a silent success or a misleading message.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli/exit_codes.hpp"
#include "cli_test_support.hpp"

namespace hs::cli {
namespace {

namespace fs = std::filesystem;
using namespace test;

Outcome simulate(const std::string& cluster, const std::string& workload, const std::string& out) {
  return run({"simulate", "--cluster", cluster, "--workload", workload, "--out", out});
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// (1) A workload path that does not exist or is a directory is reported as a file problem,
// not as an unknown generator.
TEST(BadInput, MissingWorkloadFileIsNamedAsAFile) {
  const std::string dir = temp_dir("bad-missing-workload");
  const std::string out = dir + "/out";
  for (const std::string& path : {std::string("/nonexistent/x.swf"), dir + "/tiny.jbos",
                                  std::string("no-such-trace.swf.gz"), std::string("typo.jobs")}) {
    const Outcome o = simulate("S", path, out);
    EXPECT_EQ(o.code, kExitBadInput) << path;
    EXPECT_TRUE(has(o.err, "value '" + path + "': no such file")) << o.err;
    EXPECT_FALSE(has(o.err, "unknown workload generator")) << o.err;
  }
  const Outcome folder = simulate("S", dir, out);
  EXPECT_EQ(folder.code, kExitBadInput);
  EXPECT_TRUE(has(folder.err, "value '" + dir + "': is a directory")) << folder.err;
  // A mistyped generator name is still one.
  const Outcome generator = simulate("S", "esp-hte", out);
  EXPECT_EQ(generator.code, kExitBadInput);
  EXPECT_TRUE(has(generator.err, "unknown workload generator 'esp-hte'")) << generator.err;
}

// (2) A job in a partition the cluster does not have is rejected naming the partition, with
// or without -t, on a built-in cluster (no partitions) and on a slurm.conf one.
TEST(BadInput, UnknownPartitionIsARejectionNamingIt) {
  const std::string dir = temp_dir("bad-partition");
  const std::string jobs = dir + "/w.jobs";
  std::ofstream(jobs) << "# hetsched-jobs v1\n1 0 60 partition=nope -n 4\n"
                         "2 0 60 partition=nope -n 4 -t 10\n3 0 60 -n 4 -t 10\n";
  const Outcome builtin = simulate("S", jobs, dir + "/s");
  ASSERT_EQ(builtin.code, kExitOk) << builtin.err;
  for (const char* job : {"job 1: ", "job 2: "})
    EXPECT_TRUE(has(builtin.out, std::string("rejected   ") + job +
                                     "unknown partition 'nope' (cluster S has no partitions)"))
        << builtin.out;
  EXPECT_FALSE(has(builtin.out, "job 3:")) << builtin.out;
  const Outcome conf = simulate(kTinyCluster, jobs, dir + "/tiny");
  ASSERT_EQ(conf.code, kExitOk) << conf.err;
  EXPECT_TRUE(has(conf.out, "rejected   job 1: unknown partition 'nope' (partitions: cpu, gpu, "
                            "debug)"))
      << conf.out;
  EXPECT_FALSE(has(conf.out, "no time limit")) << conf.out;
}

// (3) Nothing to replay is an input error, not a clean run of 0 jobs.
TEST(BadInput, EmptyTraceAndHeaderOnlyJobFileAreBadInput) {
  const std::string dir = temp_dir("bad-empty");
  const std::string swf = dir + "/empty.swf", jobs = dir + "/header.jobs";
  std::ofstream(swf) << "";
  std::ofstream(jobs) << "# hetsched-jobs v1\n";
  for (const std::string& path : {swf, jobs}) {
    const Outcome o = simulate("S", path, dir + "/out");
    EXPECT_EQ(o.code, kExitBadInput) << o.out;
    EXPECT_TRUE(has(o.err, "no jobs in " + path)) << o.err;
  }
}

// (5) Bytes of a binary or mistyped file reach the terminal escaped.
TEST(BadInput, BinaryBytesAreEscapedInTheMessage) {
  const std::string dir = temp_dir("bad-binary");
  const std::string jobs = dir + "/binary.jobs";
  std::ofstream(jobs, std::ios::binary) << "\x1b[2J\x01" << "bad\xff\r\n1 0 10 -n 1\n";
  const Outcome o = simulate("S", jobs, dir + "/out");
  EXPECT_EQ(o.code, kExitBadInput);
  EXPECT_TRUE(has(o.err, "value '\\x1b[2J\\x01bad\\xff'")) << o.err;
  const std::string body = o.err.substr(0, o.err.size() - 1);  // without the final newline
  EXPECT_TRUE(std::none_of(body.begin(), body.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte < 0x20 || byte == 0x7f || byte == 0xff;
  })) << o.err;
}

// (6) An output directory that cannot be created: the message says why.
TEST(BadInput, OutputDirectoryThatCannotBeCreatedSaysWhy) {
  const std::string dir = temp_dir("bad-out");
  const std::string file = dir + "/plain-file";
  std::ofstream(file) << "x\n";
  const Outcome under_file = simulate("S", kTinyJobs, file + "/sub");
  EXPECT_EQ(under_file.code, kExitBadInput);
  EXPECT_TRUE(has(under_file.err, "'" + file + "' exists and is not a directory"))
      << under_file.err;
  const Outcome proc = simulate("S", kTinyJobs, "/proc/hetsched-out");
  EXPECT_EQ(proc.code, kExitBadInput);
  EXPECT_TRUE(has(proc.err, "value '/proc/hetsched-out'")) << proc.err;
  EXPECT_TRUE(has(proc.err, "'/proc' is on the kernel's proc file system")) << proc.err;
}

// (7) -t UNLIMITED runs where no MaxTime applies, planned with Slurm's one-year backfill
// horizon, and the run says so; under a finite MaxTime the job is rejected as in Slurm.
TEST(BadInput, UnlimitedTimeLimitRunsWhereNoMaxTimeApplies) {
  const std::string dir = temp_dir("bad-unlimited");
  const std::string jobs = dir + "/w.jobs";
  std::ofstream(jobs) << "# hetsched-jobs v1\n1 0 60 -n 4 -t UNLIMITED\n2 0 60 -n 4 -t 10\n";
  const Outcome bare = simulate("S", jobs, dir + "/s");
  ASSERT_EQ(bare.code, kExitOk) << bare.err;
  EXPECT_FALSE(has(bare.out, "rejected   job")) << bare.out;
  EXPECT_TRUE(has(bare.out, "checker    OK")) << bare.out;
  const std::string note =
      "1 job(s) with time limit UNLIMITED and no MaxTime: planned as running at most "
      "365-00:00:00";
  EXPECT_TRUE(has(bare.out, note)) << bare.out;
  EXPECT_TRUE(has(read_file(dir + "/s/run.json"), note));
  const Outcome limited = simulate(kTinyCluster, jobs, dir + "/tiny");
  ASSERT_EQ(limited.code, kExitOk) << limited.err;
  EXPECT_TRUE(has(limited.out, "rejected   job 1: time limit UNLIMITED exceeds MaxTime 172800 s "
                               "of partition cpu"))
      << limited.out;
  EXPECT_FALSE(has(limited.out, "planned as running")) << limited.out;
}

}  // namespace
}  // namespace hs::cli
