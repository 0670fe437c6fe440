// The pieces of `--executor slurm` that need no cluster: the executor option, the --array
// list, squeue/sbatch output parsing, the sweep file, and that a run done by `sweep-task`
// (what each array task runs) writes the same bytes as the local executor's run.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "cli/comparison.hpp"
#include "cli/executor_spec.hpp"
#include "cli/exit_codes.hpp"
#include "cli/slurm_array.hpp"
#include "cli/sweep_spec.hpp"
#include "cli_test_support.hpp"
#include "util/error.hpp"

namespace hs::cli {
namespace {

namespace fs = std::filesystem;
using test::read_file;
using test::run;
using test::temp_dir;

TEST(Sweep, ExecutorSpecReadsEveryKey) {
  EXPECT_FALSE(parse_executor("local").slurm);
  const ExecutorSpec s =
      parse_executor("slurm:partition=batch,time=0:10:00,account=proj,mem=1G,cpus=2,array_max=8,retries=3,poll=1");
  EXPECT_TRUE(s.slurm);
  EXPECT_EQ(s.partition, "batch");
  EXPECT_EQ(s.time, "0:10:00");
  EXPECT_EQ(s.account, "proj");
  EXPECT_EQ(s.mem, "1G");
  EXPECT_EQ(s.cpus, 2);
  EXPECT_EQ(s.array_max, 8);
  EXPECT_EQ(s.retries, 3);
  EXPECT_EQ(s.poll_seconds, 1);
  EXPECT_EQ(parse_executor("slurm").retries, 2);
}

TEST(Sweep, ExecutorSpecErrorsNameTheItem) {
  const auto message = [](const std::string& text) {
    try {
      parse_executor(text);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("pbs").find("'pbs'"), std::string::npos);
  EXPECT_NE(message("slurm:cpus=0").find("cpus=0"), std::string::npos);
  EXPECT_NE(message("slurm:cpu=2").find("unknown key"), std::string::npos);
  EXPECT_NE(message("slurm:partition=").find("empty value"), std::string::npos);
  EXPECT_NE(message("slurm:retries=x").find("--executor"), std::string::npos);
}

TEST(Sweep, ArrayListCompressesRanges) {
  EXPECT_EQ(array_list({0, 1, 2, 3}, 0), "0-3");
  EXPECT_EQ(array_list({9, 7, 0, 1, 10, 1}, 4), "0-1,7,9-10%4");
  EXPECT_EQ(array_list({5}, 0), "5");
}

TEST(Sweep, SqueueAndSbatchOutputsAreParsed) {
  const auto states = parse_task_states("3 RUNNING\n4 PENDING\nN/A PENDING\n\n12 CANCELLED\n");
  ASSERT_EQ(states.size(), 3u);
  EXPECT_EQ(states.at(3), "RUNNING");
  EXPECT_EQ(states.at(12), "CANCELLED");
  EXPECT_EQ(phase_of("PENDING"), TaskPhase::pending);
  EXPECT_EQ(phase_of("COMPLETING"), TaskPhase::running);
  EXPECT_EQ(phase_of("NODE_FAIL"), TaskPhase::finished);
  EXPECT_EQ(parse_job_id("4711\n"), "4711");
  EXPECT_EQ(parse_job_id("4711;cluster2\n"), "4711");
  EXPECT_EQ(parse_job_id("sbatch: error: x\n"), "");
}

// Small enough for the sanitizer suite; the seeded GPU rule makes the repetitions differ.
ComparisonSpec small_spec(const std::string& out) {
  ComparisonSpec s;
  s.cluster = test::kTinyCluster;
  s.workload = test::kTinyJobs;
  s.add_gpus = "fraction=0.5,gpus=1";
  s.schedulers = {"backfill", "aucsched2"};
  s.options = {};
  s.repeat = 2;
  s.seed = 3;
  s.out_dir = out;
  s.write_report = false;
  return s;
}

TEST(Sweep, SweepFileRoundTripsAndRejectsStrangers) {
  const std::string dir = temp_dir("sweep-file");
  ComparisonSpec s = small_spec(dir + "/out");
  s.options = {"window=10"};
  std::ofstream(dir + "/sweep.txt") << sweep_spec_text(s);
  const ComparisonSpec back = read_sweep_spec(dir + "/sweep.txt");
  EXPECT_EQ(sweep_spec_text(back), sweep_spec_text(s));

  std::ofstream(dir + "/old.txt") << "hetsched=0.0.1 (commit x)\ncluster=S\n";
  EXPECT_THROW(read_sweep_spec(dir + "/old.txt"), InputError);
  std::string text = sweep_spec_text(s);
  std::ofstream(dir + "/bad.txt") << text << "colour=blue\n";
  try {
    read_sweep_spec(dir + "/bad.txt");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.txt:"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("colour"), std::string::npos) << e.what();
  }
}

// The determinism the Slurm executor relies on: each task rebuilds its inputs from the sweep
// file, and must write exactly the files the local executor writes.
TEST(Sweep, TaskRunsWriteTheLocalExecutorsBytes) {
  const std::string dir = temp_dir("sweep-task");
  const ComparisonSpec local = small_spec(dir + "/local");
  ASSERT_EQ(run_comparison(local, "test").exit_code, kExitOk);
  const ComparisonSpec tasks = small_spec(dir + "/tasks");
  std::ofstream(dir + "/sweep.txt") << sweep_spec_text(tasks);
  for (int i = 0; i < 4; ++i) {
    const test::Outcome o = run({"sweep-task", dir + "/sweep.txt", std::to_string(i)});
    ASSERT_EQ(o.code, kExitOk) << o.err;
  }
  int files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(dir + "/local/runs")) {
    if (!entry.is_regular_file() || entry.path().filename() == "check.txt") continue;
    const std::string rel = fs::relative(entry.path(), dir + "/local").string();
    EXPECT_EQ(read_file(entry.path().string()), read_file(dir + "/tasks/" + rel)) << rel;
    ++files;
  }
  EXPECT_EQ(files, 4 * 5);  // jobs, summary (csv, json), queue, usage per run
  EXPECT_NE(run({"sweep-task", dir + "/sweep.txt", "4"}).code, kExitOk);  // out of range
}

TEST(Sweep, MissingSbatchIsAClearError) {
  const std::string dir = temp_dir("sweep-no-sbatch");
  const std::string path = std::getenv("PATH") ? std::getenv("PATH") : "";
  setenv("PATH", dir.c_str(), 1);
  const test::Outcome o = run({"compare", "--cluster", "S", "--workload", "esp", "--scheduler",
                               "backfill", "--repeat", "1", "--executor", "slurm", "--out",
                               dir + "/out"});
  setenv("PATH", path.c_str(), 1);
  EXPECT_EQ(o.code, kExitBadInput);
  EXPECT_NE(o.err.find("sbatch not found in PATH"), std::string::npos) << o.err;
  EXPECT_FALSE(fs::exists(dir + "/out")) << "nothing is written before Slurm answers";
}

}  // namespace
}  // namespace hs::cli
