#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "io/builtin_clusters.hpp"
#include "policy/window/window_scheduler.hpp"
#include "solver/solvers.hpp"
#include "solver/window_lp.hpp"
#include "window_test_support.hpp"
#include "workload/registry.hpp"

namespace hs {
namespace {

// The window problems AUCSCHED2 solved while replaying 600 TSUBAME-like jobs on tsubame2
// (bench_captured_windows' "tsubame" case): bids spanning runs of equal nodes, rows of a
// hundred bids.
std::vector<solver::WindowProblem> tsubame_windows() {
  Cluster cluster = *builtin_cluster("tsubame2");
  Workload workload = generate_workload("tsubame:jobs=600", cluster, 1);
  bind_workload(cluster, workload);
  Params params = Params::parse("starvation=none", "<test>");
  auto scheduler = make_window_scheduler("aucsched2", params);
  std::vector<solver::WindowProblem> windows;
  dynamic_cast<window::WindowScheduler&>(*scheduler).observe_problems(
      [&windows](const solver::WindowProblem& p) { windows.push_back(p); });
  simulate(cluster, workload, *scheduler, SimConfig{});
  return windows;
}

// `exact` proves every window of 150 to 400 bids of that replay within its default effort.
// Before the tree branched on a spread job's leading bid, three of them (passes 21, 28 and
// 43) stopped at the cap with bounds 3–50 % above their answers.
TEST(CapturedWindows, ExactProvesEveryLargeWindowOfATsubameReplay) {
  if (!solver::clp_available()) GTEST_SKIP() << "built without COIN-OR CLP";
  std::vector<solver::WindowProblem> windows = tsubame_windows();
  std::erase_if(windows, [](const solver::WindowProblem& w) {
    return w.bids.size() < 150 || w.bids.size() > 400;
  });
  ASSERT_GE(windows.size(), 40u);
  const auto exact = solver::make_window_solver("exact");
  for (std::size_t k = 0; k < windows.size(); ++k) {
    const solver::SolveResult r = exact->solve(windows[k], {});
    EXPECT_EQ(r.status, solver::SolveStatus::Optimal)
        << "window " << k << " of " << windows[k].bids.size() << " bids: " << r.solution.objective
        << " within " << r.bound;
  }
}

}  // namespace
}  // namespace hs
