// Kinds of job a site's users submit every day, on a table captured from the Slurm 22.05 lab
// (data/kinds/: 8 nodes, n1-n2 with feature a100, job_submit.lua holding every job):
//   33 running (released by hand)       34 held, afterok:33
//   35 held, --begin in the evening     36 held array 0,2-5%2 (task 1 split off as 43)
//   37 held, --exclusive -x n[1-3]      38 held, -C a100
//   39, 40 held heterogeneous job       41 held, -w n5
//   42 held, afternotok:33?afterany:33
// and GPUs asked the newer ways (all held, one core each unless said):
//   1 --gpus=2 -n 2      2 --gpus-per-task=1 -n 2      3 --gpus-per-node=1 -N 2 -n 2
//   4 --cpus-per-gpu=2 --gpus=1      5 --mem-per-gpu=100 --gpus-per-node=1
//   6 -c 2 -n 2          7 --gpus=1 -N 1
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "bridge/bridge_status.hpp"
#include "bridge/job_eligibility.hpp"
#include "bridge/slurm_bridge.hpp"
#include "fake_slurm.hpp"
#include "io/builtin_clusters.hpp"
#include "io/text_file.hpp"
#include "policy/registry.hpp"

namespace hs::bridge {
namespace {

using test::argument;
using test::FakeSlurm;

const std::string kKinds = std::string(HETSCHED_SOURCE_DIR) + "/tests/bridge/data/kinds/";

std::string kinds_table() { return text::read_text_file(kKinds + "listing.txt"); }
Time kinds_now() { return parse_slurm_timestamp("2026-11-27T03:30:00"); }

LiveJob find(const std::vector<LiveJob>& jobs, std::int64_t id) {
  for (const LiveJob& j : jobs)
    if (j.id == id) return j;
  throw std::logic_error("no job " + std::to_string(id));
}


struct KindsBridge {
  explicit KindsBridge(const std::vector<int>& jobs, const std::string& scheduler = "aucsched2")
      : built(make_scheduler(scheduler, {})), bridge(cluster, *built.scheduler, slurm, {}) {
    slurm.table = test::lines_of(kinds_table(), jobs);
  }
  Cluster cluster = load_cluster_spec(kKinds + "slurm.conf");
  FakeSlurm slurm;
  BuiltScheduler built;
  SlurmBridge bridge;
};

bool released(const FakeSlurm& slurm, const std::string& target) {
  for (const auto& c : slurm.commands)
    if (c == std::vector<std::string>{"scontrol", "release", target}) return true;
  return false;
}

bool pinned(const FakeSlurm& slurm, const std::string& target) {
  for (const auto& c : slurm.commands)
    if (c.size() > 2 && c[1] == "update" && c[2] == "JobId=" + target && !argument(c, "ReqNodeList").empty())
      return true;
  return false;
}

TEST(JobKinds, TheListingSaysWhatKindEachJobIs) {
  const std::vector<LiveJob> jobs = parse_scontrol_jobs(kinds_table(), "kinds");
  EXPECT_EQ(find(jobs, 34).dependency, "afterok:33(unfulfilled)");
  EXPECT_EQ(find(jobs, 35).eligible_epoch, parse_slurm_timestamp("2026-11-27T23:00:00"));
  EXPECT_EQ(find(jobs, 34).eligible_epoch, -1);
  const LiveJob array = find(jobs, 36);
  EXPECT_EQ(array.array_job_id, 36);
  EXPECT_EQ(array.array_tasks, "0,2-5%2");
  EXPECT_EQ(array.array_throttle, 2);
  EXPECT_EQ(array.target(), "36_0");  // one task, never the whole array
  EXPECT_EQ(find(jobs, 43).target(), "36_1");
  EXPECT_EQ(find(jobs, 34).target(), "34");
  EXPECT_TRUE(find(jobs, 37).exclusive);
  EXPECT_EQ(find(jobs, 37).exclude_nodes, (std::vector<std::string>{"n1", "n2", "n3"}));
  EXPECT_EQ(find(jobs, 38).features, "a100");
  EXPECT_EQ(find(jobs, 40).het_job_id, 39);
  EXPECT_FALSE(find(jobs, 38).exclusive);
}

// Slurm leaves a held job's dependency "(unfulfilled)" for tens of seconds after the job it
// names has ended, so the verdict comes from that job's own state until Slurm marks it.
TEST(JobKinds, DependenciesAreJudgedFromTheJobsTheyName) {
  std::vector<LiveJob> jobs = parse_scontrol_jobs(kinds_table(), "kinds");
  JobDirectory dir;
  dir.read(jobs);
  const Time now = kinds_now();
  EXPECT_EQ(judge_eligibility(find(jobs, 34), dir, now).kind, Eligibility::Waits);  // 33 runs
  EXPECT_EQ(judge_eligibility(find(jobs, 42), dir, now).kind, Eligibility::Waits);
  for (LiveJob& j : jobs)
    if (j.id == 33) j.state = "COMPLETED", j.end_epoch = now - 10;
  dir.read(jobs);
  EXPECT_EQ(judge_eligibility(find(jobs, 34), dir, now).kind, Eligibility::Now);
  EXPECT_EQ(judge_eligibility(find(jobs, 42), dir, now).kind, Eligibility::Now);  // afterany holds
  for (LiveJob& j : jobs)
    if (j.id == 33) j.state = "FAILED";
  dir.read(jobs);
  const EligibilityVerdict never = judge_eligibility(find(jobs, 34), dir, now);
  EXPECT_EQ(never.kind, Eligibility::Never);
  EXPECT_EQ(never.why, "dependency afterok:33 can never be satisfied");
  // Gone from the listing (MinJobAge), the failure is remembered.
  std::vector<LiveJob> later;
  for (const LiveJob& j : jobs)
    if (j.id != 33) later.push_back(j);
  dir.read(later);
  EXPECT_EQ(judge_eligibility(find(later, 34), dir, now).kind, Eligibility::Never);
  // Never seen at all (a restarted bridge after the purge): lifted, as Slurm lifts it...
  JobDirectory fresh;
  fresh.read(later);
  EXPECT_EQ(judge_eligibility(find(later, 34), fresh, now).kind, Eligibility::Now);
  // ...unless Slurm had marked it first, as it does within a minute of the end (seen on the
  // lab: "afternotok:1(failed)" on a held job, long after job 1 was purged).
  for (LiveJob& j : later)
    if (j.id == 34) j.dependency = "afterok:33(failed)";
  const EligibilityVerdict marked = judge_eligibility(find(later, 34), fresh, now);
  EXPECT_EQ(marked.kind, Eligibility::Never);
  EXPECT_EQ(marked.why, "dependency afterok:33 can never be satisfied");
}

TEST(JobKinds, DependencyKindsDelaysArraysAndCombinations) {
  std::vector<LiveJob> jobs = parse_scontrol_jobs(kinds_table(), "kinds");
  for (LiveJob& j : jobs)
    if (j.id == 33) j.state = "COMPLETED", j.end_epoch = kinds_now() - 90;
  JobDirectory dir;
  dir.read(jobs);
  LiveJob j = find(jobs, 34);
  auto verdict = [&](const std::string& dependency) {
    j.dependency = dependency;
    return judge_eligibility(j, dir, kinds_now()).kind;
  };
  EXPECT_EQ(verdict("afternotok:33(unfulfilled)"), Eligibility::Never);
  EXPECT_EQ(verdict("afterany:33(unfulfilled)"), Eligibility::Now);
  EXPECT_EQ(verdict("after:33(unfulfilled)"), Eligibility::Now);
  EXPECT_EQ(verdict("after:35(unfulfilled)"), Eligibility::Waits);  // 35 never started
  EXPECT_EQ(verdict("afterok:33+1(unfulfilled)"), Eligibility::Now);   // ended 90 s ago
  EXPECT_EQ(verdict("afterok:33+2(unfulfilled)"), Eligibility::Waits);  // needs 120 s
  EXPECT_EQ(verdict("afterok:33(unfulfilled),afterok:35(unfulfilled)"), Eligibility::Waits);
  EXPECT_EQ(verdict("afternotok:33(unfulfilled),afterok:35(unfulfilled)"), Eligibility::Never);
  EXPECT_EQ(verdict("afternotok:33(unfulfilled)?afterok:35(unfulfilled)"), Eligibility::Waits);
  EXPECT_EQ(verdict("afterok:36_*(unfulfilled)"), Eligibility::Waits);  // tasks still held
  EXPECT_EQ(verdict("afterok:36_1(unfulfilled)"), Eligibility::Waits);  // split off, held
  EXPECT_EQ(verdict("afterok:36_4(unfulfilled)"), Eligibility::Waits);  // inside the array's record
  EXPECT_EQ(verdict("afterok:999(unfulfilled)"), Eligibility::Now);     // purged
  EXPECT_EQ(verdict("afternotok:999(failed)"), Eligibility::Never);       // purged, Slurm's mark
  EXPECT_EQ(verdict("afterok:35(fulfilled)"), Eligibility::Now);         // Slurm's mark decides
  EXPECT_EQ(verdict("afterok:35(failed)?afterany:33(unfulfilled)"), Eligibility::Now);
  EXPECT_EQ(verdict("afterok:35(failed)?afterok:999(failed)"), Eligibility::Never);
  EXPECT_EQ(verdict("singleton(unfulfilled)"), Eligibility::SlurmOnly);
  EXPECT_EQ(verdict("aftercorr:36_*(unfulfilled)"), Eligibility::SlurmOnly);
  // Every task of the array ended: one failure makes afterok impossible, afternotok met.
  for (LiveJob& task : jobs)
    if (task.array_job_id == 36) task.state = task.id == 43 ? "FAILED" : "COMPLETED", task.end_epoch = 1;
  dir.read(jobs);
  EXPECT_EQ(verdict("afterok:36_*(unfulfilled)"), Eligibility::Never);
  EXPECT_EQ(verdict("afternotok:36_*(unfulfilled)"), Eligibility::Now);
  EXPECT_EQ(verdict("afterok:36_2(unfulfilled)"), Eligibility::Now);
}

TEST(JobKinds, BeginTimesThrottlesAndHeterogeneousJobs) {
  std::vector<LiveJob> jobs = parse_scontrol_jobs(kinds_table(), "kinds");
  JobDirectory dir;
  dir.read(jobs);
  const LiveJob begin = find(jobs, 35);
  EXPECT_EQ(judge_eligibility(begin, dir, kinds_now()).kind, Eligibility::Waits);
  EXPECT_EQ(judge_eligibility(begin, dir, begin.eligible_epoch).kind, Eligibility::Now);
  EXPECT_EQ(judge_eligibility(find(jobs, 40), dir, kinds_now()).kind, Eligibility::SlurmOnly);
  const LiveJob array = find(jobs, 36);
  EXPECT_EQ(judge_eligibility(array, dir, kinds_now()).kind, Eligibility::Now);  // none active
  for (LiveJob& j : jobs)
    if (j.id == 43) j.state = "RUNNING";
  dir.read(jobs);
  EXPECT_EQ(judge_eligibility(array, dir, kinds_now()).kind, Eligibility::Now);  // 1 of 2
  jobs.push_back(find(jobs, 43));
  jobs.back().id = 44;
  jobs.back().array_tasks = "2";
  dir.read(jobs);
  const EligibilityVerdict full = judge_eligibility(array, dir, kinds_now());
  EXPECT_EQ(full.kind, Eligibility::Waits);
  EXPECT_EQ(full.why, "array 36 runs its limit of 2 tasks at once");
}

// One cycle over every kind: what waits stays held, what the bridge cannot pin goes to
// Slurm unpinned, an array starts one task by its task name, -C and -x are kept.
TEST(JobKinds, EachKindGetsTheRightTreatmentInACycle) {
  KindsBridge run({33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43});  // and not 1-7
  const CycleReport report = run.bridge.cycle(kinds_now());
  EXPECT_EQ(report.waiting, 3u) << "34, 35 and 42 wait";
  EXPECT_FALSE(pinned(run.slurm, "34"));
  EXPECT_FALSE(pinned(run.slurm, "35"));
  EXPECT_TRUE(released(run.slurm, "39"));  // heterogeneous: Slurm's
  EXPECT_TRUE(released(run.slurm, "40"));
  EXPECT_FALSE(pinned(run.slurm, "39"));
  EXPECT_FALSE(pinned(run.slurm, "40"));
  EXPECT_TRUE(released(run.slurm, "37"));  // --exclusive: AUCSCHED2 does not model it
  EXPECT_TRUE(released(run.slurm, "41"));  // -w: neither
  EXPECT_FALSE(pinned(run.slurm, "37"));
  EXPECT_TRUE(pinned(run.slurm, "36_0"));  // one task of the array, by its name
  EXPECT_FALSE(pinned(run.slurm, "36"));
  EXPECT_TRUE(pinned(run.slurm, "36_1"));  // the split-off task is a job of its own
  ASSERT_TRUE(pinned(run.slurm, "38"));
  for (const auto& c : run.slurm.commands)
    if (c.size() > 2 && c[2] == "JobId=38" && !argument(c, "ReqNodeList").empty()) {
      const std::string node = argument(c, "ReqNodeList");
      EXPECT_TRUE(node == "n1" || node == "n2") << "-C a100 pinned to " << node;
    }
}

// Licenses (-L) are Slurm's to count: a start pinned while they are taken would stay pending
// (Reason=Licenses, seen on the lab), so such a job goes to Slurm unpinned.
TEST(JobKinds, AJobAskingLicensesIsSlurms) {
  KindsBridge run({33, 38});
  run.slurm.set_field("38", "Licenses", "matlab");
  const CycleReport report = run.bridge.cycle(kinds_now());
  EXPECT_TRUE(released(run.slurm, "38"));
  EXPECT_FALSE(pinned(run.slurm, "38"));
  bool said = false;
  for (const std::string& line : report.log)
    said = said || line.find("job 38: asks licenses matlab (Slurm counts them); released to Slurm's own scheduler") != std::string::npos;
  EXPECT_TRUE(said);
  EXPECT_EQ(parse_scontrol_jobs(run.slurm.table, "t").back().licenses, "matlab");
}

// An array's record starts one task per cycle; its next tasks are split off (held, with the
// bridge's record) so that the next cycle may start several, never past the throttle.
TEST(JobKinds, AnArraysNextTasksAreSplitOffAndItsThrottleHolds) {
  KindsBridge run({36, 43});
  run.slurm.set_field("36", "ArrayTaskId", "0,2-5:3,7");
  run.slurm.set_field("36", "ArrayTaskThrottle", "0");
  run.slurm.set_field("43", "ArrayTaskThrottle", "0");
  const CycleReport report = run.bridge.cycle(kinds_now());
  EXPECT_TRUE(pinned(run.slurm, "36_0"));
  EXPECT_TRUE(pinned(run.slurm, "36_1"));
  std::vector<std::string> split;
  for (const auto& c : run.slurm.commands)
    if (c.size() == 4 && c[3].rfind("AdminComment=hetsched:v1;phase=held;", 0) == 0) split.push_back(c[2]);
  EXPECT_EQ(split, (std::vector<std::string>{"JobId=36_2", "JobId=36_5", "JobId=36_7"}));
  EXPECT_EQ(report.repaired, 0u);  // splitting is not a repair
  bool said = false;
  for (const std::string& line : report.log) said |= line == "array 36: 3 tasks (36_2 to 36_7) split off as jobs of their own, held for the bridge";
  EXPECT_TRUE(said) << ::testing::PrintToString(report.log);

  // Throttle 2, nothing active, the record and three split tasks queued: two start.
  KindsBridge throttled({36, 43});
  std::string task = test::lines_of(kinds_table(), {43});
  for (const char* id : {"44", "45"}) {
    std::string copy = task;
    copy.replace(copy.find("JobId=43 "), 9, std::string("JobId=") + id + " ");
    throttled.slurm.table += copy;
    throttled.slurm.set_field(id, "ArrayTaskId", id == std::string("44") ? "2" : "3");
  }
  throttled.slurm.set_field("36", "ArrayTaskId", "0,4-5%2");
  const CycleReport limited = throttled.bridge.cycle(kinds_now());
  int started = 0;
  for (const char* target : {"36_0", "36_1", "36_2", "36_3"}) started += pinned(throttled.slurm, target);
  EXPECT_EQ(started, 2);
  EXPECT_EQ(limited.started, 2u);
  for (const auto& c : throttled.slurm.commands)
    EXPECT_FALSE(c.size() == 4 && c[3].rfind("AdminComment=hetsched:v1;phase=held;", 0) == 0) << c[2];
}

// The Slurm model honours --exclusive, -x and -w: such jobs are pinned, an exclusive one to
// whole nodes without a core count that would change its tasks.
TEST(JobKinds, TheSlurmModelPinsExclusiveJobsToWholeNodes) {
  KindsBridge run({37, 41}, "backfill");
  run.bridge.cycle(kinds_now());
  ASSERT_TRUE(pinned(run.slurm, "37"));
  ASSERT_TRUE(pinned(run.slurm, "41"));
  for (const auto& c : run.slurm.commands) {
    if (c.size() < 3 || argument(c, "ReqNodeList").empty()) continue;
    if (c[2] == "JobId=37") {
      EXPECT_EQ(argument(c, "MinCPUsNode"), "");
      EXPECT_EQ(argument(c, "TasksPerNode"), "");
      for (const char* excluded : {"n1", "n2", "n3"})
        EXPECT_EQ(argument(c, "ReqNodeList").find(excluded), std::string::npos);
    }
    if (c[2] == "JobId=41") {
      EXPECT_EQ(argument(c, "ReqNodeList"), "n5");
    }
  }
}

// Typed GPUs: the pin keeps the type the user asked for, and typed units on a running job
// count against both the type and the name.
TEST(JobKinds, TypedGpusKeepTheirTypeWhenPinned) {
  std::string conf = text::read_text_file(kKinds + "slurm.conf");
  for (std::size_t at = conf.find("Gres=gpu:2"); at != std::string::npos; at = conf.find("Gres=gpu:2"))
    conf.replace(at, 10, at < conf.find("n[3-8]") ? "Gres=gpu:a100:2" : "Gres=gpu:v100:2");
  const std::string dir = testing::TempDir() + "typed-kinds/";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "slurm.conf") << conf;
  std::ofstream(dir + "gres.conf") << "AutoDetect=off\nNodeName=n[1-2] Name=gpu Type=a100 File=/dev/null\n"
                                      "NodeName=n[3-8] Name=gpu Type=v100 File=/dev/null\n";
  const Cluster cluster = load_cluster_spec(dir + "slurm.conf");
  FakeSlurm slurm;
  std::string line = test::lines_of(kinds_table(), {34});
  line.replace(line.find(" Dependency=afterok:33(unfulfilled)"), 35, " Dependency=(null)");
  line.pop_back();
  slurm.table = line + " TresPerNode=gres:gpu:v100:1\n";
  BuiltScheduler built = make_scheduler("fifo+ff", {});
  SlurmBridge bridge(cluster, *built.scheduler, slurm, {});
  ASSERT_EQ(bridge.cycle(kinds_now()).started, 1u);
  for (const auto& c : slurm.commands)
    if (c.size() > 2 && !argument(c, "ReqNodeList").empty()) {
      EXPECT_EQ(argument(c, "TresPerNode"), "gres:gpu:v100:1");
      const std::string node = argument(c, "ReqNodeList");
      EXPECT_TRUE(node != "n1" && node != "n2") << "a v100 job pinned to " << node;
    }
}

// A job submitted to several partitions (-p lab,debug) is the bridge's when one is managed:
// job_submit.lua holds it, so leaving it alone would strand it.
TEST(JobKinds, AJobOfSeveralPartitionsIsManagedInTheManagedOne) {
  FakeSlurm slurm;
  slurm.table = test::lines_of(kinds_table(), {38});
  slurm.set_field("38", "Partition", "lab,debug");
  const Cluster cluster = load_cluster_spec(kKinds + "slurm.conf");
  BuiltScheduler built = make_scheduler("aucsched2", {});
  BridgeOptions options;
  options.partition = "lab";
  SlurmBridge bridge(cluster, *built.scheduler, slurm, options);
  EXPECT_EQ(bridge.cycle(kinds_now()).started, 1u);
  EXPECT_TRUE(pinned(slurm, "38"));
  slurm.set_field("38", "Partition", "debug,other");
  SlurmBridge other(cluster, *built.scheduler, slurm, options);
  EXPECT_EQ(other.cycle(kinds_now()).pending, 0u);
}

// Slurm keeps a released job waiting (a QOS limit, say): the first time the bridge holds it
// again and retries at once, after that only after a pause that doubles.
TEST(JobKinds, AReleaseSlurmDoesNotStartIsRetriedAfterAGrowingPause) {
  KindsBridge run({38});
  Time t = kinds_now();
  auto cycle_at = [&](Time at) {
    const CycleReport r = run.bridge.cycle(at);
    if (r.started) run.slurm.set_field("38", "Reason", "QOSMaxJobsPerUserLimit");  // not started
    return r;
  };
  ASSERT_EQ(cycle_at(t).started, 1u);
  EXPECT_EQ(cycle_at(t + 31).reheld, 1u);   // past the 30 s grace
  EXPECT_EQ(cycle_at(t + 32).started, 1u);  // first time: at once
  EXPECT_EQ(cycle_at(t + 63).reheld, 1u);
  const CycleReport paused = cycle_at(t + 64);
  EXPECT_EQ(paused.started, 0u);
  EXPECT_EQ(paused.waiting, 1u);
  ASSERT_FALSE(paused.log.empty());
  EXPECT_NE(paused.log.back().find("Slurm did not start it at its last 2 releases (QOSMaxJobsPerUserLimit)"),
            std::string::npos) << paused.log.back();
  EXPECT_EQ(cycle_at(t + 63 + 59).started, 0u);  // 60 s pause
  EXPECT_EQ(cycle_at(t + 63 + 60).started, 1u);
}

// --gpus, --gpus-per-task, -c: what the model expresses is pinned with the user's own form
// left in place; the rest goes to Slurm.
TEST(JobKinds, GpusPerJobAndPerTaskAndCpusPerTask) {
  const std::vector<LiveJob> jobs = parse_scontrol_jobs(kinds_table(), "kinds");
  const Job units = job_from_live(find(jobs, 6));
  EXPECT_EQ(units.req.task_cores, 2);  // -n 2 -c 2: two tasks of two cores
  EXPECT_EQ(units.req.ntasks, 4);
  const Job gpu_task = job_from_live(find(jobs, 2));
  EXPECT_EQ(gpu_task.req.task_cores, 1);
  ASSERT_EQ(gpu_task.req.gres.size(), 1u);  // one GPU per task
  EXPECT_EQ(gpu_task.req.gres[0].per_node_min, 1);
  const Job per_job = job_from_live(find(jobs, 7));
  ASSERT_EQ(per_job.req.gres.size(), 1u);  // --gpus=1 on exactly one node
  EXPECT_EQ(per_job.req.gres[0].per_node_min, 1);

  KindsBridge model({1, 2, 3, 4, 5, 6, 7}, "backfill");
  model.bridge.cycle(kinds_now());
  for (const char* slurms : {"1", "4", "5"}) {  // --gpus without -N, --cpus-per-gpu, --mem-per-gpu
    EXPECT_TRUE(released(model.slurm, slurms)) << slurms;
    EXPECT_FALSE(pinned(model.slurm, slurms)) << slurms;
  }
  for (const char* ours : {"2", "3", "6", "7"}) EXPECT_TRUE(pinned(model.slurm, ours)) << ours;
  for (const auto& c : model.slurm.commands) {
    if (c.size() < 3 || argument(c, "ReqNodeList").empty()) continue;
    if (c[2] == "JobId=3") {
      EXPECT_EQ(argument(c, "TresPerNode"), "gres:gpu:1");
    }
    if (c[2] == "JobId=2" || c[2] == "JobId=7") {
      EXPECT_EQ(argument(c, "TresPerNode"), "") << c[2];
    }
    if (c[2] == "JobId=6" && !argument(c, "TasksPerNode").empty()) {
      EXPECT_EQ(std::stoi(argument(c, "MinCPUsNode")) % 2, 0);  // whole tasks of two cores
    }
  }
  KindsBridge window({2, 6});  // AUCSCHED2 does not model tasks spread as units
  window.bridge.cycle(kinds_now());
  EXPECT_TRUE(released(window.slurm, "2") && released(window.slurm, "6"));
  EXPECT_FALSE(pinned(window.slurm, "2") || pinned(window.slurm, "6"));
}

TEST(JobKinds, StatusSaysWhyAHeldJobWaits) {
  SlurmView view;
  view.jobs = parse_scontrol_jobs(kinds_table(), "kinds");
  const std::string text = status_text(view, "lab", kinds_now(), 30);
  EXPECT_NE(text.find("34  queued  waits for dependency afterok:33"), std::string::npos) << text;
  EXPECT_NE(text.find("35  queued  waits for its begin time"), std::string::npos) << text;
  EXPECT_NE(text.find("39  queued  Slurm's to place (next cycle): a component of heterogeneous job 39"),
            std::string::npos) << text;
}

}  // namespace
}  // namespace hs::bridge
