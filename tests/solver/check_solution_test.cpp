#include <gtest/gtest.h>

#include "solver/window_problem.hpp"
#include "window_builders.hpp"

namespace hs::solver {
namespace {

using testing::add_bid;
using testing::uniform_problem;

class CheckSolutionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    problem_ = uniform_problem(2, 2, {4, 1});  // 2 nodes x (4 cores, 1 GPU)
    add_bid(problem_, 0, 10.0, {0}, {4, 0});     // bid 0: job 0 fills node 0's cores
    add_bid(problem_, 0, 9.0, {1}, {2, 1});      // bid 1
    add_bid(problem_, 1, 5.0, {0, 1}, {1, 1});   // bid 2: one core + GPU on both nodes
    add_bid(problem_, 1, 4.0, {1}, {2, 0});      // bid 3
  }
  WindowProblem problem_;
};

TEST_F(CheckSolutionTest, AcceptsFeasibleSolutions) {
  EXPECT_FALSE(check_solution(problem_, {{-1, -1}, 0.0}));
  EXPECT_FALSE(check_solution(problem_, {{0, 3}, 14.0}));
  EXPECT_FALSE(check_solution(problem_, {{1, -1}, 9.0}));
}

TEST_F(CheckSolutionTest, RejectsWrongLength) {
  auto defect = check_solution(problem_, {{0}, 10.0});
  ASSERT_TRUE(defect);
  EXPECT_NE(defect->find("entries"), std::string::npos) << *defect;
}

TEST_F(CheckSolutionTest, RejectsBidIndexOutOfRange) {
  EXPECT_TRUE(check_solution(problem_, {{7, -1}, 0.0}));
  EXPECT_TRUE(check_solution(problem_, {{-2, -1}, 0.0}));
}

TEST_F(CheckSolutionTest, RejectsBidOfAnotherJob) {
  auto defect = check_solution(problem_, {{2, -1}, 5.0});
  ASSERT_TRUE(defect);
  EXPECT_NE(defect->find("belongs to job 1"), std::string::npos) << *defect;
}

TEST_F(CheckSolutionTest, RejectsCoreOverCapacity) {
  auto defect = check_solution(problem_, {{0, 2}, 15.0});  // node 0: 4 + 1 cores > 4
  ASSERT_TRUE(defect);
  EXPECT_NE(defect->find("node 0 dimension 0"), std::string::npos) << *defect;
}

TEST_F(CheckSolutionTest, RejectsGpuOverCapacity) {
  auto defect = check_solution(problem_, {{1, 2}, 14.0});  // node 1: 2 GPUs > 1
  ASSERT_TRUE(defect);
  EXPECT_NE(defect->find("node 1 dimension 1"), std::string::npos) << *defect;
}

TEST_F(CheckSolutionTest, RejectsWrongObjective) {
  auto defect = check_solution(problem_, {{0, 3}, 15.0});
  ASSERT_TRUE(defect);
  EXPECT_NE(defect->find("objective"), std::string::npos) << *defect;
}

TEST_F(CheckSolutionTest, RejectsWrongObjectiveOnTinyValues) {
  for (Bid& bid : problem_.bids) bid.value *= 1e-12;
  EXPECT_FALSE(check_solution(problem_, {{0, 3}, 14e-12}));
  auto defect = check_solution(problem_, {{0, 3}, 28e-12});  // twice the won bids' sum
  ASSERT_TRUE(defect);
  EXPECT_NE(defect->find("objective"), std::string::npos) << *defect;
}

TEST_F(CheckSolutionTest, RejectsMalformedProblem) {
  problem_.capacity.pop_back();
  EXPECT_TRUE(check_solution(problem_, {{-1, -1}, 0.0}));
}

}  // namespace
}  // namespace hs::solver
