#include <gtest/gtest.h>

#include "policy/window/window_scheduler.hpp"
#include "solver/compact_problem.hpp"
#include "window_test_support.hpp"

namespace hs {
namespace {

using test::JobSpec;

Workload mixed_workload() {
  std::vector<JobSpec> specs;
  for (int i = 0; i < 12; ++i)
    specs.push_back(JobSpec{.ntasks = 4 + 3 * (i % 5), .gpus = i % 3 == 0 ? 1 : 0,
                            .submit = 10 * i, .run = 100 + 20 * (i % 4)});
  return test::make_workload(specs);
}

// The observer sees every window problem exactly once, each one well formed, and watching
// changes no decision.
TEST(ProblemObserver, SeesEverySolvedWindowWithoutChangingTheRun) {
  const Cluster cluster = test::uniform_cluster(8, 8, 2);
  Workload w = mixed_workload();
  bind_workload(cluster, w);
  Params params;
  auto watched = make_window_scheduler("aucsched2", params);
  std::vector<solver::WindowProblem> seen;
  dynamic_cast<window::WindowScheduler&>(*watched).observe_problems(
      [&seen](const solver::WindowProblem& p) { seen.push_back(p); });
  const SimResult with = simulate(cluster, w, *watched, SimConfig{});

  int solves = 0;
  for (const auto& pass : window::pass_stats(*watched)) solves += pass.solves;
  EXPECT_GT(solves, 0);
  EXPECT_EQ(static_cast<int>(seen.size()), solves);
  for (const auto& p : seen) {
    EXPECT_FALSE(solver::find_problem_defect(p).has_value());
    EXPECT_EQ(p.node_count, 8);
  }

  auto plain = make_window_scheduler("aucsched2", params);
  const SimResult without = simulate(cluster, w, *plain, SimConfig{});
  ASSERT_EQ(with.records.size(), without.records.size());
  for (std::size_t j = 0; j < with.records.size(); ++j) EXPECT_EQ(with.records[j].start, without.records[j].start);
}

}  // namespace
}  // namespace hs
