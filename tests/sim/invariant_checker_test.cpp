#include "sim/invariant_checker.hpp"

#include <gtest/gtest.h>

#include "fcfs_first_fit.hpp"
#include "model/request_fit.hpp"
#include "sim_fixtures.hpp"

namespace hs {
namespace {

using testing::make_cluster;
using testing::make_job;

struct Sound {
  Cluster cluster = make_cluster(2, 4, 1);
  Workload workload;
  SimResult result;
  Sound() {
    workload.jobs = {make_job(1, 0, 4, 100, 100), make_job(2, 0, 4, 50, 100),
                     make_job(3, 5, 2, 10, 100)};
    testing::FcfsFirstFit fcfs;
    result = simulate(cluster, workload, fcfs, {});
  }
  bool mentions(const std::string& text) const {
    for (const auto& v : check_run(cluster, workload, result).violations)
      if (v.find(text) != std::string::npos) return true;
    return false;
  }
};

// Records keep their allocations packed: a share is edited by unpacking and packing again.
template <class F>
void edit_share(JobRecord& rec, F&& edit) {
  Allocation alloc = rec.alloc.unpack();
  edit(alloc.shares.at(0));
  rec.alloc = alloc;
}

TEST(InvariantChecker, AcceptsASoundRun) {
  const Sound run;
  EXPECT_TRUE(check_run(run.cluster, run.workload, run.result).ok());
}

TEST(InvariantChecker, DetectsOverlappingUse) {
  Sound run;
  // Move job 3 onto node 0 while job 1 holds all of its cores.
  edit_share(run.result.records[2], [](NodeShare& s) { s.node = 0; });
  EXPECT_TRUE(run.mentions("node n1 over capacity"));
}

TEST(InvariantChecker, DetectsStartBeforeSubmitAndWrongEnd) {
  Sound run;
  run.result.records[2].start = 1;
  EXPECT_TRUE(run.mentions("before submit"));
  EXPECT_TRUE(run.mentions("expected 11"));
}

TEST(InvariantChecker, DetectsWrongStatusAndBadAllocation) {
  Sound run;
  run.result.records[0].status = JobStatus::Killed;
  edit_share(run.result.records[1], [](NodeShare& s) { s.cores = 3; });
  EXPECT_TRUE(run.mentions("should be Completed"));
  EXPECT_TRUE(run.mentions("allocation violates the request"));
}

TEST(InvariantChecker, DetectsUnaccountedJobs) {
  Sound run;
  run.result.records[1] = JobRecord{};  // Stalled by default
  run.result.records[2].status = JobStatus::Rejected;
  run.result.records[2].alloc = {};
  run.result.records[2].reason.clear();
  EXPECT_TRUE(run.mentions("stalled"));
  EXPECT_TRUE(run.mentions("rejected without a reason"));
  run.result.records.pop_back();
  EXPECT_TRUE(run.mentions("records for 3 jobs"));
}

// Overloads are found at the instant they begin and reported node by node; a job starting
// on cores another releases at the same instant is no overload.
TEST(InvariantChecker, ReportsEachOverloadedInstantNodeByNode) {
  const Cluster cluster = make_cluster(2, 4, 1);
  Workload workload;
  SimResult result;
  auto add = [&](std::int64_t id, NodeIndex node, std::int32_t cores, Time start, Time end) {
    workload.jobs.push_back(make_job(id, 0, cores, end - start, end - start));
    JobRecord rec;
    rec.status = JobStatus::Completed;
    rec.start = start;
    rec.end = end;
    rec.alloc = Allocation{{NodeShare{node, cores, {}, 0}}};
    result.records.push_back(rec);
  };
  add(1, 1, 4, 0, 100);
  add(2, 1, 2, 10, 20);    // n2 over from 10 to 20
  add(3, 0, 4, 0, 50);
  add(4, 0, 1, 30, 40);    // n1 over from 30 to 40
  add(5, 0, 1, 35, 36);    // and more at 35
  add(6, 1, 4, 100, 110);  // starts as job 1 ends
  std::vector<std::string> overloads;
  for (const auto& v : check_run(cluster, workload, result).violations)
    if (v.find("over capacity") != std::string::npos) overloads.push_back(v);
  EXPECT_EQ(overloads, (std::vector<std::string>{"node n1 over capacity at t=30 (5 cores used)",
                                                 "node n1 over capacity at t=35 (6 cores used)",
                                                 "node n1 over capacity at t=36 (5 cores used)",
                                                 "node n2 over capacity at t=10 (6 cores used)"}));
}

// Typed GRES: two a100 jobs on a node with one a100 and one other gpu fit the node's gpu
// count but not its a100 count; the checker audits every kind separately.
TEST(InvariantChecker, AuditsTypedGresKindsSeparately) {
  Cluster cluster = make_cluster(1, 4, 2);
  cluster.gres_types = {"gpu", "gpu:a100"};
  cluster.nodes[0].gres = {2, 1, 0, 0};
  Workload workload;
  workload.jobs = {make_job(1, 0, 1, 10, 100), make_job(2, 0, 1, 10, 100)};
  for (Job& j : workload.jobs) {
    j.req.gres.push_back({"gpu", 0, 1, 1, "a100", 1});
    ASSERT_FALSE(bind_to_cluster(cluster, j).has_value());
  }
  SimResult result;
  for (int i = 0; i < 2; ++i) {
    JobRecord rec;
    rec.status = JobStatus::Completed;
    rec.start = 0;
    rec.end = 10;
    rec.alloc = Allocation{{NodeShare{0, 1, {1, 1, 0, 0}, 0}}};
    result.records.push_back(rec);
  }
  auto violations = check_run(cluster, workload, result).violations;
  ASSERT_EQ(violations.size(), 1u) << ::testing::PrintToString(violations);
  EXPECT_NE(violations[0].find("over capacity"), std::string::npos);
  // The second job on the other (untyped) gpu: not what it asked for.
  edit_share(result.records[1], [](NodeShare& s) { s.gres = {1, 0, 0, 0}; });
  violations = check_run(cluster, workload, result).violations;
  ASSERT_EQ(violations.size(), 1u) << ::testing::PrintToString(violations);
  EXPECT_NE(violations[0].find("allocation violates the request"), std::string::npos);
  result.records[1].start = 10, result.records[1].end = 20;
  edit_share(result.records[1], [](NodeShare& s) { s.gres = {1, 1, 0, 0}; });
  EXPECT_TRUE(check_run(cluster, workload, result).ok());
}

}  // namespace
}  // namespace hs
