// The py: scheduler spec through the registry, with the interpreter the CLI embeds.
#include <gtest/gtest.h>

#include "cli/run_setup.hpp"
#include "cli/single_run.hpp"
#include "cli/main_command.hpp"
#include "policy/registry.hpp"
#include "sim/schedule_digest.hpp"
#include "util/error.hpp"

namespace hs {
namespace {

const std::string kSource = HETSCHED_SOURCE_DIR;
const std::string kExamples = kSource + "/examples/python/";
const std::string kFaulty = kSource + "/tests/pypolicy/policies/faulty.py";

struct Inputs {
  Cluster cluster;
  Workload workload;
};

Inputs esp_on_small() {
  Inputs in{cli::load_cluster("S"), {}};
  in.workload = cli::load_workload("esp-het", in.cluster, 1, std::string());
  return in;
}

cli::RunOutcome run(const Inputs& in, const std::string& spec) {
  cli::RunRequest request;
  request.scheduler_spec = spec;
  return cli::run_checked(in.cluster, in.workload, request);
}

std::string policy_error(const Inputs& in, const std::string& spec) {
  try {
    run(in, spec);
  } catch (const PolicyError& e) {
    return e.what();
  }
  ADD_FAILURE() << spec << " did not fail";
  return {};
}

std::string input_error(const std::string& spec) {
  try {
    run(esp_on_small(), spec);
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << spec << " was accepted";
  return {};
}

TEST(PySpec, FcfsIsFifoFirstFitJobForJob) {
  const Inputs in = esp_on_small();
  const auto py = run(in, "py:" + kExamples + "fcfs.py:Fcfs");
  const auto cxx = run(in, "fifo+ff");
  EXPECT_EQ(py.scheduler_name, "py:fcfs.py:Fcfs");
  EXPECT_TRUE(py.check.ok());
  EXPECT_EQ(py.summary.completed + py.summary.killed, cxx.summary.completed + cxx.summary.killed);
  EXPECT_EQ(schedule_digest(py.result), schedule_digest(cxx.result));
}

TEST(PySpec, EasyIsEasyFirstFitJobForJob) {
  const Inputs in = esp_on_small();
  const auto py = run(in, "py:" + kExamples + "easy.py:Easy");
  const auto cxx = run(in, "easy+ff");
  EXPECT_TRUE(py.check.ok());
  EXPECT_EQ(schedule_digest(py.result), schedule_digest(cxx.result));
  // Not vacuous: backfilling changes the schedule on this workload.
  EXPECT_NE(schedule_digest(cxx.result), schedule_digest(run(in, "fifo+ff").result));
}

TEST(PySpec, OptionsReachTheClassAsStrings) {
  const Inputs in = esp_on_small();
  const auto out = run(in, "py:" + kFaulty + ":RejectsAll:label=ab,repeat=2");
  EXPECT_EQ(out.result.rejected, static_cast<std::int64_t>(in.workload.jobs.size()));
  EXPECT_EQ(out.result.records.front().reason, "abab");
  EXPECT_NE(out.effective_options.find("label=ab"), std::string::npos);
}

TEST(PySpec, CompareOptionsGoToTheCxxSchedulersOnly) {
  EXPECT_TRUE(options_read_by("py:" + kFaulty + ":RejectsAll:label=x", {"bf_window=100"}).empty());
  EXPECT_EQ(options_read_by("backfill", {"bf_window=100"}), std::vector<std::string>{"bf_window=100"});
}

TEST(PySpec, RaisingPolicyFailsTheRunNamingPolicyTimeAndJob) {
  const std::string what = policy_error(esp_on_small(), "py:" + kFaulty + ":Raises");
  EXPECT_NE(what.find("scheduler py:faulty.py:Raises, pass at time 0"), std::string::npos) << what;
  EXPECT_NE(what.find("first job"), std::string::npos) << what;
  EXPECT_NE(what.find("ZeroDivisionError"), std::string::npos) << what;
  EXPECT_NE(what.find("nothing of this pass was applied"), std::string::npos) << what;
}

TEST(PySpec, OverAllocationIsRefusedBeforeAnythingIsApplied) {
  Inputs in{cli::load_cluster("sdsc-sp2"), {}};
  in.workload = cli::load_workload("esp", in.cluster, 1, std::string());
  const std::string what = policy_error(in, "py:" + kFaulty + ":OverAllocates");
  EXPECT_NE(what.find("allocation exceeds free resources"), std::string::npos) << what;
  EXPECT_NE(what.find(": job "), std::string::npos) << what;
  EXPECT_NE(what.find("pass at time"), std::string::npos) << what;
}

TEST(PySpec, WrongReturnTypeIsAPolicyError) {
  const std::string what = policy_error(esp_on_small(), "py:" + kFaulty + ":WrongType");
  EXPECT_NE(what.find("must return a hetsched.Decisions or None"), std::string::npos) << what;
}

TEST(PySpec, ThePolicyCanAskTheChecker) {
  const auto out = run(esp_on_small(), "py:" + kFaulty + ":ChecksItself");
  EXPECT_GT(out.result.rejected, 0);
}

TEST(PySpec, BadSpecsAreInputErrorsNamingTheField) {
  EXPECT_NE(input_error("py:" + kFaulty).find("expected py:path/to/file.py:ClassName"), std::string::npos);
  EXPECT_NE(input_error("py:/nonexistent/x.py:X").find("no such Python file"), std::string::npos);
  EXPECT_NE(input_error("py:" + kFaulty + ":Missing").find("field 'class' value 'Missing'"), std::string::npos);
  const std::string bad_option = input_error("py:" + kFaulty + ":Raises:speed=3");
  EXPECT_NE(bad_option.find("Raises(...) raised TypeError"), std::string::npos) << bad_option;
}

TEST(PySpec, CommandLineExitsWithThreeAndAClearMessage) {
  std::vector<std::string> args{"hetsched", "simulate", "--cluster", "S", "--workload", "esp-het",
                                "--scheduler", "py:" + kFaulty + ":Raises", "--out",
                                testing::TempDir() + "/py-raises"};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  testing::internal::CaptureStderr();
  const int code = cli::run_main(static_cast<int>(argv.size()), argv.data());
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(code, 3);
  EXPECT_NE(err.find("hetsched: policy error: scheduler py:faulty.py:Raises"), std::string::npos) << err;
}

}  // namespace
}  // namespace hs
