// End-to-end tests of the command line: exit codes, error messages naming the bad input,
// outputs written, determinism of whole runs.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/exit_codes.hpp"
#include "cli/main_command.hpp"
#include "cli_test_support.hpp"

namespace hs::cli {
namespace {

namespace fs = std::filesystem;
using namespace test;

TEST(Cli, HelpAndUnknownCommands) {
  EXPECT_EQ(run({"--help"}).code, kExitOk);
  EXPECT_EQ(run({"simulate", "--help"}).code, kExitOk);
  EXPECT_EQ(run({"compare", "--help"}).code, kExitOk);
  const Outcome bad = run({"simulat"});
  EXPECT_EQ(bad.code, kExitBadInput);
  EXPECT_NE(bad.err.find("unknown command"), std::string::npos);
}

TEST(Cli, UnknownOptionIsNamed) {
  const Outcome o = run({"simulate", "--clutser", "L"});
  EXPECT_EQ(o.code, kExitBadInput);
  EXPECT_NE(o.err.find("--clutser"), std::string::npos) << o.err;
}

TEST(Cli, UnknownClusterAndSchedulerOptionAreBadInput) {
  EXPECT_EQ(run({"simulate", "--cluster", "no-such-cluster"}).code, kExitBadInput);
  const Outcome o = run({"simulate", "--cluster", kTinyCluster, "--workload", kTinyJobs,
                         "--scheduler", "backfill:mode=bogus", "--out", temp_dir("badopt")});
  EXPECT_EQ(o.code, kExitBadInput);
  EXPECT_NE(o.err.find("bogus"), std::string::npos) << o.err;
}

TEST(Cli, UnwritableOutputDirectoryIsBadInputBeforeAnyRun) {
  const std::string dir = temp_dir("unwritable");
  const std::string file = dir + "/plain-file";
  std::ofstream(file) << "x\n";
  for (const char* command : {"simulate", "compare"}) {
    std::vector<std::string> args = {command, "--cluster", kTinyCluster, "--workload", kTinyJobs,
                                     "--scheduler", "backfill", "--out", file + "/sub"};
    if (std::string(command) == "compare") args.insert(args.end(), {"--repeat", "1"});
    const Outcome o = run(args);
    EXPECT_EQ(o.code, kExitBadInput) << command << o.err;
    EXPECT_NE(o.err.find("'--out'"), std::string::npos) << o.err;
  }
}

TEST(Cli, CompareChecksSchedulersAndOptionsOnceBeforeRunning) {
  auto compare = [](std::vector<std::string> extra) {
    std::vector<std::string> args = {"compare", "--cluster", kTinyCluster, "--workload", kTinyJobs,
                                     "--repeat", "1", "--parallel", "1", "--out",
                                     temp_dir("compare-opts")};
    args.insert(args.end(), extra.begin(), extra.end());
    return run(args);
  };
  const Outcome unknown = compare({"--scheduler", "nosuch"});
  EXPECT_EQ(unknown.code, kExitBadInput);
  EXPECT_NE(unknown.err.find("nosuch"), std::string::npos) << unknown.err;
  const Outcome unread = compare({"--scheduler", "backfill", "--opt", "nosuch=1"});
  EXPECT_EQ(unread.code, kExitBadInput);
  EXPECT_NE(unread.err.find("nosuch=1"), std::string::npos) << unread.err;
  EXPECT_EQ(compare({"--scheduler", "backfill", "--scheduler", "backfill"}).code, kExitBadInput);
  // bf_window is read by backfill only; the window scheduler runs without it.
  const Outcome mixed = compare({"--scheduler", "backfill", "--scheduler", "aucsched2",
                                 "--opt", "bf_window=100"});
  EXPECT_EQ(mixed.code, kExitOk) << mixed.err;
}

TEST(Cli, ConfigurationFileThatIsADirectoryIsBadInput) {
  const std::string dir = temp_dir("conf-dir");
  std::ofstream(dir + "/slurm.conf") << "NodeName=n[1-2] CPUs=4\nPartitionName=p Nodes=ALL Default=YES\n";
  fs::create_directories(dir + "/gres.conf");
  const Outcome gres = run({"simulate", "--cluster", dir + "/slurm.conf", "--workload", kTinyJobs,
                            "--out", dir + "/out"});
  EXPECT_EQ(gres.code, kExitBadInput) << gres.err;
  EXPECT_NE(gres.err.find("is a directory"), std::string::npos) << gres.err;
  fs::remove_all(dir + "/gres.conf");
  std::ofstream(dir + "/slurm.conf", std::ios::app) << "Include " << dir << "\n";
  const Outcome include = run({"simulate", "--cluster", dir + "/slurm.conf", "--workload",
                               kTinyJobs, "--out", dir + "/out"});
  EXPECT_EQ(include.code, kExitBadInput) << include.err;
  EXPECT_NE(include.err.find("slurm.conf:3"), std::string::npos) << include.err;
}

TEST(Cli, IgnoredSlurmConfKeysAreWarnedAbout) {
  const std::string dir = temp_dir("conf-typo");
  std::ofstream(dir + "/slurm.conf") << "NodeName=n[1-4] CPUs=8 Gres=gpu:2 Wieght=3\n"
                                     << "PartitionName=p Nodes=ALL Default=YES\n";
  const Outcome o = run({"simulate", "--cluster", dir + "/slurm.conf", "--workload", kTinyJobs,
                         "--out", dir + "/out"});
  EXPECT_NE(o.err.find("warning: " + dir + "/slurm.conf:1"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("Wieght"), std::string::npos) << o.err;
}

TEST(Cli, MalformedJobFileNamesFileLineAndValue) {
  const std::string dir = temp_dir("badjobs");
  const std::string path = dir + "/bad.jobs";
  std::ofstream(path) << "# hetsched-jobs v1\n1 0 100 -n 4 -t 10\n2 0 100 -n four -t 10\n";
  const Outcome o = run({"simulate", "--cluster", kTinyCluster, "--workload", path, "--out", dir});
  EXPECT_EQ(o.code, kExitBadInput);
  EXPECT_NE(o.err.find(path + ":3"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("four"), std::string::npos) << o.err;
}

TEST(Cli, ImpossibleJobIsRejectedAndCountedNotDropped) {
  const std::string dir = temp_dir("impossible");
  const std::string path = dir + "/w.jobs";
  std::ofstream(path) << "# hetsched-jobs v1\n1 0 100 -n 4 -t 10\n2 0 100 -n 100000 -t 10\n";
  const Outcome o = run({"simulate", "--cluster", kTinyCluster, "--workload", path, "--out", dir});
  EXPECT_EQ(o.code, kExitOk) << o.err;
  EXPECT_NE(o.out.find("rejected"), std::string::npos);
  const std::string jobs = read_file(dir + "/jobs.csv");
  EXPECT_NE(jobs.find("rejected"), std::string::npos) << jobs;
}

TEST(Cli, SimulateWritesOutputsAndIsDeterministic) {
  const std::string a = temp_dir("det-a"), b = temp_dir("det-b");
  for (const auto& dir : {a, b}) {
    const Outcome o = run({"simulate", "--cluster", kTinyCluster, "--workload", kTinyJobs,
                           "--scheduler", "backfill-easy", "--out", dir});
    ASSERT_EQ(o.code, kExitOk) << o.err;
    EXPECT_NE(o.out.find("checker    OK"), std::string::npos);
  }
  for (const char* file : {"jobs.csv", "summary.csv", "summary.json", "queue.csv", "usage.csv"}) {
    const std::string first = read_file(a + "/" + file);
    EXPECT_FALSE(first.empty()) << file;
    EXPECT_EQ(first, read_file(b + "/" + file)) << file;
  }
}

TEST(Cli, RunManifestRecordsVersionOptionsAndSkippedTraceRecords) {
  const std::string dir = temp_dir("manifest");
  const std::string trace = dir + "/t.swf";
  std::ofstream(trace) << "; MaxProcs: 128\n"
                       << "1 0 -1 10 4 -1 -1 4 100 -1 1 1 1 -1 1 -1 -1 -1\n"
                       << "2 5 -1 -1 4 -1 -1 4 100 -1 1 1 1 -1 1 -1 -1 -1\n"
                       << "3 6 -1 10 4 -1 -1 4 100 -1 1 1 1 -1 1 -1 -1 -1\n";
  const Outcome o = run({"simulate", "--cluster", "sdsc-sp2", "--workload", trace,
                         "--scheduler", "backfill-easy", "--out", dir + "/run"});
  ASSERT_EQ(o.code, kExitOk) << o.err;
  EXPECT_NE(o.out.find("1 records skipped: run time <= 0"), std::string::npos) << o.out;
  const std::string manifest = read_file(dir + "/run/run.json");
  EXPECT_NE(manifest.find("\"hetsched\": \"0.1.0 (commit "), std::string::npos) << manifest;
  EXPECT_NE(manifest.find("\"jobs\": 2"), std::string::npos) << manifest;
  EXPECT_NE(manifest.find("records skipped: run time <= 0"), std::string::npos) << manifest;
  EXPECT_NE(manifest.find("mode=easy"), std::string::npos) << manifest;
}

// Without --cluster an SWF trace runs on the machine its header describes (not on the
// documents' 1024-node default); `--cluster trace` says so explicitly, and is an error for
// a workload that is not a trace.
TEST(Cli, ATraceWithoutAClusterRunsOnTheMachineOfItsHeader) {
  const std::string dir = temp_dir("trace-cluster");
  const std::string trace = dir + "/t.swf";
  std::ofstream(trace) << "; MaxNodes: 4\n; MaxProcs: 8\n"
                       << "1 0 -1 100 8 -1 -1 8 200 -1 1 1 1 -1 1 -1 -1 -1\n"
                       << "2 1 -1 100 8 -1 -1 8 200 -1 1 1 1 -1 1 -1 -1 -1\n";
  const Outcome o = run({"simulate", "--workload", trace, "--out", dir + "/run"});
  ASSERT_EQ(o.code, kExitOk) << o.err;
  EXPECT_NE(o.out.find("cluster    trace:t: 4 nodes, 8 cores"), std::string::npos) << o.out;
  EXPECT_NE(o.err.find("cluster from the header of"), std::string::npos) << o.err;
  // Each job takes the whole machine, so the second waits for the first.
  EXPECT_NE(read_file(dir + "/run/summary.csv").find("wait_max,99"), std::string::npos);
  const Outcome same = run({"simulate", "--cluster", "trace", "--workload", trace,
                            "--out", dir + "/run2"});
  ASSERT_EQ(same.code, kExitOk) << same.err;
  EXPECT_EQ(read_file(dir + "/run/jobs.csv"), read_file(dir + "/run2/jobs.csv"));
  const Outcome wrong = run({"simulate", "--cluster", "trace", "--workload", kTinyJobs,
                             "--out", dir + "/run3"});
  EXPECT_EQ(wrong.code, kExitBadInput);
  EXPECT_NE(wrong.err.find("is not an SWF trace file"), std::string::npos) << wrong.err;
  std::ofstream(dir + "/bare.swf") << "1 0 -1 100 8 -1 -1 8 200 -1 1 1 1 -1 1 -1 -1 -1\n";
  const Outcome bare = run({"simulate", "--workload", dir + "/bare.swf", "--out", dir + "/run4"});
  EXPECT_EQ(bare.code, kExitBadInput);
  EXPECT_NE(bare.err.find("pass --cluster"), std::string::npos) << bare.err;
  const Outcome listed = run({"list", "clusters"});
  EXPECT_NE(listed.out.find("trace "), std::string::npos) << listed.out;
}

TEST(Cli, CompareRunsEverySchedulerOnTheSameJobs) {
  const std::string dir = temp_dir("compare");
  const Outcome o = run({"compare", "--cluster", "S", "--workload", "esp",
                         "--scheduler", "backfill", "--scheduler", "aucsched2", "--repeat", "2",
                         "--parallel", "2", "--out", dir});
  ASSERT_EQ(o.code, kExitOk) << o.out << o.err;
  EXPECT_NE(o.out.find("checker    OK in all 4 runs"), std::string::npos) << o.out;
  EXPECT_TRUE(fs::exists(dir + "/report.md"));
  // Both schedulers saw identical jobs: same count and same theoretical runtime per seed.
  for (int r = 0; r < 2; ++r) {
    const std::string rep = "/r" + std::to_string(r) + "/summary.csv";
    const std::string s1 = read_file(dir + "/runs/backfill" + rep);
    const std::string s2 = read_file(dir + "/runs/aucsched2" + rep);
    const auto line = [](const std::string& text, const std::string& key) {
      const auto at = text.find("\n" + key + ",");
      return text.substr(at, text.find('\n', at + 1) - at);
    };
    EXPECT_EQ(line(s1, "jobs"), line(s2, "jobs"));
    EXPECT_EQ(line(s1, "theoretical_runtime"), line(s2, "theoretical_runtime"));
  }
}

// Jobs the cluster can never run are listed with the reason, naming what rules nodes out.
TEST(Cli, RejectedJobsAreShownWithTheirReason) {
  const std::string dir = temp_dir("rejected-shown");
  const std::string jobs = dir + "/bad.jobs";
  std::ofstream(jobs) << "# hetsched-jobs v1\n"
                         "1 0 600 partition=gpu -n 8 -N 3 --gres=gpu:4 -t 20:00\n"
                         "2 0 600 -n 4 --mem=100G -t 10\n3 0 60 -n 4 -t 10\n";
  const Outcome o = run({"simulate", "--cluster", kTinyCluster, "--workload", jobs, "--out",
                         dir + "/out"});
  ASSERT_EQ(o.code, kExitOk) << o.err;
  EXPECT_NE(o.out.find("rejected   job 1: needs at least 3 nodes, only 2 eligible (of 8 nodes "
                       "in partition gpu: 6 have fewer than 4 gpu)"),
            std::string::npos)
      << o.out;
  EXPECT_NE(o.out.find("rejected   job 2: needs at least 1 node, only 0 eligible (of 8 nodes "
                       "in partition cpu: 8 have less than 102400 MB)"),
            std::string::npos)
      << o.out;
  EXPECT_EQ(o.out.find("job 3:"), std::string::npos);
}

// A window scheduler's run reports its passes and the solver's failure signals.
TEST(Cli, WindowRunsReportTheirPasses) {
  const std::string dir = temp_dir("window-passes");
  const Outcome o = run({"simulate", "--cluster", kTinyCluster, "--workload", kTinyJobs,
                         "--scheduler", "aucsched2", "--out", dir});
  ASSERT_EQ(o.code, kExitOk) << o.err;
  EXPECT_NE(o.out.find("\nwindow     "), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("0 time-outs, 0 greedy fallbacks, 0 proposals refused by the checker"),
            std::string::npos)
      << o.out;
  const Outcome backfill = run({"simulate", "--cluster", kTinyCluster, "--workload", kTinyJobs,
                                "--out", dir});
  EXPECT_EQ(backfill.out.find("\nwindow     "), std::string::npos);
}

}  // namespace
}  // namespace hs::cli
