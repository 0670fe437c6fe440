// The Slurm bridge on a job table captured from the real Slurm 22.05 lab
// (tests/bridge/data/listing.txt, 4 nodes x (8 cores, 2 GPUs)): job 14 runs on n1 with 6
// cores and both GPUs; jobs 15-17 are held (15: -N 2 -n 16; 16: -N 1-2 -n 4 --gres=gpu:1
// with the comment hetsched:gpu=1-2; 17: -n 64, more than the cluster has).
#include <gtest/gtest.h>

#include <cstdio>
#include <ctime>
#include <fstream>
#include <map>
#include <sstream>

#include "bridge/slurm_bridge.hpp"
#include "fake_slurm.hpp"
#include "io/builtin_clusters.hpp"
#include "io/text_file.hpp"
#include "policy/registry.hpp"
#include "util/error.hpp"

namespace hs::bridge {
namespace {

const std::string kData = std::string(HETSCHED_SOURCE_DIR) + "/tests/bridge/data/";

std::string listing() { return text::read_text_file(kData + "listing.txt"); }
Cluster lab_cluster() { return load_cluster_spec(kData + "slurm.conf"); }

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t pos = 0; (pos = text.find(from, pos)) != std::string::npos; pos += to.size())
    text.replace(pos, from.size(), to);
  return text;
}

using test::FakeSlurm;
using test::lines_of;
using test::PinnedStart;
using test::pinned_starts;
using test::argument;

// Remembers what it was shown and proposes fixed starts.
class ScriptedScheduler : public Scheduler {
 public:
  std::vector<StartDecision> proposals;
  std::vector<std::vector<Event>> events_seen;
  std::vector<std::vector<JobRef>> pending_seen;
  std::string name() const override { return "scripted"; }
  Decisions decide(const SystemView& view, std::span<const Event> events) override {
    events_seen.emplace_back(events.begin(), events.end());
    pending_seen.emplace_back(view.pending.begin(), view.pending.end());
    Decisions d;
    d.starts = proposals;
    proposals.clear();
    return d;
  }
};

// A bridge over the captured table with a scripted scheduler.
struct ScriptedBridge {
  explicit ScriptedBridge(const std::string& partition = "")
      : bridge(cluster, scheduler, slurm, BridgeOptions{partition}) {
    slurm.table = listing();
  }
  Cluster cluster = lab_cluster();
  ScriptedScheduler scheduler;
  FakeSlurm slurm;
  SlurmBridge bridge;
};

Time start_of_job_14() { return parse_slurm_timestamp("2026-11-22T10:22:00"); }

TEST(ScontrolJobs, ReadsRunningAndHeldJobsOfTheRealListing) {
  const std::vector<LiveJob> jobs = parse_scontrol_jobs(listing(), "listing.txt");
  ASSERT_EQ(jobs.size(), 17u);
  std::map<std::int64_t, LiveJob> by_id;
  for (const LiveJob& j : jobs) by_id[j.id] = j;
  const LiveJob& running = by_id.at(14);
  EXPECT_TRUE(running.holds_resources());
  EXPECT_EQ(running.start_epoch, start_of_job_14());
  EXPECT_EQ(running.time_limit, 600);
  ASSERT_EQ(running.shares.size(), 1u);
  EXPECT_EQ(running.shares[0].nodes, std::vector<std::string>{"n1"});
  EXPECT_EQ(running.shares[0].cores, 6);  // CPU_IDs=0-2,4-6
  ASSERT_EQ(running.shares[0].gres.size(), 1u);
  EXPECT_EQ(running.shares[0].gres[0], (std::pair<std::string, std::int32_t>{"gpu", 2}));
  const LiveJob& range = by_id.at(16);
  EXPECT_TRUE(range.held());
  EXPECT_EQ(range.nodes_min, 1);
  EXPECT_EQ(range.nodes_max, 2);
  EXPECT_EQ(range.cpus, 4);
  EXPECT_EQ(range.time_limit, 86400);
  EXPECT_EQ(range.comment, "hetsched:gpu=1-2");
  EXPECT_EQ(range.start_epoch, -1);
  const LiveJob& big = by_id.at(17);
  EXPECT_EQ(big.nodes_min, 8);
  EXPECT_EQ(big.nodes_max, 0);  // Slurm's minimum, no maximum
  EXPECT_EQ(big.time_limit, kNoTime);
  EXPECT_FALSE(by_id.at(12).holds_resources());  // completed: its node details are ignored
}

// Slurm's local timestamps, read without asking mktime for each (it reads the time zone
// again every call): the same epochs as mktime gives, and -1 for anything else.
TEST(ScontrolJobs, TimestampsAreLocalTimeAsMktimeReadsThem) {
  for (const char* text : {"2026-11-22T10:22:00", "2026-11-22T10:59:59", "2026-11-22T11:00:00",
                           "2026-03-29T01:30:00", "2026-10-25T02:30:00", "2027-02-28T23:59:60",
                           "1970-01-02T00:00:00"}) {
    std::tm tm{};
    ASSERT_EQ(std::sscanf(text, "%d-%d-%dT%d:%d:%d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
                          &tm.tm_min, &tm.tm_sec), 6);
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    tm.tm_isdst = -1;
    EXPECT_EQ(parse_slurm_timestamp(text), static_cast<std::int64_t>(std::mktime(&tm))) << text;
  }
  EXPECT_EQ(parse_slurm_timestamp("2026-11-22T10:22:01") - parse_slurm_timestamp("2026-11-22T10:21:00"), 61);
  for (const char* bad : {"Unknown", "None", "", "2026-11-22 10:22:00", "2026-13-01T00:00:00",
                          "2026-11-22T24:00:00", "2026-11-22T10:22", "2026-11-22T10:22:00Z", "2026-1x-22T10:22:00"})
    EXPECT_EQ(parse_slurm_timestamp(bad), -1) << bad;
}

TEST(ScontrolJobs, EmptyTableAndMalformedFields) {
  EXPECT_TRUE(parse_scontrol_jobs("No jobs in the system\n", "x").empty());
  const std::string bad = replace_all(lines_of(listing(), {14, 15}), "NumNodes=2-2", "NumNodes=2-x");
  try {
    parse_scontrol_jobs(bad, "listing.txt");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().line, 2);
    EXPECT_EQ(e.field(), "NumNodes");
    EXPECT_EQ(e.value(), "2-x");
  }
  EXPECT_THROW(parse_scontrol_jobs("JobName=x JobState=PENDING\n", "x"), InputError);
}

TEST(ScontrolJobs, CommentRangeWidensTheGresRequest) {
  const std::vector<LiveJob> jobs = parse_scontrol_jobs(lines_of(listing(), {16}), "x");
  const Job job = job_from_live(jobs.at(0));
  ASSERT_EQ(job.req.gres.size(), 1u);
  EXPECT_EQ(job.req.gres[0].per_node_min, 1);
  EXPECT_EQ(job.req.gres[0].per_node_max, 2);
  LiveJob bad = jobs.at(0);
  bad.comment = "hetsched:gpu=2-1";
  EXPECT_THROW(job_from_live(bad), InputError);
}

TEST(SlurmBridge, AucschedStartsTheHeldJobsAroundTheRunningOneAndRefusesTheImpossible) {
  const Cluster cluster = lab_cluster();
  BuiltScheduler built = make_scheduler("aucsched2", {});
  FakeSlurm slurm;
  slurm.table = listing();
  SlurmBridge bridge(cluster, *built.scheduler, slurm);
  const CycleReport report = bridge.cycle(start_of_job_14() + 10);
  EXPECT_EQ(report.pending, 2u);
  EXPECT_EQ(report.running, 1u);
  EXPECT_EQ(report.started, 2u);
  EXPECT_EQ(report.refused, 1u);
  const std::vector<PinnedStart> starts = pinned_starts(slurm.commands);
  ASSERT_EQ(starts.size(), 2u);
  // Replay the pinned allocations on the free capacity independently.
  std::map<std::string, int> free_cores = {{"n1", 2}, {"n2", 8}, {"n3", 8}, {"n4", 8}};
  std::map<std::string, int> free_gpus = {{"n1", 0}, {"n2", 2}, {"n3", 2}, {"n4", 2}};
  for (const PinnedStart& s : starts) {
    const int gpus = s.tres.empty() ? 0 : s.tres.back() - '0';
    for (const std::string& n : s.nodes) {
      free_cores[n] -= s.cores_per_node;
      free_gpus[n] -= gpus;
      EXPECT_GE(free_cores[n], 0) << n;
      EXPECT_GE(free_gpus[n], 0) << n;
    }
    if (s.job == "15") {
      EXPECT_EQ(s.cores_per_node * static_cast<int>(s.nodes.size()), 16);
    }
    if (s.job == "16") {
      EXPECT_TRUE(gpus == 1 || gpus == 2);
    }
  }
  // Each start: the original request recorded first, then pin, release, top priority.
  std::size_t pin = 0;
  while (pin < slurm.commands.size() && argument(slurm.commands[pin], "ReqNodeList").empty()) ++pin;
  ASSERT_TRUE(pin > 0 && pin + 2 < slurm.commands.size());
  EXPECT_EQ(argument(slurm.commands[pin - 1], "AdminComment").rfind("hetsched:v1;phase=pinned;", 0), 0u);
  EXPECT_EQ(slurm.commands[pin + 1][1], "release");
  EXPECT_EQ(argument(slurm.commands[pin + 2], "Priority"), std::to_string(kReleasedPriority));
  // Job 17 can never run: the reason is written into Slurm, where squeue shows it.
  bool reason_written = false;
  for (const auto& c : slurm.commands)
    reason_written |= argument(c, "JobId") == "17" &&
                      argument(c, "Comment").rfind("[hetsched] never runnable:", 0) == 0;
  EXPECT_TRUE(reason_written);
  // Slurm has not started them yet: their resources stay booked, nothing is asked twice.
  slurm.commands.clear();
  const CycleReport second = bridge.cycle(start_of_job_14() + 15);
  EXPECT_EQ(second.pending, 0u);
  EXPECT_EQ(second.in_flight, 2u);
  EXPECT_EQ(second.running, 3u);
  EXPECT_EQ(second.refused, 1u);
  EXPECT_TRUE(slurm.commands.empty());  // job 17's reason is recorded: not written again
  // Still not started after the grace time: held again with the request restored.
  const CycleReport third = bridge.cycle(start_of_job_14() + 10 + LiveQueue::kDefaultStartGrace + 5);
  EXPECT_EQ(third.reheld, 2u);
  ASSERT_EQ(slurm.commands.size(), 6u);
  EXPECT_EQ(slurm.commands[0], (std::vector<std::string>{"scontrol", "uhold", "15"}));
  EXPECT_EQ(argument(slurm.commands[1], "NumNodes"), "2-2");
  EXPECT_EQ(argument(slurm.commands[1], "NumCPUs"), "16");
  EXPECT_EQ(argument(slurm.commands[1], "ReqNodeList"), "");
  EXPECT_EQ(argument(slurm.commands[4], "NumNodes"), "1-2");
  EXPECT_EQ(argument(slurm.commands[4], "TresPerNode"), "gres:gpu:1");
  EXPECT_EQ(third.running, 1u);
  // The next cycle queues them again on their original requests.
  const CycleReport fourth = bridge.cycle(start_of_job_14() + 50);
  EXPECT_EQ(fourth.pending + fourth.in_flight, 2u);
}

TEST(SlurmBridge, RefusesAProposalThatExceedsWhatIsFree) {
  ScriptedBridge run;
  auto& [cluster, scheduler, slurm, bridge] = run;
  bridge.cycle(start_of_job_14() + 1);  // registers the jobs
  const JobRef job15 = scheduler.pending_seen.at(0).at(0);
  ASSERT_EQ(bridge.queue().slurm_id(job15), 15);
  Allocation on_busy_node;  // n1 (index 0) has 2 cores left, n2 (1) has 8
  on_busy_node.shares = {NodeShare{0, 8, {}, 0}, NodeShare{1, 8, {}, 0}};
  scheduler.proposals = {{job15, on_busy_node}};
  slurm.commands.clear();
  const CycleReport report = bridge.cycle(start_of_job_14() + 2);
  EXPECT_EQ(report.proposals_refused, 1u);
  EXPECT_EQ(report.started, 0u);
  EXPECT_TRUE(slurm.commands.empty());
}

TEST(SlurmBridge, ReportsSubmissionsAndEndsAsEvents) {
  ScriptedBridge run;
  auto& [cluster, scheduler, slurm, bridge] = run;
  bridge.cycle(start_of_job_14() + 1);
  ASSERT_EQ(scheduler.events_seen.at(0).size(), 2u);  // 15 and 16; 17 was rejected
  for (const Event& e : scheduler.events_seen[0]) EXPECT_EQ(e.kind, EventKind::Submitted);
  slurm.table = lines_of(listing(), {15, 16, 17});  // job 14 is gone
  bridge.cycle(start_of_job_14() + 6);
  ASSERT_EQ(scheduler.events_seen.at(1).size(), 1u);
  EXPECT_EQ(scheduler.events_seen[1][0].kind, EventKind::Ended);
  EXPECT_EQ(bridge.queue().slurm_id(scheduler.events_seen[1][0].job), 14);
  EXPECT_EQ(scheduler.pending_seen.at(1).size(), 2u);
}

TEST(SlurmBridge, PartitionFilterLeavesOtherHeldJobsAlone) {
  ScriptedBridge run("other");
  const CycleReport report = run.bridge.cycle(start_of_job_14() + 1);
  EXPECT_EQ(report.pending, 0u);
  EXPECT_EQ(report.running, 1u);  // running jobs always count: they hold resources
}

// tests/bridge/data/memory/: the lab with SelectTypeParameters=CR_Core_Memory and
// DefMemPerCPU=250 (4 nodes x (8 cores, 2 GPUs, 4000 MB)). Running: job 1 (-n 4 --mem=3000,
// n1), job 2 (-N 2 -n 4, per-CPU default: n1 750 MB, n2 250 MB), job 3 (-n 2
// --mem-per-cpu=500, n2). Held: job 4 (--mem=1500), 5 (-n 3 --mem-per-cpu=300),
// 6 (-n 1, the default 250 per CPU), 7 (--mem=0: a whole node).
const std::string kMemoryLab = kData + "memory/";
std::string memory_listing() { return text::read_text_file(kMemoryLab + "listing.txt"); }
Time memory_lab_now() { return parse_slurm_timestamp("2026-11-22T11:39:00"); }

std::map<std::int64_t, LiveJob> memory_jobs() {
  std::map<std::int64_t, LiveJob> by_id;
  for (const LiveJob& j : parse_scontrol_jobs(memory_listing(), "listing.txt")) by_id[j.id] = j;
  return by_id;
}

TEST(ScontrolJobs, ReadsMemoryOfRunningAndHeldJobs) {
  const auto jobs = memory_jobs();
  ASSERT_EQ(jobs.size(), 7u);
  ASSERT_EQ(jobs.at(2).shares.size(), 2u);
  EXPECT_EQ(jobs.at(1).shares.at(0).mem_mb, 3000);
  EXPECT_EQ(jobs.at(2).shares[0].mem_mb, 750);
  EXPECT_EQ(jobs.at(2).shares[1].mem_mb, 250);
  EXPECT_EQ(jobs.at(4).min_mem_per_node_mb, 1500);
  EXPECT_EQ(jobs.at(4).min_mem_per_cpu_mb, -1);
  EXPECT_EQ(jobs.at(5).min_mem_per_cpu_mb, 300);
  EXPECT_EQ(jobs.at(7).min_mem_per_node_mb, 0);
  // Under CR_Core the node groups say Mem=0.
  for (const LiveJob& j : parse_scontrol_jobs(listing(), "listing.txt"))
    for (const NodeGroupShare& g : j.shares) EXPECT_EQ(g.mem_mb, 0) << j.id;
}

TEST(ScontrolJobs, MemoryRequestFollowsSlurmsAccounting) {
  const Cluster cluster = load_cluster_spec(kMemoryLab + "slurm.conf");
  const LiveMemory counted = LiveMemory::of(cluster, true);
  const auto jobs = memory_jobs();
  EXPECT_EQ(job_from_live(jobs.at(4), counted).req.mem_per_node_mb, 1500);
  EXPECT_EQ(job_from_live(jobs.at(5), counted).req.mem_per_node_mb, 900);   // 3 CPUs x 300
  EXPECT_EQ(job_from_live(jobs.at(6), counted).req.mem_per_node_mb, 250);
  EXPECT_EQ(job_from_live(jobs.at(7), counted).req.mem_per_node_mb, 4000);  // the whole node
  LiveJob spread = jobs.at(5);  // -N 2 -n 9: one node gets at most 8 of the 9 CPUs
  spread.nodes_min = 2;
  spread.cpus = 9;
  EXPECT_EQ(job_from_live(spread, counted).req.mem_per_node_mb, 8 * 300);
  spread.ntasks_per_node = 3;  // the layout is fixed: exact
  EXPECT_EQ(job_from_live(spread, counted).req.mem_per_node_mb, 3 * 300);
  spread.min_mem_per_cpu_mb = 1000;  // never more than a node has
  spread.ntasks_per_node = 0;
  EXPECT_EQ(job_from_live(spread, counted).req.mem_per_node_mb, 4000);
  for (std::int64_t id : {4, 5, 6, 7})  // CR_Core: memory is not Slurm's to count
    EXPECT_EQ(job_from_live(jobs.at(id), LiveMemory::of(cluster, false)).req.mem_per_node_mb, 0);
}

// Replays the pinned starts against the memory the running jobs leave; returns the jobs started.
std::vector<std::string> replay_memory(const std::vector<std::vector<std::string>>& commands,
                                       const std::map<std::string, std::int64_t>& needs) {
  std::map<std::string, std::int64_t> free_mb = {{"n1", 250}, {"n2", 2750}, {"n3", 4000}, {"n4", 4000}};
  std::vector<std::string> started;
  for (const PinnedStart& s : pinned_starts(commands)) {
    started.push_back(s.job);
    free_mb.at(s.nodes.at(0)) -= needs.at(s.job);
    EXPECT_GE(free_mb.at(s.nodes[0]), 0) << "job " << s.job << " on " << s.nodes[0];
  }
  return started;
}

TEST(SlurmBridge, StartsFitTheMemoryLeftOnEachNode) {
  const Cluster cluster = load_cluster_spec(kMemoryLab + "slurm.conf");
  BuiltScheduler built = make_scheduler("aucsched2", {});
  FakeSlurm slurm;
  slurm.table = memory_listing();
  SlurmBridge bridge(cluster, *built.scheduler, slurm, BridgeOptions{"", true});
  EXPECT_EQ(bridge.cycle(memory_lab_now()).started, 4u);
  EXPECT_EQ(replay_memory(slurm.commands, {{"4", 1500}, {"5", 900}, {"6", 250}, {"7", 4000}}).size(), 4u);
  // Jobs 4, 5 and 7 now each need more than n1 or n2 has left: two start on n3 and n4, the
  // third waits (pending, not rejected: it can run later).
  slurm.table = replace_all(replace_all(memory_listing(), "MinMemoryNode=1500M", "MinMemoryNode=4000M"),
                            "MinMemoryCPU=300M", "MinMemoryCPU=1000M");
  slurm.commands.clear();
  const std::string tight_table = slurm.table;
  BuiltScheduler fresh = make_scheduler("aucsched2", {});
  SlurmBridge tight(cluster, *fresh.scheduler, slurm, BridgeOptions{"", true});
  const CycleReport report = tight.cycle(memory_lab_now());
  const auto started = replay_memory(slurm.commands, {{"4", 4000}, {"5", 3000}, {"6", 250}, {"7", 4000}});
  EXPECT_EQ(started.size(), 3u);
  EXPECT_EQ(report.started, 3u);
  EXPECT_EQ(report.refused, 0u);
  // Without memory accounting all four start, one where Slurm would refuse it.
  slurm.commands.clear();
  slurm.table = tight_table;
  BuiltScheduler blind = make_scheduler("aucsched2", {});
  SlurmBridge unaware(cluster, *blind.scheduler, slurm, BridgeOptions{"", false});
  EXPECT_EQ(unaware.cycle(memory_lab_now()).started, 4u);
}

}  // namespace
}  // namespace hs::bridge

namespace hs::bridge {
namespace {

// Every field value of the real listing replaced by a malformed one: an InputError or a
// parse, never a crash.
TEST(ScontrolJobs, MalformedValuesNeverCrash) {
  const std::string text = listing();
  const std::vector<std::string> junk = {"", "-", "x-", "-1", "1-", "99999999999999999999", "(",
                                         "gpu:", "a:b:c", "0-"};
  int errors = 0, parsed = 0;
  for (std::size_t eq = text.find('='); eq != std::string::npos; eq = text.find('=', eq + 1)) {
    std::size_t end = text.find_first_of(" \n", eq + 1);
    if (end == std::string::npos) end = text.size();
    for (const std::string& value : junk) {
      const std::string mutated = text.substr(0, eq + 1) + value + text.substr(end);
      try {
        parse_scontrol_jobs(mutated, "mutated");
        ++parsed;
      } catch (const InputError&) {
        ++errors;
      }
    }
  }
  EXPECT_GT(errors, 100);
  EXPECT_GT(parsed, 1000);
}

}  // namespace
}  // namespace hs::bridge
