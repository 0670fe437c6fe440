// The window-file reader and writer: round trips, and bad input named by file, JSON path and
// value.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "solver/random_instances.hpp"
#include "util/error.hpp"
#include "window_file/window_file.hpp"

namespace hs::window_file {
namespace {

const std::string kExample = std::string(HETSCHED_SOURCE_DIR) + "/examples/windows/thesis-1.2.json";

std::string to_json(const WindowFile& file) {
  std::ostringstream out;
  write_window_json(out, file);
  return out.str();
}

void expect_same_problem(const solver::WindowProblem& a, const solver::WindowProblem& b) {
  ASSERT_EQ(a.job_count, b.job_count);
  ASSERT_EQ(a.node_count, b.node_count);
  ASSERT_EQ(a.dims, b.dims);
  ASSERT_EQ(a.capacity, b.capacity);
  ASSERT_EQ(a.bids.size(), b.bids.size());
  for (std::size_t i = 0; i < a.bids.size(); ++i) {
    EXPECT_EQ(a.bids[i].job, b.bids[i].job) << "bid " << i;
    EXPECT_EQ(a.bids[i].value, b.bids[i].value) << "bid " << i;  // bit-exact
    ASSERT_EQ(a.bids[i].uses.size(), b.bids[i].uses.size()) << "bid " << i;
    for (std::size_t u = 0; u < a.bids[i].uses.size(); ++u) {
      EXPECT_EQ(a.bids[i].uses[u].node, b.bids[i].uses[u].node);
      EXPECT_EQ(a.bids[i].uses[u].amount, b.bids[i].uses[u].amount);
    }
  }
}

// The error the reader gives for `text` (fails the test when it accepts it).
InputError error_of(const std::string& text) {
  try {
    parse_window_json(text, "w.json");
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "accepted: " << text;
  return InputError({"", 0}, "", "", "");
}

// A valid one-node, one-job window with `bids` spliced in as the bids array.
std::string small_window(const std::string& bids, const std::string& extra = "") {
  return R"({"format": "hetsched-window", "version": 1, "dimensions": ["cores", "gpu"],
             "nodes": [{"capacity": [8, 2]}, {"capacity": [8, 2]}], "jobs": [{}, {}],
             "bids": )" + bids + extra + "}";
}

TEST(WindowFile, ExampleReadsWithNamesAndCapacities) {
  const WindowFile file = read_window_file(kExample);
  EXPECT_EQ(file.problem.job_count, 3);
  EXPECT_EQ(file.problem.node_count, 4);
  EXPECT_EQ(file.problem.dims, 2);
  EXPECT_EQ(file.problem.cap(3, 1), 3);
  EXPECT_EQ(file.problem.bids.size(), 6u);
  EXPECT_EQ(file.problem.bids[1].uses.size(), 4u);
  EXPECT_EQ(file.problem.bids[5].uses[1].amount[1], 3);
  EXPECT_EQ(file.dimension_names, (std::vector<std::string>{"cores", "gpu"}));
  EXPECT_EQ(file.node_names.at(2), "n3");
  EXPECT_EQ(file.job_names.size(), 3u);
  EXPECT_FALSE(file.replay.has_value());
}

TEST(WindowFile, RandomWindowRoundTripsExactlyAndRewritesToTheSameBytes) {
  solver::RandomWindowSpec spec;
  spec.nodes = 64;
  spec.jobs = 30;
  spec.seed = 7;
  WindowFile file;
  file.problem = solver::make_random_window(spec);
  file.dimension_names = {"cores", "gpu"};
  ASSERT_GT(file.problem.bids.size(), 30u);
  const std::string text = to_json(file);
  const WindowFile back = parse_window_json(text, "mem");
  expect_same_problem(file.problem, back.problem);
  EXPECT_EQ(to_json(back), text);
}

TEST(WindowFile, ReplayRecordRoundTrips) {
  WindowFile file = read_window_file(kExample);
  file.replay = ReplayRecord{12, 4500, 2, "aucsched2", "lagrangian", 0, 0.0, 64, "optimal", 6.25, 6.5};
  const WindowFile back = parse_window_json(to_json(file), "mem");
  ASSERT_TRUE(back.replay.has_value());
  EXPECT_EQ(back.replay->pass, 12);
  EXPECT_EQ(back.replay->time, 4500);
  EXPECT_EQ(back.replay->solve, 2);
  EXPECT_EQ(back.replay->scheduler, "aucsched2");
  EXPECT_EQ(back.replay->enumerate_bids, 64);
  EXPECT_EQ(back.replay->status, "optimal");
  EXPECT_EQ(back.replay->objective, 6.25);
  EXPECT_EQ(back.replay->bound, 6.5);
  EXPECT_EQ(back.node_names, file.node_names);
  EXPECT_EQ(back.job_names, file.job_names);
}

// Files saved before session 18 have no enumerate_bids: the replay did not enumerate.
TEST(WindowFile, ReplayWithoutEnumerateBidsReadsAsOff) {
  WindowFile file = read_window_file(kExample);
  file.replay = ReplayRecord{1, 10, 1, "aucsched2", "lagrangian", 0, 0.0, 64, "optimal", 1.0, 1.0};
  std::string text = to_json(file);
  const std::string field = "\"enumerate_bids\": 64, ";
  const auto at = text.find(field);
  ASSERT_NE(at, std::string::npos);
  text.erase(at, field.size());
  const WindowFile back = parse_window_json(text, "mem");
  ASSERT_TRUE(back.replay.has_value());
  EXPECT_EQ(back.replay->enumerate_bids, 0);
}

TEST(WindowFile, EmptyWindowIsValid) {
  const WindowFile file = parse_window_json(
      R"({"format": "hetsched-window", "version": 1, "dimensions": ["cores"], "nodes": [],
          "jobs": [], "bids": []})", "mem");
  EXPECT_EQ(file.problem.node_count, 0);
  EXPECT_EQ(to_json(parse_window_json(to_json(file), "mem")), to_json(file));
}

TEST(WindowFile, ErrorsNameFileJsonPathAndValue) {
  const InputError e = error_of(small_window(
      R"([{"job": 0, "value": 1, "uses": [{"node": 0, "amount": [4, 0]}]},
          {"job": 1, "value": 1, "uses": [{"node": 7, "amount": [4, 0]}]}])"));
  EXPECT_EQ(e.where().file, "w.json");
  EXPECT_EQ(e.field(), "$.bids[1].uses[0].node");
  EXPECT_EQ(e.value(), "7");
  EXPECT_NE(std::string(e.what()).find("[0, 1]"), std::string::npos) << e.what();
}

TEST(WindowFile, EachKindOfDefectIsAnInputErrorAtItsField) {
  struct Case {
    std::string text, field;
  };
  const std::vector<Case> cases = {
      {small_window(R"([{"job": 2, "value": 1, "uses": []}])"), "$.bids[0].job"},
      {small_window(R"([{"job": 0, "value": 0, "uses": []}])"), "$.bids[0].value"},
      {small_window(R"([{"job": 0, "value": "1", "uses": []}])"), "$.bids[0].value"},
      {small_window(R"([{"job": 0, "value": 1}])"), "$.bids[0]"},
      {small_window(R"([{"job": 0, "value": 1, "uses": [], "colour": 1}])"), "$.bids[0].colour"},
      {small_window(R"([{"job": 0, "value": 1, "uses": [{"node": 0, "amount": [4]}]}])"),
       "$.bids[0].uses[0].amount"},
      {small_window(R"([{"job": 0, "value": 1, "uses": [{"node": 0, "amount": [4, -1]}]}])"),
       "$.bids[0].uses[0].amount[1]"},
      {small_window(R"([{"job": 0, "value": 1, "uses": [{"node": 0, "amount": [4, 2.5]}]}])"),
       "$.bids[0].uses[0].amount[1]"},
      {small_window(R"([{"job": 0, "value": 1, "uses": [{"node": 1, "amount": [1, 0]},
                                                        {"node": 1, "amount": [1, 0]}]}])"),
       "$.bids[0].uses[1].node"},
      {small_window(R"([{"job": 0, "value": 1, "uses": [{"node": 0, "amount": [9999999999, 0]}]}])"),
       "$.bids[0].uses[0].amount[0]"},
      {small_window("[]", R"(, "replay": {"pass": 1})"), "$.replay"},
      {R"({"format": "other", "version": 1})", "$.format"},
      {R"({"format": "hetsched-window", "version": 2})", "$.version"},
      {R"({"format": "hetsched-window", "version": 1, "dimensions": []})", "$.dimensions"},
      {R"({"format": "hetsched-window", "version": 1, "dimensions": ["a","b","c","d","e","f","g","h","i","j","k"]})",
       "$.dimensions"},
      {R"({"format": "hetsched-window", "version": 1, "dimensions": ["c"],
           "nodes": [{"capacity": [-1]}]})", "$.nodes[0].capacity[0]"},
      {R"([1, 2])", "$"},
      {R"({"format": "hetsched-window", "version": 1,)", "$"},
      {"", "$"},
  };
  for (const Case& c : cases) {
    const InputError e = error_of(c.text);
    EXPECT_EQ(e.field(), c.field) << c.text << "\n" << e.what();
    EXPECT_EQ(e.where().file, "w.json");
  }
}

// Found while probing the reader: a 300,000-deep array overflowed the stack when the error
// message dumped it; a number beyond double's range escaped as a library exception.
TEST(WindowFile, DeepNestingAndHugeNumbersAreInputErrors) {
  const std::string deep = std::string(300'000, '[') + std::string(300'000, ']');
  EXPECT_EQ(error_of(deep).field(), "$");
  const InputError huge = error_of(small_window(R"([{"job": 0, "value": 1e400, "uses": []}])"));
  EXPECT_EQ(huge.field(), "$");
  EXPECT_NE(std::string(huge.what()).find("1e400"), std::string::npos) << huge.what();
  const InputError nested = error_of(small_window(R"([{"job": [[[[1]]]], "value": 1, "uses": []}])"));
  EXPECT_EQ(nested.field(), "$.bids[0].job");
  EXPECT_EQ(nested.value(), "[... 1 elements]");
}

// Each value finite but their sum not: the solver's objective and bounds would be infinite
// and its self-check would fail, so the reader stops at the bid where the sum overflows.
TEST(WindowFile, ValuesThatAddUpPastTheLargestDoubleAreInputErrors) {
  const InputError e = error_of(small_window(R"([{"job": 0, "value": 1.7e308, "uses": []},
                                                 {"job": 1, "value": 1.7e308, "uses": []}])"));
  EXPECT_EQ(e.field(), "$.bids[1].value");
  EXPECT_NE(std::string(e.what()).find("add up past"), std::string::npos) << e.what();
  const std::string one = small_window(R"([{"job": 0, "value": 1.7e308, "uses": []}])");
  EXPECT_NO_THROW(parse_window_json(one, "w.json"));
}

TEST(WindowFile, MissingAndDirectoryPathsAreInputErrors) {
  EXPECT_THROW(read_window_file("/nonexistent/window.json"), InputError);
  EXPECT_THROW(read_window_file(HETSCHED_SOURCE_DIR), InputError);
}

}  // namespace
}  // namespace hs::window_file
