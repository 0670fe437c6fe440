// A Python policy on the bridge: one dry-run cycle on a job table captured from the lab.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "bridge/fake_slurm.hpp"
#include "cli/main_command.hpp"
#include "io/builtin_clusters.hpp"
#include "io/text_file.hpp"
#include "policy/registry.hpp"

namespace hs {
namespace {

const std::string kSource = HETSCHED_SOURCE_DIR;
const std::string kBridgeData = kSource + "/tests/bridge/data/";

struct Cycle {
  int code;
  std::string out;
  std::string err;
};

Cycle dry_cycle(const std::string& scheduler) {
  std::vector<std::string> args{"hetsched", "bridge", "--cluster", kBridgeData + "slurm.conf",
                                "--jobs-from", kBridgeData + "listing.txt", "--scheduler", scheduler};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  const int code = cli::run_main(static_cast<int>(argv.size()), argv.data());
  Cycle c{code, testing::internal::GetCapturedStdout(), testing::internal::GetCapturedStderr()};
  return c;
}

// The scontrol commands of the cycle, in order, without the wall-clock stamps (`at=<epoch>`)
// the job markers carry: two cycles may run in different seconds.
std::vector<std::string> commands(const std::string& out) {
  static const std::regex stamp("at=[0-9]+");
  std::vector<std::string> lines;
  std::string::size_type at = 0;
  while ((at = out.find("(dry run) ", at)) != std::string::npos) {
    const auto end = out.find('\n', at);
    lines.push_back(std::regex_replace(out.substr(at, end - at), stamp, "at=T"));
    at = end;
  }
  return lines;
}

TEST(PyBridge, PythonFcfsIssuesTheCommandsOfFifoFirstFit) {
  const Cycle py = dry_cycle("py:" + kSource + "/examples/python/fcfs.py:Fcfs");
  const Cycle cxx = dry_cycle("fifo+ff");
  ASSERT_EQ(py.code, 0) << py.err;
  EXPECT_NE(py.out.find("scontrol release 15"), std::string::npos) << py.out;
  EXPECT_EQ(commands(py.out), commands(cxx.out));
}

// Each proposal is checked on its own: the policy places every job as if the cluster were
// idle, so both placeable jobs would share job 14's node; both are turned down, nothing is
// released, and the bridge goes on (before: the whole pass failed and the bridge exited).
TEST(PyBridge, OverAllocationIsTurnedDownProposalByProposal) {
  const Cycle c = dry_cycle("py:" + kSource + "/tests/pypolicy/policies/faulty.py:OverAllocates");
  EXPECT_EQ(c.code, 0) << c.err;
  EXPECT_NE(c.out.find("job 15: proposal refused: exceeds what is free now"), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("job 16: proposal refused: exceeds what is free now"), std::string::npos) << c.out;
  EXPECT_EQ(c.out.find("scontrol release"), std::string::npos) << c.out;
}

// The user shrinks a held job's request (scontrol update) while it waits: each example
// policy plans it afresh from its `Submitted` event again, and the start fits the request as
// it is now. Job 15 (-N 2 -n 16 in the captured table) waits while only n1 is usable, then
// asks 4 CPUs on one node.
TEST(PyBridge, ExamplesPlanARequestChangedWhileQueuedAfresh) {
  using bridge::test::FakeSlurm;
  const Cluster cluster = load_cluster_spec(kBridgeData + "slurm.conf");
  const Time now = bridge::parse_slurm_timestamp("2026-11-22T10:22:10");
  for (const std::string policy : {"fcfs.py:Fcfs", "easy.py:Easy", "weighted_fcfs.py:WeightedFcfs",
                                   "gpu_aware.py:GpuAwareFcfs"}) {
    FakeSlurm slurm;
    slurm.table = bridge::test::lines_of(text::read_text_file(kBridgeData + "listing.txt"), {14, 15});
    slurm.nodes = text::read_text_file(kBridgeData + "nodes.txt");
    BuiltScheduler built = make_scheduler("py:" + kSource + "/examples/python/" + policy, {});
    bridge::SlurmBridge live(cluster, *built.scheduler, slurm, {});
    ASSERT_EQ(live.cycle(now).started, 0u) << policy;
    slurm.set_field("15", "NumNodes", "1-1");
    slurm.set_field("15", "NumCPUs", "4");
    slurm.set_field("15", "NumTasks", "4");
    slurm.nodes.clear();
    const bridge::CycleReport report = live.cycle(now + 1);
    EXPECT_EQ(report.started, 1u) << policy << report.json();
    EXPECT_EQ(report.proposals_refused, 0u) << policy;
    const auto starts = bridge::test::pinned_starts(slurm.commands);
    ASSERT_EQ(starts.size(), 1u) << policy;
    EXPECT_EQ(starts[0].nodes.size(), 1u) << policy;
  }
}

struct LiveCycles {
  bridge::test::FakeSlurm slurm;
  Cluster cluster = load_cluster_spec(kBridgeData + "slurm.conf");
  BuiltScheduler built;
  bridge::SlurmBridge live;
  LiveCycles(const std::string& policy, const std::vector<int>& jobs)
      : slurm(table_of(jobs)), built(make_scheduler("py:" + kSource + "/tests/pypolicy/policies/" + policy, {})),
        live(cluster, *built.scheduler, slurm, {}) {}
  static bridge::test::FakeSlurm table_of(const std::vector<int>& jobs) {
    bridge::test::FakeSlurm slurm;
    slurm.table = bridge::test::lines_of(text::read_text_file(kBridgeData + "listing.txt"), jobs);
    return slurm;  // node states unknown: every node usable
  }
};

const Time kListingTime = bridge::parse_slurm_timestamp("2026-11-22T10:22:10");

bool logged(const bridge::CycleReport& report, const std::string& text) {
  for (const std::string& line : report.log)
    if (line.find(text) != std::string::npos) return true;
  return false;
}

// A pass the policy fails (it raises) applies nothing and stops nothing: the jobs stay held,
// the failure is logged, and the next cycle hands the policy the events it missed, so a
// policy that learns of jobs from their Submitted events still starts them.
TEST(PyBridge, AFailedPassAppliesNothingAndItsEventsComeAgain) {
  LiveCycles run("faulty.py:RaisesInItsFirstPass", {14, 16});
  const bridge::CycleReport first = run.live.cycle(kListingTime);
  EXPECT_TRUE(first.policy_failed);
  EXPECT_EQ(first.started, 0u);
  EXPECT_TRUE(logged(first, "policy error: scheduler py:faulty.py:RaisesInItsFirstPass")) << first.json();
  EXPECT_TRUE(logged(first, "queued jobs stay held")) << first.json();
  EXPECT_TRUE(bridge::test::pinned_starts(run.slurm.commands).empty());
  const bridge::CycleReport second = run.live.cycle(kListingTime + 1);
  EXPECT_FALSE(second.policy_failed);
  EXPECT_EQ(second.started, 1u) << second.json();
  const auto starts = bridge::test::pinned_starts(run.slurm.commands);
  ASSERT_EQ(starts.size(), 1u);
  EXPECT_EQ(starts[0].job, "16");
}

// A pass running past the time limit is cut off, even when the policy swallows the first
// cut-off: nothing of it is applied, and the next pass runs as usual with the events the
// cut-off pass missed.
TEST(PyBridge, APassPastItsTimeLimitIsCutOffAndTheNextPassRuns) {
  LiveCycles run("faulty.py:SpinsInItsFirstPass", {14, 16});
  run.built.scheduler->limit_pass_time({std::chrono::milliseconds(200), {}});
  const bridge::CycleReport first = run.live.cycle(kListingTime);
  EXPECT_TRUE(first.policy_failed);
  EXPECT_TRUE(logged(first, "decide() was cut off: it ran past the pass time limit of 0.2 s")) << first.json();
  EXPECT_TRUE(run.slurm.commands.empty());
  const bridge::CycleReport second = run.live.cycle(kListingTime + 1);
  EXPECT_FALSE(second.policy_failed) << second.json();
  EXPECT_EQ(second.started, 1u) << second.json();
}

// A pass blocked in a system call (a 60 s sleep here) is cut off as well: the watchdog's
// signal ends the call, rather than the pass being cut off once the sleep is over.
TEST(PyBridge, APassBlockedInASleepIsCutOff) {
  LiveCycles run("faulty.py:SleepsInItsFirstPass", {14, 16});
  run.built.scheduler->limit_pass_time({std::chrono::milliseconds(200), {}});
  const auto began = std::chrono::steady_clock::now();
  const bridge::CycleReport first = run.live.cycle(kListingTime);
  EXPECT_LT(std::chrono::steady_clock::now() - began, std::chrono::seconds(30));
  EXPECT_TRUE(first.policy_failed);
  EXPECT_TRUE(logged(first, "decide() was cut off: it ran past the pass time limit of 0.2 s")) << first.json();
  const bridge::CycleReport second = run.live.cycle(kListingTime + 1);
  EXPECT_FALSE(second.policy_failed) << second.json();
  EXPECT_EQ(second.started, 1u) << second.json();
}

// A stop request (the bridge's SIGTERM) cuts off a pass that would never end on its own.
TEST(PyBridge, AStopRequestCutsOffARunningPass) {
  LiveCycles run("faulty.py:SpinsInItsFirstPass", {14, 16});
  std::atomic<bool> stop{false};
  run.built.scheduler->limit_pass_time({std::chrono::milliseconds(0), [&stop] { return stop.load(); }});
  std::thread stopper([&stop] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    stop = true;
  });
  const bridge::CycleReport report = run.live.cycle(kListingTime);
  stopper.join();
  EXPECT_TRUE(report.policy_failed);
  EXPECT_TRUE(logged(report, "it was still running when a stop was requested")) << report.json();
  EXPECT_TRUE(run.slurm.commands.empty());
}

// A policy that fails every pass leaves every job held and the bridge cycling; its error is
// written out in full (on one line) once, then counted.
TEST(PyBridge, APolicyFailingEveryPassIsLoggedOnceThenCounted) {
  LiveCycles run("faulty.py:Raises", {14, 16});
  const bridge::CycleReport first = run.live.cycle(kListingTime);
  EXPECT_TRUE(logged(first, "ZeroDivisionError")) << first.json();
  for (const std::string& line : first.log) EXPECT_EQ(line.find('\n'), std::string::npos) << line;
  const bridge::CycleReport second = run.live.cycle(kListingTime + 1);
  EXPECT_TRUE(second.policy_failed);
  EXPECT_TRUE(logged(second, "policy error again (2 passes in a row)")) << second.json();
  EXPECT_FALSE(logged(second, "ZeroDivisionError")) << second.json();
  EXPECT_TRUE(run.slurm.commands.empty());
}

// The same refused proposal, cycle after cycle, is counted each time and logged once.
TEST(PyBridge, ARefusalRepeatedCycleAfterCycleIsLoggedOnce) {
  LiveCycles run("faulty.py:OverAllocates", {14, 16});  // job 16 placed on job 14's node
  const bridge::CycleReport first = run.live.cycle(kListingTime);
  EXPECT_EQ(first.proposals_refused, 1u) << first.json();
  EXPECT_TRUE(logged(first, "job 16: proposal refused: exceeds what is free now")) << first.json();
  const bridge::CycleReport second = run.live.cycle(kListingTime + 1);
  EXPECT_EQ(second.proposals_refused, 1u) << second.json();
  EXPECT_FALSE(logged(second, "job 16: proposal refused")) << second.json();
}

// Proposals naming a job that is not waiting (unknown, started twice, rejected after its
// start) are turned down one by one; the good start goes ahead.
TEST(PyBridge, ProposalsForJobsNotWaitingAreTurnedDownAlone) {
  LiveCycles run("faulty.py:NamesStrangers", {14, 16});
  const bridge::CycleReport report = run.live.cycle(kListingTime);
  EXPECT_FALSE(report.policy_failed);
  EXPECT_EQ(report.started, 1u) << report.json();
  EXPECT_EQ(report.proposals_refused, 3u) << report.json();
  EXPECT_TRUE(logged(report, "unknown job ref 1000000: rejection refused")) << report.json();
  EXPECT_TRUE(logged(report, "job 16: proposal refused: not waiting in this cycle's queue")) << report.json();
  EXPECT_TRUE(logged(report, "job 16: rejection refused: not waiting in this cycle's queue")) << report.json();
  EXPECT_EQ(bridge::test::pinned_starts(run.slurm.commands).size(), 1u);
}

}  // namespace
}  // namespace hs
