#include <gtest/gtest.h>

#include <string>

#include "solver/solvers.hpp"
#include "solver/window_lp.hpp"
#include "window_file/window_file.hpp"

namespace hs {
namespace {

const std::string kWindows = std::string(HETSCHED_SOURCE_DIR) + "/tests/data/windows/";

// Pass 76,299 of the `eurora` month under AUCSCHED2 (`hetsched simulate --workload eurora
// --cluster eurora --scheduler aucsched2 --dump-windows DIR`): 200 jobs, 352 bids, 4 start.
// With the job count row the root LP is worth exactly 7 jobs, and CGL's first two rounds
// leave that value where it is while they reshape the LP's solution; the next 18 bring it to
// 4.8 jobs' worth and the lowered count cap closes the root. When the rounds stopped at the
// first flat one, the tree ran to its cap (34.8 M units) with its bound 50 % above the answer.
TEST(CapturedWindowFiles, RootCutsPastAPlateauProveAnEuroraWindow) {
  if (!solver::clp_available()) GTEST_SKIP() << "built without COIN-OR CLP";
  const window_file::WindowFile file = window_file::read_window_file(kWindows + "eurora-aucsched2-pass-076299.json");
  ASSERT_EQ(file.problem.bids.size(), 352u);
  const solver::SolveResult r = solver::make_window_solver("exact")->solve(file.problem, {});
  EXPECT_EQ(r.status, solver::SolveStatus::Optimal) << r.solution.objective << " within " << r.bound;
  EXPECT_LE(r.effort, 8'000'000);
}

}  // namespace
}  // namespace hs
