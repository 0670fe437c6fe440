#include <gtest/gtest.h>

#include <algorithm>

#include "solver/mip_model.hpp"
#include "solver/solvers.hpp"
#include "util/error.hpp"
#include "window_builders.hpp"

namespace hs::solver {
namespace {

TEST(SolverFactory, KnowsItsSolversByName) {
  const std::vector<std::string> names = window_solver_names();
  EXPECT_EQ(names.front(), kDefaultWindowSolver);
  for (const std::string& name : names) EXPECT_EQ(make_window_solver(name)->name(), name);
  EXPECT_EQ(std::count(names.begin(), names.end(), "cbc"), cbc_available() ? 1 : 0);
}

TEST(SolverFactory, EverySolverHasASummaryForTheListing) {
  for (const std::string& name : window_solver_names())
    EXPECT_FALSE(window_solver_summary(name).empty()) << name;
  EXPECT_TRUE(window_solver_summary("simplex").empty());
}

TEST(SolverFactory, UnknownNameIsAnInputErrorListingKnownNames) {
  try {
    make_window_solver("simplex");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "solver");
    EXPECT_EQ(e.value(), "simplex");
    EXPECT_NE(e.problem().find("lagrangian"), std::string::npos);
  }
}

TEST(SolverFactory, MalformedProblemIsACallError) {
  WindowProblem p = testing::uniform_problem(1, 2, {4});
  testing::add_bid(p, 0, 1.0, {1, 0}, {1});  // uses not ascending
  WindowProblem bad_job = testing::uniform_problem(1, 2, {4});
  testing::add_bid(bad_job, 3, 1.0, {0}, {1});
  WindowProblem bad_value = testing::uniform_problem(1, 2, {4});
  testing::add_bid(bad_value, 0, -1.0, {0}, {1});
  for (const std::string& name : window_solver_names())
    for (const WindowProblem* problem : {&p, &bad_job, &bad_value}) {
      const SolveResult r = make_window_solver(name)->solve(*problem, SolverOptions{});
      EXPECT_EQ(r.call, CallStatus::Error) << name;
      EXPECT_EQ(r.status, SolveStatus::Error) << name;
      EXPECT_NE(r.message.find("bids[0]"), std::string::npos) << name << ": " << r.message;
    }
}

TEST(SolverFactory, ExhaustiveRefusesLargeWindows) {
  WindowProblem p = testing::uniform_problem(100, 1, {4});
  const SolveResult r = make_window_solver("exhaustive")->solve(p, SolverOptions{});
  EXPECT_EQ(r.call, CallStatus::Error);
}

}  // namespace
}  // namespace hs::solver
