#include "sim/invariant_checker.hpp"

#include <gtest/gtest.h>

#include "fcfs_first_fit.hpp"
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

TEST(InvariantChecker, AcceptsASoundRun) {
  const Sound run;
  EXPECT_TRUE(check_run(run.cluster, run.workload, run.result).ok());
}

TEST(InvariantChecker, DetectsOverlappingUse) {
  Sound run;
  // Move job 3 onto node 0 while job 1 holds all of its cores.
  run.result.records[2].alloc.shares[0].node = 0;
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
  run.result.records[1].alloc.shares[0].cores = 3;
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

}  // namespace
}  // namespace hs
