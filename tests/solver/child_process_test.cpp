#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <csignal>
#include <stdexcept>

#include "solver/child_process.hpp"
#include "solver/mip_result_codec.hpp"

namespace hs::solver {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TEST(ChildProcess, ReturnsTheWorksBytes) {
  const ChildOutcome outcome = run_in_child([] { return std::string("hello\0world", 11); }, 5.0);
  ASSERT_EQ(outcome.kind, ChildOutcome::Kind::Completed) << outcome.message;
  EXPECT_EQ(outcome.payload, std::string("hello\0world", 11));
}

TEST(ChildProcess, LargePayloadArrivesWhole) {
  std::string big(3 << 20, 'x');
  for (std::size_t i = 0; i < big.size(); i += 4097) big[i] = static_cast<char>(i % 251);
  const ChildOutcome outcome = run_in_child([&big] { return big; }, 10.0);
  ASSERT_EQ(outcome.kind, ChildOutcome::Kind::Completed) << outcome.message;
  EXPECT_EQ(outcome.payload, big);
}

// The child dies of SIGSEGV as a crashing solver would. The default action is restored
// first: under AddressSanitizer its own SEGV handler would otherwise catch the signal and
// exit with status 1 (issue 22), which is a different outcome.
TEST(ChildProcess, CrashBecomesAnOutcome) {
  const ChildOutcome outcome = run_in_child(
      []() -> std::string {
        std::signal(SIGSEGV, SIG_DFL);
        std::raise(SIGSEGV);
        return "unreachable";
      },
      5.0);
  EXPECT_EQ(outcome.kind, ChildOutcome::Kind::Crashed);
  EXPECT_NE(outcome.message.find("signal " + std::to_string(SIGSEGV)), std::string::npos)
      << outcome.message;
}

TEST(ChildProcess, ExceptionInChildIsACrash) {
  const ChildOutcome outcome = run_in_child(
      []() -> std::string { throw std::runtime_error("boom"); }, 5.0);
  EXPECT_EQ(outcome.kind, ChildOutcome::Kind::Crashed);
}

TEST(ChildProcess, HangingChildIsKilledAtTheHardLimit) {
  const auto start = std::chrono::steady_clock::now();
  const ChildOutcome outcome = run_in_child(
      []() -> std::string {
        for (;;) ::pause();
      },
      0.3);
  EXPECT_EQ(outcome.kind, ChildOutcome::Kind::Killed);
  EXPECT_LT(seconds_since(start), 3.0);
}

TEST(ChildProcess, ChildThatClosesWithoutPayloadIsACrash) {
  const ChildOutcome outcome = run_in_child([]() -> std::string { ::_exit(0); }, 5.0);
  EXPECT_EQ(outcome.kind, ChildOutcome::Kind::Crashed);
  EXPECT_NE(outcome.message.find("incomplete"), std::string::npos) << outcome.message;
}

TEST(MipResultCodec, RoundTripsAndRejectsTruncation) {
  MipResult r;
  r.status = SolveStatus::Feasible;
  r.values = {0.0, 1.0, 2.5};
  r.objective = 3.5;
  r.bound = 4.0;
  r.gap = 0.125;
  r.message = "note";
  const std::string bytes = encode_mip_result(r);
  const auto back = decode_mip_result(bytes);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->status, SolveStatus::Feasible);
  EXPECT_EQ(back->values, r.values);
  EXPECT_EQ(back->bound, 4.0);
  EXPECT_EQ(back->message, "note");
  for (std::size_t cut : {std::size_t{0}, std::size_t{5}, bytes.size() - 1})
    EXPECT_FALSE(decode_mip_result(bytes.substr(0, cut))) << cut;
  EXPECT_FALSE(decode_mip_result(bytes + "x"));
}

}  // namespace
}  // namespace hs::solver
