#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "io/builtin_clusters.hpp"
#include "policy/window/window_scheduler.hpp"
#include "solver/solvers.hpp"
#include "solver/window_lp.hpp"
#include "window_test_support.hpp"
#include "workload/registry.hpp"

namespace hs {
namespace {

struct PassReached {};  // thrown by the observer to end the replay at the pass wanted

// The problem of solver call `solve` in pass `pass` of a replay with the scheduler's
// defaults, as `hetsched simulate --dump-windows` saves it; the replay stops there.
solver::WindowProblem window_of_pass(const std::string& cluster_name, const std::string& workload_spec,
                                     const std::string& scheduler_name, std::int64_t pass, int solve) {
  Cluster cluster = *builtin_cluster(cluster_name);
  Workload workload = generate_workload(workload_spec, cluster, 1);
  bind_workload(cluster, workload);
  Params defaults;
  auto scheduler = make_window_scheduler(scheduler_name, defaults);
  std::optional<solver::WindowProblem> found;
  window::observe_solves(*scheduler, [&](const window::SolveRecord& r) {
    if (r.pass != pass || r.solve != solve) return;
    found = *r.problem;
    throw PassReached{};
  });
  try {
    simulate(cluster, workload, *scheduler, SimConfig{});
  } catch (const PassReached&) {
  }
  EXPECT_TRUE(found.has_value()) << "the replay never reached pass " << pass;
  return found.value_or(solver::WindowProblem{});
}

// Solves `window` with `exact` and expects a proof.
solver::SolveResult expect_proven(const solver::WindowProblem& window) {
  const solver::SolveResult r = solver::make_window_solver("exact")->solve(window, {});
  EXPECT_EQ(r.status, solver::SolveStatus::Optimal) << r.solution.objective << " within " << r.bound;
  return r;
}

// AUCSCHED-style values are a large constant per job plus a small tie-break: the question is
// how many jobs fit. These windows (first seen in session 36, from replays no earlier session
// had looked at) stopped at the effort cap because the job count row kept the cap the plain
// root LP allowed while the cuts, or a node's bounds, had lowered the LP's value below it.

// esp-het on paper1024 under AUCSCHED1, pass 944: 87 jobs, 155 bids, three start. The root's
// CGL cuts bring the LP to 3.25 jobs' worth; with the count row's cap lowered from 4 to 3 the
// root closes. Before: 32 M units (the cap) and a bound 6.6 % above the answer.
TEST(CapturedWindows, ACountCapLoweredByTheRootCutsClosesAnAucsched1Window) {
  if (!solver::clp_available()) GTEST_SKIP() << "built without COIN-OR CLP";
  const solver::WindowProblem window = window_of_pass("paper1024", "esp-het", "aucsched1", 944, 1);
  ASSERT_EQ(window.bids.size(), 155u) << "the replay changed: pick the window again";
  EXPECT_LE(expect_proven(window).effort, 2'500'000);  // the seed's 1.2 M (8,000 a bid) and a root of 0.5 M
}

// tree1024 under AUCSCHED3, pass 45: 278 bids of a hundred nodes or more over a tree
// topology, jobs of almost equal value. After the root the LP still fits a share of one job
// more than the answer starts; the cap lowered at each node from its own LP value proves it.
// Before: 32 M units (the cap) without a proof.
TEST(CapturedWindows, ACountCapLoweredAtEachNodeProvesAnAucsched3Window) {
  if (!solver::clp_available()) GTEST_SKIP() << "built without COIN-OR CLP";
  const solver::WindowProblem window = window_of_pass("tree1024", "tree1024", "aucsched3", 45, 1);
  ASSERT_EQ(window.bids.size(), 278u) << "the replay changed: pick the window again";
  expect_proven(window);
}

// tree1024 under AUCSCHED3, pass 364: 271 bids, three jobs start. The cover cuts of every
// node stayed in the LP and grew it from 303 rows at the root to 1,467, so every later pivot
// and separation cost more; with the tree's cuts held to as many rows as the root's LP has,
// it is proven (15 M units). Before: 34 M units (the cap) without a proof.
TEST(CapturedWindows, NodeCutsWithinBoundsProveAnAucsched3Window) {
  if (!solver::clp_available()) GTEST_SKIP() << "built without COIN-OR CLP";
  const solver::WindowProblem window = window_of_pass("tree1024", "tree1024", "aucsched3", 364, 1);
  ASSERT_EQ(window.bids.size(), 271u) << "the replay changed: pick the window again";
  expect_proven(window);
}

}  // namespace
}  // namespace hs
