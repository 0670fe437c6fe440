#include "sim/decision_check.hpp"

#include <gtest/gtest.h>

#include "sim_fixtures.hpp"

namespace hs {
namespace {

using testing::make_cluster;
using testing::make_job;

// Two nodes of 4 cores; jobs 1 and 2 want 4 cores, job 3 wants 2; all pending at t=10.
struct Pass {
  Cluster cluster = make_cluster(2, 4, 0);
  Workload workload;
  ClusterState free{cluster};
  std::vector<JobRef> pending{0, 1, 2};
  SystemView view;
  Pass() {
    workload.jobs = {make_job(1, 0, 4, 10, 10), make_job(2, 0, 4, 10, 10), make_job(3, 0, 2, 10, 10)};
    view.now = 10;
    view.cluster = &cluster;
    view.workload = &workload;
    view.free = &free;
    view.pending = pending;
  }
  std::string problem(const Decisions& d) const {
    auto p = decision_problem(view, d);
    return p ? p->what : "";
  }
};

Allocation on(NodeIndex node, std::int32_t cores) { return Allocation{{NodeShare{node, cores, {}, 0}}}; }

TEST(DecisionCheck, AcceptsStartsThatFitTogether) {
  const Pass pass;
  Decisions d;
  d.starts = {{0, on(0, 4)}, {1, on(1, 4)}};
  d.rejections = {{2, "too big"}};
  d.wake_at = 11;
  EXPECT_EQ(pass.problem(d), "");
}

TEST(DecisionCheck, RefusesStartsThatTogetherExceedWhatIsFree) {
  const Pass pass;
  Decisions d;
  d.starts = {{0, on(0, 4)}, {2, on(0, 2)}};
  const auto p = decision_problem(pass.view, d);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->job, 2);
  EXPECT_NE(p->what.find("job 3: allocation exceeds free resources (asks 2 cores on"), std::string::npos) << p->what;
}

TEST(DecisionCheck, RefusesAnAllocationThatBreaksTheRequest) {
  const Pass pass;
  Decisions d;
  d.starts = {{0, on(0, 3)}};
  EXPECT_NE(pass.problem(d).find("job 1: allocation violates the request"), std::string::npos);
}

TEST(DecisionCheck, RefusesJobsNotPendingOrNamedTwice) {
  const Pass pass;
  Decisions unknown;
  unknown.starts = {{7, on(0, 4)}};
  EXPECT_NE(pass.problem(unknown).find("job ref 7: started but not pending"), std::string::npos);
  Decisions twice;
  twice.starts = {{0, on(0, 4)}};
  twice.rejections = {{0, "changed my mind"}};
  EXPECT_NE(pass.problem(twice).find("job 1: rejected but not pending (or named twice)"), std::string::npos);
}

TEST(DecisionCheck, RefusesAWakeUpThatIsNotLater) {
  const Pass pass;
  Decisions d;
  d.wake_at = 10;
  EXPECT_NE(pass.problem(d).find("wake_at 10 is not after now 10"), std::string::npos);
}

}  // namespace
}  // namespace hs
