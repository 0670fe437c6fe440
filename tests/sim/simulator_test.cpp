#include "sim/simulator.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>

#include "fcfs_first_fit.hpp"
#include "sim/bind.hpp"
#include "sim/invariant_checker.hpp"
#include "sim/moldable.hpp"
#include "sim_fixtures.hpp"

namespace hs {
namespace {

using testing::add_gpus;
using testing::FcfsFirstFit;
using testing::make_cluster;
using testing::make_job;

SimResult run_fcfs(const Cluster& c, const Workload& w, Time periodic = 0) {
  FcfsFirstFit s;
  SimConfig cfg;
  cfg.periodic_interval = periodic;
  return simulate(c, w, s, cfg);
}

TEST(Simulator, FcfsOrderAndEndRule) {
  const Cluster c = make_cluster(2, 4, 0);
  Workload w;
  w.jobs = {make_job(1, 0, 8, 100, 200), make_job(2, 10, 4, 50, 100),
            make_job(3, 20, 4, 30, 100)};
  const SimResult r = run_fcfs(c, w);
  EXPECT_EQ(r.records[0].start, 0);
  EXPECT_EQ(r.records[0].end, 100);
  // Job 2 and 3 both wait for job 1, then start together at 100.
  EXPECT_EQ(r.records[1].start, 100);
  EXPECT_EQ(r.records[2].start, 100);
  EXPECT_EQ(r.records[2].end, 130);
  EXPECT_EQ(r.records[0].status, JobStatus::Completed);
  EXPECT_EQ(r.makespan_end, 150);
  EXPECT_TRUE(check_run(c, w, r).ok());
}

TEST(Simulator, EndedIsAppliedBeforeSubmittedAtTheSameTime) {
  const Cluster c = make_cluster(1, 4, 0);
  Workload w;
  w.jobs = {make_job(1, 0, 4, 100, 100), make_job(2, 100, 4, 10, 100)};
  const SimResult r = run_fcfs(c, w);
  EXPECT_EQ(r.records[1].start, 100);  // the node is free in the pass at t = 100
}

TEST(Simulator, KilledAtTimeLimit) {
  const Cluster c = make_cluster(1, 4, 0);
  Workload w;
  w.jobs = {make_job(1, 0, 4, 500, 300), make_job(2, 0, 4, 300, 300)};
  const SimResult r = run_fcfs(c, w);
  EXPECT_EQ(r.records[0].status, JobStatus::Killed);
  EXPECT_EQ(r.records[0].end, 300);
  EXPECT_EQ(r.records[1].status, JobStatus::Completed);  // run == limit completes
  EXPECT_EQ(r.records[1].end, 600);
  EXPECT_TRUE(check_run(c, w, r).ok());
}

TEST(Simulator, AKillAfterTheLimitEndsAJobStillRunningThen) {
  // run_end: limit 60 s, started 400 ms into second 10, 100 ms of end latency.
  const Cluster c = make_cluster(1, 4, 0);
  Job over = make_job(1, 0, 1, 70, 60);  // runs past its limit
  Job exact = make_job(2, 0, 1, 60, 60);  // ends by itself 0.5 s into second 70
  const Allocation a{{NodeShare{0, 1, {}, 0}}};
  // By default a job past its limit ends at the limit (plus start_ms and latency).
  const RunEnd at_limit = run_end(over, a, 10, 400, 100);
  EXPECT_EQ(at_limit.end, 70);
  EXPECT_EQ(at_limit.end_ms, 500);
  EXPECT_TRUE(at_limit.killed);
  // Killed by a check 5.25 s after second 70 begins, before its own end at 80.5...
  const RunEnd checked = run_end(over, a, 10, 400, 100, 5250);
  EXPECT_EQ(checked.end, 75);
  EXPECT_EQ(checked.end_ms, 250);
  EXPECT_TRUE(checked.killed);
  // ... while a check 12.25 s after it comes too late.
  const RunEnd ran_out = run_end(over, a, 10, 400, 100, 12250);
  EXPECT_EQ(ran_out.end, 80);
  EXPECT_EQ(ran_out.end_ms, 500);
  EXPECT_FALSE(ran_out.killed);
  // A check 200 ms into second 70 kills the job that would end at 70.5 by itself...
  const RunEnd early = run_end(exact, a, 10, 400, 100, 200);
  EXPECT_EQ(early.end, 70);
  EXPECT_EQ(early.end_ms, 200);
  EXPECT_TRUE(early.killed);
  // ... and one at 70.9 finds it done.
  const RunEnd late = run_end(exact, a, 10, 400, 100, 900);
  EXPECT_EQ(late.end, 70);
  EXPECT_EQ(late.end_ms, 500);
  EXPECT_FALSE(late.killed);
}

TEST(Simulator, MoldableRuntimeScalesWithAllocatedGpus) {
  const Cluster c = make_cluster(1, 4, 3);
  // Ranged gpu 1-3 but the test scheduler gives the minimum: no scaling.
  Job a = make_job(1, 0, 1, 100, 1000);
  add_gpus(a, 1, 3);
  a.moldable_runtime = true;
  // A custom scheduler that hands out 3 GPUs to a 2-3 range job: ceil(100 * 2 / 3) = 67.
  Job b = make_job(2, 0, 1, 100, 1000);
  add_gpus(b, 2, 3);
  b.moldable_runtime = true;
  struct MaxGpus : Scheduler {
    std::string name() const override { return "max-gpus"; }
    Decisions decide(const SystemView& v, std::span<const Event>) override {
      Decisions d;
      for (JobRef j : v.pending) {
        const NodeFree& f = v.free->node(0);
        const std::int32_t g = std::min(f.gres[0], v.job(j).req.gres[0].per_node_max);
        if (f.cores < 1 || g < v.job(j).req.gres[0].per_node_min) continue;
        NodeShare s;
        s.node = 0;
        s.cores = 1;
        s.gres[0] = g;
        d.starts.push_back({j, Allocation{{s}}});
        break;
      }
      return d;
    }
  };
  Workload w;
  w.jobs = {b, a};
  MaxGpus s;
  const SimResult r = simulate(c, w, s, {});
  EXPECT_EQ(r.records[0].end, 67);
  EXPECT_EQ(r.records[1].start, 67);
  EXPECT_EQ(r.records[1].alloc.unpack().shares[0].gres[0], 3);
  EXPECT_EQ(r.records[1].end, 67 + 34);  // ceil(100 * 1 / 3)
  EXPECT_TRUE(check_run(c, w, r).ok());
}

TEST(Simulator, NeverRunnableJobsAreRejectedAtSubmission) {
  const Cluster c = make_cluster(2, 4, 1);
  Job big = make_job(1, 0, 9, 10, 10);
  Job gpus = make_job(2, 0, 1, 10, 10);
  add_gpus(gpus, 2, 2);
  Workload w;
  w.jobs = {big, gpus, make_job(3, 5, 4, 10, 10)};
  const SimResult r = run_fcfs(c, w);
  EXPECT_EQ(r.records[0].status, JobStatus::Rejected);
  EXPECT_NE(r.records[0].reason.find("cores"), std::string::npos);
  EXPECT_EQ(r.records[1].status, JobStatus::Rejected);
  EXPECT_EQ(r.records[2].status, JobStatus::Completed);
  EXPECT_EQ(r.rejected, 2);
  EXPECT_TRUE(check_run(c, w, r).ok());
}

TEST(Simulator, UnbindableJobsAreRejectedWithTheBindReason) {
  Cluster c = make_cluster(2, 4, 1);
  Job mic = make_job(1, 0, 1, 10, 10);
  mic.req.gres.push_back({"mic", -1, 1, 1});
  Job no_limit = make_job(2, 0, 1, 10, 0);
  Workload w;
  w.jobs = {mic, no_limit, make_job(3, 0, 1, 10, 10)};
  const BindReport report = bind_workload(c, w);
  ASSERT_EQ(report.rejected.size(), 2u);
  EXPECT_EQ(report.rejected[0].job, 0);
  EXPECT_EQ(report.rejected[0].reason, "unknown gres type 'mic'");
  EXPECT_EQ(report.rejected[1].reason, "no time limit");
  const SimResult r = run_fcfs(c, w);
  EXPECT_EQ(r.records[0].reason, "unknown gres type 'mic'");
  EXPECT_EQ(r.records[1].reason, "no time limit");
  EXPECT_EQ(r.records[2].status, JobStatus::Completed);
}

// Starts nothing, ever.
struct Idle : Scheduler {
  std::string name() const override { return "idle"; }
  Decisions decide(const SystemView& v, std::span<const Event>) override {
    Decisions d;
    d.wake_at = v.now + 5;  // honoured only a bounded number of times once idle
    return d;
  }
};

TEST(Simulator, StallIsDetectedAndTerminates) {
  const Cluster c = make_cluster(1, 4, 0);
  Workload w;
  w.jobs = {make_job(1, 0, 1, 10, 10), make_job(2, 30, 1, 10, 10)};
  Idle s;
  SimConfig cfg;
  cfg.periodic_interval = 7;
  const SimResult r = simulate(c, w, s, cfg);
  EXPECT_EQ(r.stalled, 2);
  EXPECT_EQ(r.records[0].status, JobStatus::Stalled);
  EXPECT_FALSE(r.records[0].reason.empty());
  const CheckReport check = check_run(c, w, r);
  EXPECT_FALSE(check.ok());
  // Wake-ups and periodic passes ran between the two submissions.
  EXPECT_GT(r.passes, 3);
}

// Starts nothing for its first `refusals` passes (asking to be woken), then first-fits.
struct SlowStarter : Scheduler {
  int refusals;
  explicit SlowStarter(int r) : refusals(r) {}
  std::string name() const override { return "slow-starter"; }
  Decisions decide(const SystemView& v, std::span<const Event>) override {
    Decisions d;
    if (refusals-- > 0) {
      d.wake_at = v.now + 5;
      return d;
    }
    for (JobRef j : v.pending) {
      Allocation a;
      a.shares.push_back({0, v.job(j).req.ntasks, {}, 0});
      d.starts.push_back({j, a});
      break;
    }
    if (v.pending.size() > 1) d.wake_at = v.now + 5;
    return d;
  }
};

TEST(Simulator, RequestedRetriesOnAnIdleMachineAreHonouredButBounded) {
  const Cluster c = make_cluster(1, 4, 0);
  Workload w;
  w.jobs = {make_job(1, 0, 4, 10, 10)};
  SlowStarter patient(3);
  const SimResult ok = simulate(c, w, patient, SimConfig{});
  EXPECT_EQ(ok.stalled, 0);
  EXPECT_EQ(ok.records[0].start, 15);  // three refused passes at 0, 5, 10
  EXPECT_TRUE(check_run(c, w, ok).ok());

  SlowStarter stuck(1000000);
  const SimResult bad = simulate(c, w, stuck, SimConfig{});
  EXPECT_EQ(bad.stalled, 1);
  EXPECT_NE(bad.records[0].reason.find("idle machine"), std::string::npos);
  EXPECT_LT(bad.passes, 100);
}

TEST(Simulator, WakeAndPeriodicPassesRun) {
  const Cluster c = make_cluster(1, 4, 0);
  Workload w;
  w.jobs = {make_job(1, 0, 4, 100, 100), make_job(2, 1, 4, 10, 100)};
  const SimResult r = run_fcfs(c, w, 30);
  // Passes: t=0, 1, 30, 60, 90, 100 (end + periodic clock stops when the queue empties).
  ASSERT_EQ(r.queue.size(), 7u);
  EXPECT_EQ(r.queue[2].time, 30);
  EXPECT_EQ(r.queue[4].time, 90);
  EXPECT_EQ(r.queue[5].time, 100);
  EXPECT_EQ(r.queue[6].time, 110);
  EXPECT_EQ(r.records[1].start, 100);
}

struct Overbooker : Scheduler {
  std::string name() const override { return "overbooker"; }
  Decisions decide(const SystemView& v, std::span<const Event>) override {
    Decisions d;
    for (JobRef j : v.pending) {
      NodeShare s;
      s.node = 0;
      s.cores = v.job(j).req.ntasks;
      d.starts.push_back({j, Allocation{{s}}});
    }
    return d;
  }
};

TEST(Simulator, InvalidDecisionThrowsNamingSchedulerAndJob) {
  const Cluster c = make_cluster(1, 4, 0);
  Workload w;
  w.jobs = {make_job(41, 0, 3, 10, 10), make_job(42, 0, 3, 10, 10)};
  Overbooker s;
  try {
    simulate(c, w, s, {});
    FAIL() << "expected a logic_error";
  } catch (const std::logic_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("overbooker"), std::string::npos) << what;
    EXPECT_NE(what.find("job 42"), std::string::npos) << what;
    EXPECT_NE(what.find("free"), std::string::npos) << what;
  }
}

TEST(Simulator, AllocationBreakingTheRequestThrows) {
  const Cluster c = make_cluster(2, 4, 0);
  Workload w;
  Job j = make_job(7, 0, 3, 10, 10);
  j.req.ntasks_per_node = 2;  // never runnable: 3 is not a multiple of 2
  Job k = make_job(8, 0, 4, 10, 10);
  k.req.nodes_min = 2;  // -N 2, but Overbooker puts everything on node 0
  w.jobs = {j, k};
  Overbooker s;
  EXPECT_THROW(simulate(c, w, s, {}), std::logic_error);
}

// Rejects the head job (once per pass) and starts nothing in the same pass.
struct RejectHeadThenFcfs : Scheduler {
  std::string name() const override { return "reject-head"; }
  Decisions decide(const SystemView& v, std::span<const Event> e) override {
    Decisions d;
    if (!v.pending.empty() && v.job(v.pending.front()).id == 1) {
      d.rejections.push_back({v.pending.front(), ""});
      return d;
    }
    return fcfs.decide(v, e);
  }
  FcfsFirstFit fcfs;
};

TEST(Simulator, RejectionOnlyPassIsFollowedByAnotherPass) {
  const Cluster c = make_cluster(1, 4, 0);
  Workload w;
  w.jobs = {make_job(1, 0, 4, 10, 10), make_job(2, 0, 4, 10, 10)};
  RejectHeadThenFcfs s;
  const SimResult r = simulate(c, w, s, {});
  EXPECT_EQ(r.records[0].status, JobStatus::Rejected);
  EXPECT_EQ(r.records[0].reason, "rejected by reject-head");
  EXPECT_EQ(r.records[1].start, 0);  // second pass at t = 0
  EXPECT_EQ(r.stalled, 0);
}

struct StartsTwice : Scheduler {
  std::string name() const override { return "twice"; }
  Decisions decide(const SystemView& v, std::span<const Event>) override {
    Decisions d;
    if (v.pending.empty()) return d;
    NodeShare s;
    s.node = 0;
    s.cores = 1;
    d.starts.push_back({v.pending.front(), Allocation{{s}}});
    d.starts.push_back({v.pending.front(), Allocation{{s}}});
    return d;
  }
};

struct WakesNow : Scheduler {
  std::string name() const override { return "wakes-now"; }
  Decisions decide(const SystemView& v, std::span<const Event>) override {
    Decisions d;
    d.wake_at = v.now;
    return d;
  }
};

TEST(Simulator, DoubleStartAndBadWakeAreBugs) {
  const Cluster c = make_cluster(1, 4, 0);
  Workload w;
  w.jobs = {make_job(5, 0, 1, 10, 10)};
  StartsTwice twice;
  EXPECT_THROW(simulate(c, w, twice, {}), std::logic_error);
  WakesNow wakes;
  EXPECT_THROW(simulate(c, w, wakes, {}), std::logic_error);
}

std::string records_text(const SimResult& r) {
  std::ostringstream out;
  for (const auto& rec : r.records) {
    out << static_cast<int>(rec.status) << ',' << rec.start << ',' << rec.end;
    for (const auto& s : rec.alloc.unpack().shares) out << ',' << s.node << ':' << s.cores;
    out << '\n';
  }
  for (const auto& q : r.queue) out << q.time << ',' << q.pending << ',' << q.running << '\n';
  return out.str();
}

TEST(Simulator, DeterministicReplay) {
  const Cluster c = make_cluster(8, 8, 2);
  Workload w;
  for (int i = 0; i < 300; ++i) {
    Job j = make_job(i + 1, (i * 37) % 500 + i, 1 + (i * 13) % 40, 10 + (i * 71) % 400, 300);
    if (i % 3 == 0) add_gpus(j, 1, 1);
    w.jobs.push_back(j);
  }
  std::stable_sort(w.jobs.begin(), w.jobs.end(),
                   [](const Job& a, const Job& b) { return a.submit < b.submit; });
  const SimResult a = run_fcfs(c, w, 60);
  const SimResult b = run_fcfs(c, w, 60);
  EXPECT_EQ(records_text(a), records_text(b));
  EXPECT_TRUE(check_run(c, w, a).ok());
}

TEST(Simulator, ProgressIsReported) {
  const Cluster c = make_cluster(2, 4, 0);
  Workload w;
  for (int i = 0; i < 250; ++i) w.jobs.push_back(make_job(i + 1, i, 1, 5, 10));
  FcfsFirstFit s;
  SimConfig cfg;
  std::size_t calls = 0, last_done = 0;
  cfg.progress = [&](Time, std::size_t done, std::size_t total) {
    ++calls;
    last_done = done;
    EXPECT_EQ(total, 250u);
  };
  simulate(c, w, s, cfg);
  EXPECT_EQ(last_done, 250u);
  EXPECT_GE(calls, 100u);
  EXPECT_LE(calls, 130u);
}

}  // namespace
}  // namespace hs
