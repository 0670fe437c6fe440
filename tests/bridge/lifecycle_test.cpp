// The managed job's life against disturbances, on the table captured from the Slurm 22.05
// lab (data/listing.txt: job 14 runs on n1 with 6 cores and both GPUs; 15: -N 2 -n 16;
// 16: -N 1-2 -n 4 --gres=gpu:1 with hetsched:gpu=1-2; 17: -n 64, never runnable) and the
// lab's node and reservation listings (data/nodes.txt: n2 drained, n3 in the active
// reservation r1, n4 down; data/reservations.txt: r1 on n3 now, r2 on n4 in an hour;
// data/partitions.txt: lab and debug, both UP).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "bridge/bridge_lock.hpp"
#include "bridge/bridge_status.hpp"
#include "bridge/shadow_report.hpp"
#include "bridge/slurm_bridge.hpp"
#include "fake_slurm.hpp"
#include "io/builtin_clusters.hpp"
#include "io/text_file.hpp"
#include "policy/registry.hpp"
#include "util/error.hpp"

namespace hs::bridge {
namespace {

using test::argument;
using test::FakeSlurm;
using test::pinned_starts;

const std::string kData = std::string(HETSCHED_SOURCE_DIR) + "/tests/bridge/data/";

std::string only_jobs(const std::vector<int>& ids) {
  return test::lines_of(text::read_text_file(kData + "listing.txt"), ids);
}

Time lab_now() { return parse_slurm_timestamp("2026-11-22T10:22:10"); }

// A bridge with AUCSCHED2 over a fake Slurm serving some jobs of the captured table.
struct LiveBridge {
  explicit LiveBridge(const std::vector<int>& jobs, BridgeOptions options = {},
                      const std::string& scheduler = "aucsched2")
      : built(make_scheduler(scheduler, {})), bridge(cluster, *built.scheduler, slurm, options) {
    slurm.table = only_jobs(jobs);
  }
  Cluster cluster = load_cluster_spec(kData + "slurm.conf");
  FakeSlurm slurm;
  BuiltScheduler built;
  SlurmBridge bridge;
};

LiveJob job_line(const std::string& table, std::int64_t id) {
  for (const LiveJob& j : parse_scontrol_jobs(table, "fake"))
    if (j.id == id) return j;
  throw std::logic_error("no job " + std::to_string(id));
}

LiveJob job_line(const FakeSlurm& slurm, std::int64_t id) {
  for (const LiveJob& j : parse_scontrol_jobs(slurm.table, "fake"))
    if (j.id == id) return j;
  throw std::logic_error("no job " + std::to_string(id));
}

TEST(JobMarker, RoundTripsAndIgnoresOtherComments) {
  JobMarker m{MarkedPhase::Pinned, 1764000000, {"1-4", "20", "20", "1", "", "gres:gpu:1"}, ""};
  const std::string text = encode_marker(m);
  EXPECT_EQ(text.find(' '), std::string::npos);
  EXPECT_EQ(decode_marker(text), m);
  JobMarker refused{MarkedPhase::Refused, 5, {}, "needs 3 gpu=per node; sorry"};
  const auto back = decode_marker(encode_marker(refused));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->reason, "needs 3 gpu:per node: sorry");
  EXPECT_FALSE(decode_marker(""));
  EXPECT_FALSE(decode_marker("site note: checked by admin"));
  EXPECT_FALSE(decode_marker("hetsched:v1;phase=pinned;at=3"));  // no request to restore
  EXPECT_FALSE(decode_marker("hetsched:v1;phase=flying;at=3"));
}

TEST(JobMarker, OriginalRequestOfAJobWithoutNodeCountIsOneToAll) {
  const LiveJob big = job_line(only_jobs({15, 17}), 17);
  const OriginalRequest o = original_request(big, 4);
  EXPECT_EQ(o.num_nodes, "1-4");
  EXPECT_EQ(o.num_cpus, "64");
  const LiveJob exact = job_line(only_jobs({15}), 15);
  EXPECT_EQ(original_request(exact, 4).num_nodes, "2-2");
  EXPECT_EQ(original_request(exact, 4).req_nodes, "");
}

TEST(SlurmNodes, ReadsTheLabsNodeStatesAndReservations) {
  const auto nodes = parse_scontrol_nodes(text::read_text_file(kData + "nodes.txt"), "nodes.txt");
  ASSERT_EQ(nodes.size(), 4u);
  EXPECT_EQ(node_unavailable_reason(nodes[0]), "");
  EXPECT_EQ(node_unavailable_reason(nodes[1]), "drain");
  EXPECT_EQ(nodes[1].reason.rfind("test drain", 0), 0u);
  EXPECT_EQ(node_unavailable_reason(nodes[2]), "in an advance reservation");
  EXPECT_EQ(node_unavailable_reason(nodes[3]), "down");
  // State as shown -> why no new job goes there ("" = usable). sinfo's short forms, then
  // what scontrol 22.05 prints (node_state_string_complete: every flag in full); a
  // powered-down node is usable: Slurm allocates it and resumes it for the job.
  const std::vector<std::pair<std::string, std::string>> states = {
      {"IDLE*", "not responding"}, {"MIXED-", ""},  // '-': planned by Slurm's backfill
      {"ALLOCATED+DRAIN", "drain"}, {"IDLE+MAINT", "maintenance"},
      {"IDLE+NOT_RESPONDING", "not responding"}, {"MIXED+NOT_RESPONDING", "not responding"},
      {"IDLE+MAINTENANCE+RESERVED", "maintenance"}, {"IDLE+PLANNED", ""},
      {"IDLE+DYNAMIC_FUTURE", "future"}, {"IDLE+POWERED_DOWN", ""}, {"IDLE+POWERING_UP", ""},
      {"IDLE~", ""}, {"IDLE+POWER_DOWN", "powering down"}, {"IDLE+POWERING_DOWN", "powering down"},
      {"DOWN+POWERED_DOWN", "down"}};
  for (const auto& [state, why] : states) EXPECT_EQ(node_unavailable_reason({"x", state, ""}), why) << state;
  const auto res = parse_scontrol_reservations(text::read_text_file(kData + "reservations.txt"), "r");
  ASSERT_EQ(res.size(), 2u);
  EXPECT_EQ(res[0].nodes, std::vector<std::string>{"n3"});
  EXPECT_EQ(res[1].end_epoch - res[1].start_epoch, 600);
  EXPECT_TRUE(parse_scontrol_reservations("No reservations in the system\n", "r").empty());
  EXPECT_THROW(parse_scontrol_nodes("State=IDLE\n", "n"), InputError);
  EXPECT_THROW(parse_scontrol_reservations("ReservationName=x StartTime=soon EndTime=x\n", "r"), InputError);
  // Each line is under the per-expression cap; together they are not (a fuzzer's find:
  // unbounded, such a listing expanded for minutes).
  std::string many;
  for (int i = 0; i < 3; ++i)
    many += "ReservationName=r" + std::to_string(i) +
            " StartTime=2026-01-01T00:00:00 EndTime=2026-01-01T01:00:00 Nodes=n[1-400000]\n";
  EXPECT_THROW(parse_scontrol_reservations(many, "r"), InputError);
}

TEST(JobLifecycle, PhasesReadFromSlurm) {
  LiveJob j;
  j.id = 1;
  j.state = "PENDING";
  j.partition = "lab";
  j.reason = "JobHeldUser";
  EXPECT_EQ(observe(j, "lab").phase, Phase::Queued);
  EXPECT_EQ(observe(j, "other").phase, Phase::Unmanaged);
  j.reason = "JobHeldAdmin";  // an operator's hold is the operator's
  EXPECT_EQ(observe(j, "").phase, Phase::Unmanaged);
  j.admin_comment = encode_marker({MarkedPhase::Held, 1, {}, ""});  // held by job_submit.lua or the bridge
  EXPECT_EQ(observe(j, "").phase, Phase::Queued);
  j.admin_comment = encode_marker({MarkedPhase::Pinned, 1, {"1-4", "4", "4", "1", "", ""}, ""});
  EXPECT_EQ(observe(j, "").phase, Phase::Interrupted);
  j.reason = "Resources";
  EXPECT_EQ(observe(j, "").phase, Phase::Released);
  j.admin_comment.clear();
  EXPECT_EQ(observe(j, "").phase, Phase::Unmanaged);  // Slurm's own pending job
  // Its owner's hold, marked by job_submit.lua: theirs, unless a pinned request needs restoring.
  j.reason = "JobHeldUser";
  j.comment = std::string(kUserHoldComment) + " | was: hetsched:gpu%3D1-2";
  j.admin_comment = encode_marker({MarkedPhase::Held, 1, {}, ""});
  EXPECT_EQ(observe(j, "").phase, Phase::Unmanaged);
  j.admin_comment = encode_marker({MarkedPhase::Pinned, 1, {"1-4", "4", "4", "1", "", ""}, ""});
  EXPECT_EQ(observe(j, "").phase, Phase::Interrupted);
  j.comment.clear();
  j.admin_comment.clear();
  j.state = "RUNNING";
  EXPECT_EQ(observe(j, "").phase, Phase::Running);
  j.state = "CANCELLED";
  EXPECT_EQ(observe(j, "").phase, Phase::Ended);
}

TEST(JobLifecycle, AFailedPinIsUndoneAndTheJobStaysQueued) {
  LiveBridge run({14, 15});
  run.slurm.fail_when = {"ReqNodeList=n"};
  const CycleReport report = run.bridge.cycle(lab_now());
  EXPECT_EQ(report.started, 0u);
  EXPECT_GE(report.command_failures, 1u);
  const LiveJob after = job_line(run.slurm, 15);
  EXPECT_TRUE(after.held_by_user());
  EXPECT_EQ(observe(after, "").phase, Phase::Queued);  // restored and marked held
  EXPECT_EQ(after.num_nodes_text, "2-2");
  EXPECT_TRUE(after.req_nodes.empty());
}

TEST(JobLifecycle, AFailedReleaseRestoresTheRequest) {
  LiveBridge run({14, 15});
  run.slurm.fail_when = {"release"};
  EXPECT_EQ(run.bridge.cycle(lab_now()).started, 0u);
  const LiveJob after = job_line(run.slurm, 15);
  EXPECT_EQ(observe(after, "").phase, Phase::Queued);
  EXPECT_TRUE(after.req_nodes.empty());
}

// kill -9 between the pin and the release: the next bridge finds the job held with its
// request still pinned and puts the original back before scheduling it.
TEST(JobLifecycle, ARestartedBridgeRestoresAnInterruptedStart) {
  LiveBridge first({14, 15});
  first.slurm.fail_when = {"release", "NumNodes=2-2 NumCPUs"};  // the restore fails too
  first.bridge.cycle(lab_now());
  ASSERT_EQ(observe(job_line(first.slurm, 15), "").phase, Phase::Interrupted);
  LiveBridge second({});
  second.slurm.table = first.slurm.table;
  const CycleReport report = second.bridge.cycle(lab_now() + 5);
  EXPECT_EQ(report.repaired, 1u);
  EXPECT_EQ(report.pending, 0u);  // not scheduled on the pinned request
  EXPECT_EQ(observe(job_line(second.slurm, 15), "").phase, Phase::Queued);
  EXPECT_EQ(job_line(second.slurm, 15).num_nodes_text, "2-2");
  EXPECT_EQ(second.bridge.cycle(lab_now() + 10).started, 1u);
}

// A restarted bridge sees the first one's released jobs and keeps their nodes booked.
TEST(JobLifecycle, ARestartedBridgeKeepsReleasedJobsNodes) {
  LiveBridge first({14, 15, 16});
  ASSERT_EQ(first.bridge.cycle(lab_now()).started, 2u);
  LiveBridge second({});
  second.slurm.table = first.slurm.table;
  const CycleReport report = second.bridge.cycle(lab_now() + 3);
  EXPECT_EQ(report.in_flight, 2u);
  EXPECT_EQ(report.started, 0u);
  EXPECT_EQ(report.reheld, 0u);
  EXPECT_TRUE(report.log.empty()) << report.log.front();
}

// A job Slurm started by itself on nodes the bridge had planned for a released job: no
// crash, the released job is held again at once and re-planned.
TEST(JobLifecycle, NodesTakenByAJobTheBridgeDidNotStartAreAConflict) {
  LiveBridge run({14, 15});
  ASSERT_EQ(run.bridge.cycle(lab_now()).started, 1u);
  const auto pinned = pinned_starts(run.slurm.commands);
  ASSERT_EQ(pinned.size(), 1u);
  // Job 14 (6 cores, 2 GPUs) is now shown running on the first node job 15 was pinned to,
  // as if Slurm had started a non-held job there: with 14 on n1 too, that node is full.
  std::string table = run.slurm.table;
  const std::string stolen = only_jobs({14});
  std::string intruder = stolen;
  intruder.replace(0, 8, "JobId=90");
  for (const std::string from : {"Nodes=n1 ", "NodeList=n1 "})
    if (auto at = intruder.find(from); at != std::string::npos)
      intruder.replace(at, from.size(), from.substr(0, from.size() - 3) + pinned[0].nodes[0] + " ");
  run.slurm.table = table + intruder;
  run.slurm.commands.clear();
  const CycleReport report = run.bridge.cycle(lab_now() + 2);
  EXPECT_EQ(report.reheld, 1u);
  EXPECT_EQ(run.slurm.commands.at(0), (std::vector<std::string>{"scontrol", "uhold", "15"}));
  EXPECT_EQ(observe(job_line(run.slurm, 15), "").phase, Phase::Queued);
}

TEST(JobLifecycle, NothingIsStartedOnDrainedDownOrReservedNodes) {
  LiveBridge run({14, 15, 16});
  run.slurm.nodes = text::read_text_file(kData + "nodes.txt");  // only n1 (2 cores left) is usable
  const CycleReport report = run.bridge.cycle(lab_now());
  EXPECT_EQ(report.blocked_nodes, 3u);
  EXPECT_EQ(report.started, 0u);
  EXPECT_EQ(report.pending, 2u);
  run.slurm.nodes.clear();
  run.slurm.reservations = text::read_text_file(kData + "reservations.txt");
  const CycleReport reserved = run.bridge.cycle(parse_slurm_timestamp("2026-11-25T13:25:00"));
  // r1 is active on n3; r2 on n4 starts within the queued jobs' limits (job 16 asks a day).
  EXPECT_EQ(reserved.blocked_nodes, 2u);
  for (const auto& s : pinned_starts(run.slurm.commands))
    for (const std::string& n : s.nodes) EXPECT_TRUE(n == "n1" || n == "n2") << n;
}

// Regression (live fault matrix): after nodes came back from drain/down no job event
// occurs; the scheduler must still get a pass, or the queue waits forever.
TEST(JobLifecycle, NodesComingBackTriggerAPass) {
  LiveBridge run({14, 15, 16});
  run.slurm.nodes = text::read_text_file(kData + "nodes.txt");
  EXPECT_EQ(run.bridge.cycle(lab_now()).started, 0u);
  EXPECT_EQ(run.bridge.cycle(lab_now() + 1).started, 0u);
  run.slurm.nodes.clear();
  EXPECT_EQ(run.bridge.cycle(lab_now() + 2).started, 2u);
}

// Schedulers that keep a queue of their own between passes (the Slurm model, the
// heuristics) see the live queue change as no replay changes it: jobs arrive after the
// first pass, leave it unstarted and come back, or change their request while held.
const std::vector<std::string> kStatefulSchedulers = {
    "backfill", "backfill-easy", "fifo+ff", "easy+ff", "sjf+bf", "prb+balanced", "cph+ff",
    "easy+pweighted+datadriven", "ipsched", "aucsched1", "aucsched2"};

std::size_t commands_on(const FakeSlurm& slurm, const std::string& id) {
  return std::count_if(slurm.commands.begin(), slurm.commands.end(),
                       [&](const auto& c) { return c.size() > 2 && (c[2] == id || c[2] == "JobId=" + id); });
}

TEST(JobLifecycle, JobsArrivingAfterTheFirstPassAreScheduled) {
  for (const std::string& scheduler : kStatefulSchedulers) {
    LiveBridge run({14}, {}, scheduler);
    EXPECT_EQ(run.bridge.cycle(lab_now()).started, 0u) << scheduler;
    run.slurm.table = only_jobs({14, 15, 16});
    const CycleReport report = run.bridge.cycle(lab_now() + 1);
    EXPECT_EQ(report.started, 2u) << scheduler << report.json();
    EXPECT_EQ(report.proposals_refused, 0u) << scheduler;
    EXPECT_EQ(commands_on(run.slurm, "14"), 0u) << scheduler;  // running: never started again
  }
}

// An operator holds a queued job while no node is usable; when the nodes come back the
// other job starts, the held one is left alone and the running one is not started again.
TEST(JobLifecycle, AJobThatLeftTheQueueIsNotStartedFromAStaleQueue) {
  for (const std::string& scheduler : kStatefulSchedulers) {
    LiveBridge run({14, 15, 16}, {}, scheduler);
    run.slurm.nodes = text::read_text_file(kData + "nodes.txt");
    ASSERT_EQ(run.bridge.cycle(lab_now()).started, 0u) << scheduler;
    run.slurm.set_field("15", "Reason", "JobHeldAdmin");
    run.slurm.nodes.clear();
    const CycleReport report = run.bridge.cycle(lab_now() + 1);
    EXPECT_EQ(report.started, 1u) << scheduler << report.json();
    EXPECT_EQ(report.proposals_refused, 0u) << scheduler;
    EXPECT_EQ(commands_on(run.slurm, "15"), 0u) << scheduler;
    EXPECT_EQ(commands_on(run.slurm, "14"), 0u) << scheduler;
    run.slurm.set_field("15", "Reason", "JobHeldUser");  // the operator gives it back
    run.slurm.set_field("16", "JobState", "COMPLETED");
    run.slurm.set_field("14", "JobState", "COMPLETED");
    run.slurm.commands.clear();
    EXPECT_EQ(run.bridge.cycle(lab_now() + 2).started + run.bridge.cycle(lab_now() + 3).started, 1u)
        << scheduler;  // 15, once
    ASSERT_EQ(pinned_starts(run.slurm.commands).size(), 1u) << scheduler;
    EXPECT_EQ(pinned_starts(run.slurm.commands)[0].job, "15") << scheduler;
  }
}

// The user shrinks a held job's request (scontrol update) while it waits: the scheduler
// plans it afresh, and the start fits the request as it is now.
TEST(JobLifecycle, ARequestChangedWhileQueuedIsPlannedAfresh) {
  for (const std::string& scheduler : kStatefulSchedulers) {
    LiveBridge run({14, 15}, {}, scheduler);
    run.slurm.nodes = text::read_text_file(kData + "nodes.txt");
    ASSERT_EQ(run.bridge.cycle(lab_now()).started, 0u) << scheduler;
    run.slurm.set_field("15", "NumNodes", "1-1");
    run.slurm.set_field("15", "NumCPUs", "4");
    run.slurm.set_field("15", "NumTasks", "4");
    run.slurm.nodes.clear();
    const CycleReport report = run.bridge.cycle(lab_now() + 1);
    EXPECT_EQ(report.started, 1u) << scheduler << report.json();
    EXPECT_EQ(report.proposals_refused, 0u) << scheduler;
    const auto starts = pinned_starts(run.slurm.commands);
    ASSERT_EQ(starts.size(), 1u) << scheduler;
    EXPECT_EQ(starts[0].nodes.size(), 1u) << scheduler;
  }
}

// Whatever a scheduler proposes, a job is started only from this cycle's queue and only
// once: the running job 14 proposed again on the idle n4, job 15 proposed on n2 and again
// on n3, and an unknown job are refused before Slurm (each would fit what is free).
TEST(JobLifecycle, OnlyAQueuedJobIsStartedAndOnlyOnce) {
  struct Stale : Scheduler {
    std::string name() const override { return "stale"; }
    Decisions decide(const SystemView& view, std::span<const Event>) override {
      Decisions d;
      for (const RunningJob& r : view.running) {
        Allocation elsewhere = *r.alloc;
        elsewhere.shares.at(0).node = 3;
        d.starts.push_back({r.job, elsewhere});
      }
      for (JobRef j : view.pending)
        for (NodeIndex n : {1, 2}) d.starts.push_back({j, Allocation{{NodeShare{n, 4}}}});
      d.starts.push_back({JobRef{999}, Allocation{{NodeShare{3, 1}}}});
      return d;
    }
  } stale;
  Cluster cluster = load_cluster_spec(kData + "slurm.conf");
  FakeSlurm slurm;
  slurm.table = only_jobs({14, 15});
  slurm.set_field("15", "NumNodes", "1-1");
  slurm.set_field("15", "NumCPUs", "4");
  slurm.set_field("15", "NumTasks", "4");
  SlurmBridge bridge(cluster, stale, slurm, {});
  const CycleReport report = bridge.cycle(lab_now());
  EXPECT_EQ(report.started, 1u);
  EXPECT_EQ(report.proposals_refused, 3u) << report.json();
  ASSERT_EQ(pinned_starts(slurm.commands).size(), 1u);
  EXPECT_EQ(pinned_starts(slurm.commands)[0].job, "15");
  EXPECT_EQ(pinned_starts(slurm.commands)[0].nodes, std::vector<std::string>{"n2"});
  EXPECT_EQ(commands_on(slurm, "14"), 0u);
}

TEST(JobLifecycle, AControllerOutageDoesNotEatTheStartGrace) {
  LiveBridge run({14, 15});
  ASSERT_EQ(run.bridge.cycle(lab_now()).started, 1u);
  run.slurm.down = true;
  EXPECT_THROW(run.bridge.cycle(lab_now() + 20), SlurmUnavailable);
  run.slurm.down = false;
  const CycleReport back = run.bridge.cycle(lab_now() + 40);  // 40 s after the release
  EXPECT_EQ(back.reheld, 0u);
  EXPECT_EQ(back.in_flight, 1u);
  EXPECT_EQ(run.bridge.cycle(lab_now() + 75).reheld, 1u);  // a full grace after the outage
}

// A job the bridge started that Slurm then requeued (its node failed, or an operator's
// `scontrol requeue`): pending again, still pinned, with a begin time Slurm moved past the
// release. It is held again with its request restored at once, and the log says why.
TEST(JobLifecycle, ARequeuedJobIsHeldAgainWithItsRequestRestored) {
  LiveBridge run({14, 15});
  ASSERT_EQ(run.bridge.cycle(lab_now()).started, 1u);
  const std::string id = "15";
  ASSERT_FALSE(job_line(run.slurm, 15).req_nodes.empty());
  run.slurm.set_field(id, "Restarts", "1");
  run.slurm.set_field(id, "Reason", "BeginTime");
  run.slurm.set_field(id, "EligibleTime", "2026-11-22T10:25:10");  // now + 3 min
  const CycleReport report = run.bridge.cycle(lab_now() + 60);
  EXPECT_EQ(report.reheld, 1u);
  ASSERT_FALSE(report.log.empty());
  EXPECT_NE(report.log.front().find("requeued by Slurm after it ran (Restarts=1, BeginTime)"),
            std::string::npos) << report.log.front();
  const LiveJob after = job_line(run.slurm, 15);
  EXPECT_EQ(after.reason, "JobHeldUser");
  EXPECT_TRUE(after.req_nodes.empty());  // the original request: no node list
}

// Job 15, started by the bridge, requeued by Slurm into an operator's hold (Priority 0)
// shown as `state` with `reason`: its request is restored, the marker cleared, and the
// bridge never releases it.
void expect_operators_requeue_hold(const std::string& state, const std::string& reason) {
  LiveBridge run({14, 15});
  ASSERT_EQ(run.bridge.cycle(lab_now()).started, 1u);
  const std::string id = "15";
  run.slurm.set_field(id, "JobState", state);
  run.slurm.set_field(id, "Restarts", "1");
  run.slurm.set_field(id, "Priority", "0");
  run.slurm.set_field(id, "Reason", reason);
  run.slurm.commands.clear();
  run.bridge.cycle(lab_now() + 60);
  LiveJob after = job_line(run.slurm, 15);
  EXPECT_EQ(after.reason, reason);           // not taken over with a hold of ours
  EXPECT_TRUE(after.req_nodes.empty());      // the original request: no node list
  EXPECT_TRUE(after.admin_comment.empty());  // no marker: not the bridge's any more
  for (int k = 2; k < 5; ++k) run.bridge.cycle(lab_now() + 60 * k);
  for (const auto& command : run.slurm.commands) EXPECT_NE(command[1], "release") << command[2];
  EXPECT_EQ(job_line(run.slurm, 15).reason, reason);
}

// `scontrol requeuehold` of a job the bridge started (seen on a lab: PENDING, Priority 0,
// Reason job_requeued_in_held_state): the operator's hold. The bridge gives the job its
// request back and leaves it to the operator, never releasing it itself.
TEST(JobLifecycle, AnOperatorsRequeueHoldIsTheirs) {
  expect_operators_requeue_hold("PENDING", "job_requeued_in_held_state");
}

// A special exit (RequeueExitHold, or `scontrol requeuehold State=SpecialExit`) shows as
// JobState=SPECIAL_EXIT: a pending job Slurm holds, not an ended one whose pinned request
// could be left behind.
TEST(JobLifecycle, ASpecialExitIsAnOperatorsHoldNotAnEnd) {
  expect_operators_requeue_hold("SPECIAL_EXIT", "job_requeued_in_special_exit_state");
}

// Every state flag scontrol shows for a pending job reads as pending, never as ended.
TEST(JobLifecycle, PendingStateFlagsArePending) {
  LiveJob j;
  j.id = 1;
  j.partition = "lab";
  j.priority = 100;
  j.reason = "None";
  j.admin_comment = encode_marker({MarkedPhase::Pinned, 1, {"1-4", "4", "4", "1", "", ""}, ""});
  for (const char* state : {"SPECIAL_EXIT", "REQUEUE_HOLD", "RESV_DEL_HOLD", "REQUEUED", "REQUEUE_FED"}) {
    j.state = state;
    EXPECT_TRUE(j.pending()) << state;
    EXPECT_FALSE(j.ended()) << state;
    EXPECT_FALSE(j.held()) << state << ": released (its priority back), the flag still shown";
    EXPECT_EQ(observe(j, "lab").phase, Phase::Released) << state;
  }
  j.state = "RESV_DEL_HOLD";
  j.priority = 0;
  j.reason = "Reservation_r1_was_deleted";
  EXPECT_TRUE(j.held());
  EXPECT_EQ(observe(j, "lab").phase, Phase::Interrupted);
  for (const char* state : {"COMPLETED", "CANCELLED", "STAGE_OUT", "REVOKED"}) {
    j.state = state;
    EXPECT_TRUE(j.ended()) << state;
  }
}

// A job stopped with `scancel -s STOP` (JobState=STOPPED) keeps its nodes.
TEST(JobLifecycle, AStoppedJobStillHoldsItsNodes) {
  LiveJob j;
  j.id = 1;
  j.partition = "lab";
  for (const char* state : {"STOPPED", "CONFIGURING", "RESIZING", "SIGNALING", "SUSPENDED"}) {
    j.state = state;
    EXPECT_EQ(observe(j, "lab").phase, Phase::Running) << state;
    EXPECT_FALSE(j.ended()) << state;
  }
  j.state = "PENDING";
  j.reason = "launch_failed_requeued_held";
  EXPECT_TRUE(j.held());
  EXPECT_FALSE(j.held_by_user());
}

TEST(JobLifecycle, OverbookedRunningJobsAndUnknownNodesAreConflictsNotCrashes) {
  LiveBridge run({14, 15});
  std::string twice = only_jobs({14});
  twice.replace(0, 8, "JobId=91");
  run.slurm.table += twice;  // n1 would hold 12 of 8 cores
  std::string elsewhere = only_jobs({14});
  elsewhere.replace(0, 8, "JobId=92");
  elsewhere.replace(elsewhere.find("Nodes=n1 "), 9, "Nodes=x9 ");
  run.slurm.table += elsewhere;  // a node of another partition: not ours to count
  const CycleReport report = run.bridge.cycle(lab_now());
  EXPECT_EQ(report.conflicts, 1u);
  EXPECT_EQ(report.started, 1u);
  for (const auto& s : pinned_starts(run.slurm.commands))
    for (const std::string& n : s.nodes) EXPECT_NE(n, "n1");
  EXPECT_EQ(run.bridge.cycle(lab_now() + 1).conflicts, 0u);  // said once
}

TEST(JobLifecycle, AnOperatorsHoldIsLeftAloneAndReservationJobsGoToSlurm) {
  LiveBridge run({14, 15, 16});
  run.slurm.set_field("15", "Reason", "JobHeldAdmin");
  run.slurm.set_field("16", "Reservation", "r1");
  const CycleReport report = run.bridge.cycle(lab_now());
  EXPECT_EQ(report.pending, 0u);
  ASSERT_EQ(run.slurm.commands.size(), 1u);
  EXPECT_EQ(run.slurm.commands[0], (std::vector<std::string>{"scontrol", "release", "16"}));
}

// A job handed to Slurm (it asks a reservation) keeps job_submit.lua's record. Slurm holds
// it itself when the reservation is deleted (RESV_DEL_HOLD, Priority 0), as it does when an
// operator requeue-holds it once it ran, or its launch failed: each waits for a person.
TEST(JobLifecycle, SlurmsOwnHoldOfAHandedOverJobWaitsForAPerson) {
  LiveBridge run({16});
  run.slurm.set_field("16", "AdminComment", encode_marker({MarkedPhase::Held, 0, {}, ""}));
  run.slurm.set_field("16", "Reservation", "r1");
  run.bridge.cycle(lab_now());
  ASSERT_EQ(run.slurm.commands.size(), 1u);  // released to Slurm's own scheduler
  run.slurm.set_field("16", "Reservation", "(null)");
  const std::vector<std::pair<std::string, std::string>> holds = {
      {"RESV_DEL_HOLD", "Reservation_r1_was_deleted"},
      {"PENDING", "job_requeued_in_held_state"},
      {"PENDING", "launch_failed_requeued_held"}};
  for (const auto& [state, reason] : holds) {
    run.slurm.set_field("16", "JobState", state);
    run.slurm.set_field("16", "Priority", "0");
    run.slurm.set_field("16", "Reason", reason);
    run.slurm.commands.clear();
    for (int k = 1; k < 4; ++k) EXPECT_EQ(run.bridge.cycle(lab_now() + 60 * k).pending, 0u) << state;
    EXPECT_TRUE(run.slurm.commands.empty()) << state << "/" << reason;
  }
}

// `scontrol hold` by the job's owner: job_submit.lua marks the Comment; the
// bridge must not start the job until the owner releases it (the script then unmarks it).
TEST(JobLifecycle, AJobItsOwnerHoldsWaitsForTheirRelease) {
  LiveBridge run({14, 15});
  const std::string held = std::string(kUserHoldComment) + " | was: x%3Dy";
  run.slurm.set_field("15", "Comment", held);
  run.slurm.set_field("15", "AdminComment", encode_marker({MarkedPhase::Held, 0, {}, ""}));
  const CycleReport report = run.bridge.cycle(lab_now());
  EXPECT_EQ(report.started, 0u);
  EXPECT_EQ(report.pending, 0u);
  EXPECT_TRUE(run.slurm.commands.empty());
  SlurmView view;
  view.jobs = parse_scontrol_jobs(run.slurm.table, "fake");
  const std::string status = status_text(view, "", lab_now(), 8);
  EXPECT_NE(status.find("15  unmanaged  held by its user"), std::string::npos) << status;
  run.slurm.set_field("15", "Comment", "x=y");  // released by its owner
  EXPECT_EQ(run.bridge.cycle(lab_now() + 1).started, 1u);
}

// The owner holds a job the bridge has just released onto its nodes: the request the user
// submitted is put back, and the job then waits for its owner.
TEST(JobLifecycle, APinnedJobItsOwnerHoldsGetsItsRequestBackAndWaits) {
  LiveBridge run({14, 15});
  ASSERT_EQ(run.bridge.cycle(lab_now()).started, 1u);
  ASSERT_FALSE(job_line(run.slurm, 15).req_nodes.empty());
  run.slurm.set_field("15", "Reason", "JobHeldUser");
  run.slurm.set_field("15", "Priority", "0");
  run.slurm.set_field("15", "Comment", kUserHoldComment);
  run.bridge.cycle(lab_now() + 1);
  const LiveJob restored = job_line(run.slurm, 15);
  EXPECT_TRUE(restored.req_nodes.empty());
  EXPECT_TRUE(restored.held_by_user());
  EXPECT_EQ(restored.comment, kUserHoldComment);
  run.slurm.commands.clear();
  EXPECT_EQ(run.bridge.cycle(lab_now() + 2).started, 0u);
  EXPECT_TRUE(run.slurm.commands.empty());
}

// A partition set DOWN or INACTIVE: Slurm would start none of its jobs, so the bridge
// releases none (before, each job went out, sat with PartitionDown, came back held after
// the grace, and then waited out a doubling pause once the partition was up again).
TEST(JobLifecycle, NothingIsReleasedWhileThePartitionIsClosed) {
  BridgeOptions options;
  options.partition = "lab";
  LiveBridge run({14, 15}, options);
  // Captured from the lab (partitions lab and debug, both UP); lab's state set as the test needs.
  const std::string captured = text::read_text_file(kData + "partitions.txt");
  const auto lab_in_state = [&](const std::string& state) {
    std::string text = captured;
    text.replace(text.find("State=UP"), 8, "State=" + state);
    return text;
  };
  ASSERT_EQ(parse_scontrol_partitions(captured, "p").size(), 2u);
  run.slurm.partitions = lab_in_state("DOWN");
  CycleReport report = run.bridge.cycle(lab_now());
  EXPECT_EQ(report.started, 0u);
  EXPECT_TRUE(run.slurm.commands.empty());
  ASSERT_FALSE(report.log.empty());
  EXPECT_NE(report.log.front().find("partition lab is DOWN"), std::string::npos) << report.log.front();
  SlurmView view;
  view.jobs = parse_scontrol_jobs(run.slurm.table, "fake");
  view.partitions = parse_scontrol_partitions(run.slurm.partitions, "fake");
  const std::string status = status_text(view, "lab", lab_now(), 8);
  EXPECT_NE(status.find("partition  lab (DOWN: Slurm starts none of its jobs"), std::string::npos) << status;
  run.slurm.partitions = lab_in_state("INACTIVE");
  EXPECT_EQ(run.bridge.cycle(lab_now() + 1).started, 0u);
  run.slurm.partitions = lab_in_state("DRAIN");  // Slurm runs what is queued
  EXPECT_EQ(run.bridge.cycle(lab_now() + 2).started, 1u);
  EXPECT_THROW(parse_scontrol_partitions("PartitionName=lab Nodes=n1\n", "p"), InputError);
}

// A job beyond the partition's MaxTime or MaxNodes would stay pending whatever the bridge
// did (PartitionTimeLimit, PartitionNodeLimit, seen on the lab): refused with the reason, and
// queued again once the limit allows it. A job left free in its node count is planned on no
// more nodes than MaxNodes, since a start pinned on more would stay pending too.
TEST(JobLifecycle, ThePartitionsTimeAndNodeLimitsAreSlurms) {
  BridgeOptions options;
  options.partition = "lab";
  LiveBridge run({14, 15}, options);
  const std::string captured = text::read_text_file(kData + "partitions.txt");
  const auto lab_with = [&](const std::string& max_time, const std::string& max_nodes) {
    std::string text = captured;
    text.replace(text.find("MaxNodes=UNLIMITED MaxTime=UNLIMITED"), 36,
                 "MaxNodes=" + max_nodes + " MaxTime=" + max_time);
    return text;
  };
  run.slurm.partitions = lab_with("00:04:00", "UNLIMITED");  // job 15 asks 5 minutes
  CycleReport report = run.bridge.cycle(lab_now());
  EXPECT_EQ(report.started, 0u);
  EXPECT_NE(job_line(run.slurm, 15).comment.find("above partition lab's MaxTime 00:04:00"), std::string::npos)
      << job_line(run.slurm, 15).comment;
  run.slurm.partitions = lab_with("UNLIMITED", "1");  // job 15 asks 2 nodes
  EXPECT_EQ(run.bridge.cycle(lab_now() + 1).started, 0u);
  EXPECT_NE(job_line(run.slurm, 15).comment.find("above partition lab's MaxNodes 1"), std::string::npos)
      << job_line(run.slurm, 15).comment;
  run.slurm.partitions = lab_with("00:05:00", "2");
  EXPECT_EQ(run.bridge.cycle(lab_now() + 2).started, 1u);

  // A job that may also run in another partition is Slurm's to place there.
  LiveBridge elsewhere({14, 15}, options);
  elsewhere.slurm.set_field("15", "Partition", "lab,debug");
  elsewhere.slurm.partitions = lab_with("00:04:00", "UNLIMITED");
  const CycleReport handed = elsewhere.bridge.cycle(lab_now());
  EXPECT_EQ(handed.started, 0u);
  EXPECT_EQ(job_line(elsewhere.slurm, 15).reason, "None") << "released to Slurm";
  EXPECT_EQ(job_line(elsewhere.slurm, 15).comment.find("never runnable"), std::string::npos);

  // 12 cores on 1 to 4 nodes of 8 cores: two nodes, so MaxNodes=1 leaves it nowhere to run.
  LiveBridge free_count({14, 15}, options);
  free_count.slurm.set_field("15", "NumNodes", "1-4");
  free_count.slurm.set_field("15", "NumCPUs", "12");
  free_count.slurm.set_field("15", "NumTasks", "12");
  free_count.slurm.partitions = lab_with("UNLIMITED", "1");
  EXPECT_EQ(free_count.bridge.cycle(lab_now()).started, 0u);
  EXPECT_EQ(job_line(free_count.slurm, 15).comment,
            "[hetsched] never runnable: needs 12 cores, the best 1 eligible nodes have 8 (partition lab's MaxNodes 1)");
  free_count.slurm.partitions = lab_with("UNLIMITED", "UNLIMITED");
  const CycleReport lifted = free_count.bridge.cycle(lab_now() + 1);
  EXPECT_EQ(lifted.started, 1u) << lifted.json();
  const std::vector<LivePartition> listed = parse_scontrol_partitions(lab_with("1-00:00:00", "3"), "p");
  EXPECT_EQ(listed.front().max_time, 86400);
  EXPECT_EQ(listed.front().max_nodes, 3);
  EXPECT_EQ(listed.back().max_nodes, 0);
  EXPECT_THROW(parse_scontrol_partitions(lab_with("UNLIMITED", "x"), "p"), InputError);
}

// A partition Slurm lists but the bridge's slurm.conf lacks (an operator added it since the
// bridge started): its jobs are Slurm's to run, released unpinned, never refused. Without a
// partition listing the bridge cannot tell such a partition from a misspelt one: refused.
TEST(JobLifecycle, AJobOfAPartitionAddedSinceTheBridgeStartedIsSlurms) {
  LiveBridge run({14, 15});  // every partition managed; slurm.conf has lab only
  run.slurm.partitions = text::read_text_file(kData + "partitions.txt");  // lab and debug
  run.slurm.set_field("15", "Partition", "debug");
  const CycleReport report = run.bridge.cycle(lab_now());
  EXPECT_EQ(report.started, 0u);
  EXPECT_EQ(report.refused, 0u) << report.json();
  EXPECT_EQ(job_line(run.slurm, 15).reason, "None") << "released to Slurm";
  EXPECT_EQ(job_line(run.slurm, 15).comment.find("never runnable"), std::string::npos);
  bool said = false;
  for (const std::string& line : report.log)
    said = said || line.find("job 15: partition debug is not in the bridge's slurm.conf") != std::string::npos;
  EXPECT_TRUE(said) << report.json();

  LiveBridge unlisted({14, 15});
  unlisted.slurm.set_field("15", "Partition", "debug");
  EXPECT_EQ(unlisted.bridge.cycle(lab_now()).refused, 1u);
  EXPECT_NE(job_line(unlisted.slurm, 15).comment.find("never runnable: unknown partition 'debug'"), std::string::npos)
      << job_line(unlisted.slurm, 15).comment;
}

// An operator moves nodes out of the managed partition (`scontrol update PartitionName=lab
// Nodes=...`): Slurm starts none of the partition's jobs there, so the bridge pins none there.
// nodes.txt leaves n1 the one usable node.
TEST(JobLifecycle, ANodeMovedOutOfThePartitionIsNotUsed) {
  const std::string captured = text::read_text_file(kData + "partitions.txt");
  const auto lab_nodes = [&](const std::string& nodes) {
    std::string text = captured;
    text.replace(text.find("Nodes=n[1-8]"), 12, "Nodes=" + nodes);  // the first line: lab
    return text;
  };
  EXPECT_EQ(parse_scontrol_partitions(lab_nodes("n[2-3],n5"), "p").front().nodes,
            (std::vector<std::string>{"n2", "n3", "n5"}));
  EXPECT_FALSE(parse_scontrol_partitions(lab_nodes("ALL"), "p").front().nodes);
  EXPECT_TRUE(parse_scontrol_partitions(lab_nodes("(null)"), "p").front().nodes->empty());
  EXPECT_THROW(parse_scontrol_partitions(lab_nodes("n[3-1]"), "p"), InputError);
  const std::vector<std::pair<std::string, std::size_t>> cases = {
      {"n[1-8]", 1}, {"n[2-8]", 0}, {"ALL", 1}, {"(null)", 0}};
  for (const auto& [nodes, started] : cases) {
    BridgeOptions options;
    options.partition = "lab";
    LiveBridge run({15}, options);
    run.slurm.nodes = text::read_text_file(kData + "nodes.txt");
    run.slurm.partitions = lab_nodes(nodes);
    run.slurm.set_field("15", "NumNodes", "1-1");
    run.slurm.set_field("15", "NumCPUs", "2");
    run.slurm.set_field("15", "NumTasks", "2");
    const CycleReport report = run.bridge.cycle(lab_now());
    EXPECT_EQ(report.started, started) << nodes << report.json();
    EXPECT_EQ(job_line(run.slurm, 15).comment.find("never runnable"), std::string::npos) << nodes;
  }
}

// A node an operator moves into the managed partition (scontrol update; slurm.conf still
// says lab = n[1-3]) is planned on at once: a job needing all four nodes starts. Moved out
// again, it is used no more.
TEST(JobLifecycle, ANodeMovedIntoThePartitionIsUsed) {
  std::string conf = text::read_text_file(kData + "slurm.conf");
  conf.replace(conf.find("PartitionName=lab Nodes=n[1-4]"), 30, "PartitionName=lab Nodes=n[1-3]");
  conf += "PartitionName=spare Nodes=n4\n";
  const std::string dir = testing::TempDir() + "moved-in/";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "slurm.conf") << conf;
  std::filesystem::copy_file(kData + "gres.conf", dir + "gres.conf",
                             std::filesystem::copy_options::overwrite_existing);
  const Cluster cluster = load_cluster_spec(dir + "slurm.conf");
  ASSERT_EQ(cluster.find_partition("lab")->nodes.size(), 3u);
  std::string partitions = text::read_text_file(kData + "partitions.txt");  // lab: n[1-8]
  for (const std::string scheduler : {"backfill", "fifo+ff", "aucsched2"}) {
    FakeSlurm slurm;
    slurm.table = only_jobs({14, 15});
    slurm.partitions = partitions;
    slurm.set_field("15", "NumNodes", "4-4");
    slurm.set_field("15", "NumCPUs", "8");
    slurm.set_field("15", "NumTasks", "8");
    BuiltScheduler built = make_scheduler(scheduler, {});
    SlurmBridge bridge(cluster, *built.scheduler, slurm, {});
    const CycleReport report = bridge.cycle(lab_now());
    EXPECT_EQ(report.started, 1u) << scheduler << report.json();
    ASSERT_EQ(pinned_starts(slurm.commands).size(), 1u) << scheduler;
    EXPECT_EQ(pinned_starts(slurm.commands)[0].nodes.size(), 4u) << scheduler;
  }
  // Moved out and back with n2 drained: a three-node job has n1, n3 and n4 only while n4
  // is in the partition. No scheduler may keep planning on what it saw before.
  std::string without_n4 = partitions;
  without_n4.replace(without_n4.find("Nodes=n[1-8]"), 12, "Nodes=n[1-3]");
  std::string n2_drained = text::read_text_file(kData + "nodes.txt");
  for (const std::string state : {"State=IDLE+RESERVED", "State=DOWN"})
    n2_drained.replace(n2_drained.find(state), state.size(), "State=IDLE");
  for (const std::string scheduler : {"backfill", "fifo+ff", "aucsched2"}) {
    FakeSlurm slurm;
    slurm.table = only_jobs({14, 15});
    slurm.partitions = partitions;
    slurm.nodes = text::read_text_file(kData + "nodes.txt");  // only n1 usable: nothing starts
    slurm.set_field("15", "NumNodes", "3-3");
    slurm.set_field("15", "NumCPUs", "6");
    slurm.set_field("15", "NumTasks", "6");
    BuiltScheduler built = make_scheduler(scheduler, {});
    SlurmBridge bridge(cluster, *built.scheduler, slurm, {});
    EXPECT_EQ(bridge.cycle(lab_now()).started, 0u) << scheduler;
    slurm.nodes = n2_drained;
    slurm.partitions = without_n4;
    const CycleReport out = bridge.cycle(lab_now() + 1);
    EXPECT_EQ(out.started, 0u) << scheduler << out.json();
    EXPECT_EQ(out.proposals_refused, 0u) << scheduler;
    slurm.partitions = partitions;
    EXPECT_EQ(bridge.cycle(lab_now() + 2).started, 1u) << scheduler;
    ASSERT_EQ(pinned_starts(slurm.commands).size(), 1u) << scheduler;
    EXPECT_EQ(pinned_starts(slurm.commands)[0].nodes, (std::vector<std::string>{"n1", "n3", "n4"})) << scheduler;
  }
}

// MaxCPUsPerNode caps what the partition's jobs together use on a node, whatever else is
// free there (seen on a lab: a 1-CPU job stayed pending, Reason=Resources, on a node with 4
// CPUs free while the partition's jobs held 12 of its 12). n1 is the one usable node; job 14
// runs there on 6 of its 8 CPUs, and job 15 asks 2 on one node.
TEST(JobLifecycle, MaxCPUsPerNodeCapsThePartitionsJobsTogether) {
  const std::string captured = text::read_text_file(kData + "partitions.txt");
  const auto lab_with = [&](const std::string& max_cpus) {
    std::string text = captured;
    text.replace(text.find("MaxCPUsPerNode=UNLIMITED"), 24, "MaxCPUsPerNode=" + max_cpus);
    return text;
  };
  const std::string nodes = text::read_text_file(kData + "nodes.txt");
  ASSERT_EQ(parse_scontrol_partitions(lab_with("7"), "p").front().max_cpus_per_node, 7);
  ASSERT_EQ(parse_scontrol_partitions(captured, "p").front().max_cpus_per_node, 0);
  EXPECT_THROW(parse_scontrol_partitions(lab_with("-1"), "p"), InputError);
  struct Case {
    std::string max_cpus, job14_partition;
    std::size_t started;
  };
  const std::vector<Case> cases = {Case{"UNLIMITED", "lab", 1}, Case{"7", "lab", 0}, Case{"8", "lab", 1},
                                   Case{"7", "debug", 1}, Case{"1", "debug", 0}};
  // Job 15 asks 2 CPUs on one node; job 14 runs in the case's partition.
  const auto cycle_of = [&](LiveBridge& run, const Case& c) {
    run.slurm.nodes = nodes;
    run.slurm.partitions = lab_with(c.max_cpus);
    run.slurm.set_field("14", "Partition", c.job14_partition);
    run.slurm.set_field("15", "NumNodes", "1-1");
    run.slurm.set_field("15", "NumCPUs", "2");
    run.slurm.set_field("15", "NumTasks", "2");
    return run.bridge.cycle(lab_now());
  };
  for (const Case& c : cases) {
    BridgeOptions options;
    options.partition = "lab";
    LiveBridge run({14, 15}, options);
    const CycleReport report = cycle_of(run, c);
    EXPECT_EQ(report.started, c.started) << c.max_cpus << " " << c.job14_partition << report.json();
    EXPECT_EQ(job_line(run.slurm, 15).comment.find("never runnable"), std::string::npos);
  }
  // A bridge managing every partition plans on what is free; each start is checked against
  // every listed cap (before session 57 caps were not applied there at all, and job 15 was
  // released onto the CPUs the cap keeps from lab's jobs). Two jobs of one cycle count together.
  for (const Case& c : cases) {
    LiveBridge run({14, 15}, {}, "fifo+ff");
    const CycleReport report = cycle_of(run, c);
    EXPECT_EQ(report.started, c.started) << "every partition " << c.max_cpus << " " << c.job14_partition << report.json();
    EXPECT_EQ(report.proposals_refused, 1 - c.started) << report.json();
    if (c.started == 0) {
      bool said = false;
      for (const std::string& line : report.log)
        said = said || line.find("job 15: proposal refused: above partition lab's MaxCPUsPerNode " + c.max_cpus + " on n1") !=
                           std::string::npos;
      EXPECT_TRUE(said) << report.json();
    }
  }
  for (const auto& [max_cpus, started] : {std::pair{"6", 2u}, std::pair{"5", 1u}}) {
    LiveBridge run({14, 15, 17}, {}, "fifo+ff");  // job 14 (debug) holds 6 of n1's 8 CPUs
    run.slurm.partitions = lab_with(max_cpus);
    run.slurm.set_field("14", "Partition", "debug");
    for (const std::string id : {"15", "17"}) {  // first fit: both on n2, 3 + 3 CPUs of lab
      run.slurm.set_field(id, "NumNodes", "1-1");
      run.slurm.set_field(id, "NumCPUs", "3");
      run.slurm.set_field(id, "NumTasks", "3");
    }
    const CycleReport report = run.bridge.cycle(lab_now());
    EXPECT_EQ(report.started, started) << max_cpus << report.json();
  }
}

// Under CR_Core a node of ThreadsPerCore=2 gives a job whole cores: 3 CPUs asked hold 4 (seen
// on the lab). The bridge counts what Slurm will hold, so that the next plan on that node does
// not count on a CPU that is taken.
TEST(JobLifecycle, WholeCoresAreCountedWhereANodeHasTwoThreadsPerCore) {
  const std::string captured = text::read_text_file(kData + "nodes.txt");
  ASSERT_EQ(parse_scontrol_nodes(captured, "n").front().cpus_per_core, 1);
  // The lab's nodes as 2 sockets x 2 cores x 2 threads: the same 8 CPUs.
  std::string nodes = captured;
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"CoresPerSocket=4", "CoresPerSocket=2"},
                                 {"ThreadsPerCore=1", "ThreadsPerCore=2"}})
    for (std::size_t at = nodes.find(from); at != std::string::npos; at = nodes.find(from, at))
      nodes.replace(at, from.size(), to);
  ASSERT_EQ(parse_scontrol_nodes(nodes, "n").front().cpus_per_core, 2);
  for (const bool whole_cores : {false, true}) {
    BridgeOptions options;
    options.whole_cores = whole_cores;
    LiveBridge run({15}, options);
    run.slurm.nodes = nodes;  // n1 is the one usable node
    run.slurm.set_field("15", "NumNodes", "1-1");
    run.slurm.set_field("15", "NumCPUs", "3");
    run.slurm.set_field("15", "NumTasks", "3");
    const CycleReport report = run.bridge.cycle(lab_now());
    ASSERT_EQ(report.started, 1u) << report.json();
    const std::string expected = whole_cores ? "job 15: started on n1:4c" : "job 15: started on n1:3c";
    EXPECT_NE(std::find(report.log.begin(), report.log.end(), expected), report.log.end()) << whole_cores;
  }
  EXPECT_THROW(parse_scontrol_nodes("NodeName=n1 State=IDLE CPUTot=0\n", "n"), InputError);
  // Where slurm.conf's CPUs= counts cores, a CPU is a core: nothing to round.
  EXPECT_EQ(parse_scontrol_nodes("NodeName=n1 State=IDLE CPUTot=8 Sockets=2 Boards=1 CoresPerSocket=4 ThreadsPerCore=2\n", "n")
                .front().cpus_per_core, 1);
}

// A partition closed after a release: the job is held again after the grace, without the
// pause a release Slurm refused for the job's own sake gets.
TEST(JobLifecycle, AReleaseCaughtByAClosedPartitionGetsNoPause) {
  BridgeOptions options;
  options.partition = "lab";
  options.start_grace = 8;
  LiveBridge run({14, 15}, options);
  for (int round = 0; round < 2; ++round) {
    const Time t = lab_now() + round * 20;
    ASSERT_EQ(run.bridge.cycle(t).started, 1u) << round;
    run.slurm.set_field("15", "Reason", "PartitionDown");
    EXPECT_EQ(run.bridge.cycle(t + 10).reheld, 1u) << round;
  }
  EXPECT_EQ(run.bridge.cycle(lab_now() + 40).started, 1u);  // no pause after two in a row
}

// Regression (live fault matrix): the reason is shown in the Comment, the user's own
// comment kept behind it, and a wrapped gpu range still counts: the job must not become
// runnable because its directive was moved.
TEST(JobLifecycle, ARefusalReasonIsVisibleInTheCommentAndTheUsersCommentKept) {
  LiveBridge run({14, 16});
  run.slurm.set_field("16", "Comment", "hetsched:gpu=3-1");
  EXPECT_EQ(run.bridge.cycle(lab_now()).refused, 1u);
  const std::string shown = job_line(run.slurm, 16).comment;
  EXPECT_EQ(shown.rfind("[hetsched] never runnable: comment", 0), 0u) << shown;
  EXPECT_NE(shown.find(" | was: hetsched:gpu%3D3-1"), std::string::npos) << shown;
  const CycleReport again = run.bridge.cycle(lab_now() + 1);
  EXPECT_EQ(again.refused, 1u);
  EXPECT_EQ(again.started, 0u);
  LiveBridge wide({14, 16});
  wide.slurm.set_field("16", "Comment", "hetsched:gpu=3-3");  // more GPUs than a node has
  EXPECT_EQ(wide.bridge.cycle(lab_now()).refused, 1u);
  EXPECT_NE(job_line(wide.slurm, 16).comment.find(" | was: hetsched:gpu%3D3-3"), std::string::npos);
  const CycleReport next = wide.bridge.cycle(lab_now() + 1);
  EXPECT_EQ(next.refused, 1u);
  EXPECT_EQ(next.started, 0u);
  // Fixed by its user: queued again with the own comment back, its range honoured.
  wide.slurm.set_field("16", "Comment", job_line(wide.slurm, 16).comment);
  wide.slurm.set_field("16", "TresPerNode", "gres:gpu:1");
  std::string fixed = job_line(wide.slurm, 16).comment;
  fixed.replace(fixed.find("gpu%3D3-3"), 9, "gpu%3D1-2");
  wide.slurm.set_field("16", "Comment", fixed);
  const CycleReport fixed_cycle = wide.bridge.cycle(lab_now() + 2);
  EXPECT_EQ(fixed_cycle.refused, 0u);
  EXPECT_EQ(fixed_cycle.started, 1u);
  EXPECT_EQ(job_line(wide.slurm, 16).comment, "hetsched:gpu=1-2");
}

TEST(JobLifecycle, AChangedRequestReopensARefusal) {
  LiveBridge run({14, 17});
  EXPECT_EQ(run.bridge.cycle(lab_now()).refused, 1u);
  EXPECT_EQ(job_line(run.slurm, 17).comment.rfind("[hetsched] never runnable:", 0), 0u);
  run.slurm.set_field("17", "NumCPUs", "8");
  run.slurm.set_field("17", "NumTasks", "8");
  run.slurm.set_field("17", "NumNodes", "1");
  run.slurm.set_field("17", "TimeLimit", "00:10:00");
  run.slurm.commands.clear();
  const CycleReport report = run.bridge.cycle(lab_now() + 5);
  EXPECT_EQ(report.refused, 0u);
  EXPECT_EQ(report.started, 1u);
  EXPECT_EQ(job_line(run.slurm, 17).comment, "");  // cleared
}

TEST(JobLifecycle, StoppingHandsReleasedJobsBack) {
  LiveBridge run({14, 15, 16});
  ASSERT_EQ(run.bridge.cycle(lab_now()).started, 2u);
  const CycleReport report = run.bridge.hand_back(lab_now() + 1);
  EXPECT_EQ(report.reheld, 2u);
  for (std::int64_t id : {15, 16}) {
    const LiveJob j = job_line(run.slurm, id);
    EXPECT_TRUE(j.held_by_user()) << id;
    EXPECT_TRUE(j.req_nodes.empty()) << id;
  }
}

TEST(JobLifecycle, AnUnreachableControllerIsAnExceptionTheLoopWaitsOut) {
  LiveBridge run({14, 15});
  run.slurm.down = true;
  EXPECT_THROW(run.bridge.cycle(lab_now()), SlurmUnavailable);
  run.slurm.down = false;
  EXPECT_EQ(run.bridge.cycle(lab_now() + 30).started, 1u);
}

TEST(ShadowMode, PredictsWithoutTouchingSlurmAndComparesWithRealStarts) {
  BridgeOptions shadow;
  shadow.shadow = true;
  LiveBridge run({14, 15, 16}, shadow);
  run.slurm.set_field("15", "Reason", "Resources");  // not held: Slurm's own
  run.slurm.set_field("15", "Priority", "100");
  const CycleReport report = run.bridge.cycle(lab_now());
  EXPECT_TRUE(run.slurm.commands.empty());
  EXPECT_EQ(report.started, 0u);
  EXPECT_EQ(report.predicted, 2u);
  ASSERT_EQ(run.bridge.predictions().size(), 2u);
  // Slurm starts job 15 on n3 and n4 a minute later.
  std::string running = only_jobs({14});
  running.replace(0, 8, "JobId=15");
  running.replace(running.find("Nodes=n1 "), 9, "Nodes=n[3-4] ");
  running.replace(running.find("StartTime=2026-11-22T10:22:00"), 29, "StartTime=2026-11-22T10:23:10");
  run.slurm.table = only_jobs({14, 16}) + running;
  run.bridge.cycle(lab_now() + 60);
  const ShadowPrediction& p = run.bridge.predictions().at(15);
  EXPECT_EQ(p.actual_start, lab_now() + 60);
  EXPECT_EQ(p.actual_nodes, (std::vector<std::string>{"n3", "n4"}));
  const std::string text = shadow_report(run.bridge.predictions(), "aucsched2");
  EXPECT_NE(text.find("started by Slurm since: 1 (1 not yet)"), std::string::npos) << text;
  EXPECT_NE(text.find("| 15 | " + std::to_string(lab_now())), std::string::npos) << text;
}

TEST(BridgeLock, ASecondBridgeOnThePartitionIsRefused) {
  const std::string path = testing::TempDir() + "/hetsched-lock-test.lock";
  BridgeLock first(path);
  try {
    BridgeLock second(path);
    FAIL() << "second lock taken";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("another bridge (pid " + std::to_string(getpid())), std::string::npos)
        << e.what();
  }
  EXPECT_NE(default_lock_path("lab", "").find("hetsched-bridge-lab-all.lock"), std::string::npos);
}

TEST(BridgeStatus, SaysWhatIsHeldInFlightAndWhy) {
  LiveBridge run({14, 15, 16, 17});
  run.bridge.cycle(lab_now());
  SlurmView view;
  view.jobs = parse_scontrol_jobs(run.slurm.table, "fake");
  view.nodes = parse_scontrol_nodes(text::read_text_file(kData + "nodes.txt"), "nodes");
  const std::string text = status_text(view, "", lab_now() + 40, 30);
  EXPECT_NE(text.find("queued 1, released 2"), std::string::npos) << text;
  EXPECT_NE(text.find("past the grace"), std::string::npos) << text;
  EXPECT_NE(text.find("17  queued  never runnable:"), std::string::npos) << text;
  EXPECT_NE(text.find("n2 (drain)"), std::string::npos) << text;
}

TEST(CycleReport, OneJsonObjectPerCycle) {
  CycleReport r;
  r.now = 7;
  r.started = 2;
  const std::string json = r.json();
  EXPECT_EQ(json.front(), '{');
  EXPECT_EQ(json.back(), '}');
  EXPECT_NE(json.find("\"time\":7"), std::string::npos);
  EXPECT_NE(json.find("\"started\":2"), std::string::npos);
  EXPECT_EQ(json.find('\n'), std::string::npos);
}

}  // namespace
}  // namespace hs::bridge
