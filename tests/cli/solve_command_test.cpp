// `hetsched solve`: window files solved and checked, bad files named, LP/MPS export read
// back by CBC's own binary, and `simulate --dump-windows` windows re-solved to the replay's
// objective.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli/exit_codes.hpp"
#include "cli/window_dump.hpp"
#include "cli_test_support.hpp"
#include "solver/mip_model.hpp"
#include "solver/random_instances.hpp"
#include "solver/solvers.hpp"
#include "solver/window_lp.hpp"
#include "window_file/window_file.hpp"

namespace hs::cli {
namespace {

namespace fs = std::filesystem;
using namespace test;

const std::string kExample = kSource + "/examples/windows/thesis-1.2.json";

// The value after `key` on the line that starts with it ("objective  6 (...)" -> 6).
double field_value(const std::string& out, const std::string& key) {
  const auto at = out.find("\n" + key);
  if (at == std::string::npos && out.rfind(key, 0) != 0) return -1.0;
  const auto start = at == std::string::npos ? key.size() : at + 1 + key.size();
  return std::strtod(out.c_str() + start, nullptr);
}

TEST(SolveCommand, ThesisExampleStartsAllThreeJobsAndPassesTheCheck) {
  const std::string dir = temp_dir("solve-example");
  const Outcome o = run({"solve", kExample, "--out", dir + "/solution.json"});
  ASSERT_EQ(o.code, kExitOk) << o.err << o.out;
  EXPECT_NE(o.out.find("status     optimal"), std::string::npos) << o.out;
  EXPECT_EQ(field_value(o.out, "objective  "), 6.0) << o.out;
  EXPECT_NE(o.out.find("(3 of 3 jobs start)"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("check      OK"), std::string::npos) << o.out;
  const std::string json = read_file(dir + "/solution.json");
  EXPECT_NE(json.find("\"check\": \"ok\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"objective\": 6.0"), std::string::npos) << json;
  // J1 must take the spread bid 1 for all three to start.
  EXPECT_NE(json.find("\"job\": 0,\n      \"bid\": 1,"), std::string::npos) << json;
  EXPECT_EQ(run({"solve", kExample, "--out", dir + "/again.json"}).code, kExitOk);
  EXPECT_EQ(read_file(dir + "/again.json"), json);
}

TEST(SolveCommand, IndependentPartsAreSolvedApartAndSaidSo) {
  // Jobs 0 and 1 compete for node 0, jobs 2 and 3 for node 1; nothing links the two pairs.
  const std::string dir = temp_dir("solve-parts");
  const std::string window = dir + "/parts.json";
  {
    std::ofstream out(window);
    out << R"({"format": "hetsched-window", "version": 1, "dimensions": ["cores"],
      "nodes": [{"capacity": [4]}, {"capacity": [4]}], "jobs": [{}, {}, {}, {}],
      "bids": [{"job": 0, "value": 3, "uses": [{"node": 0, "amount": [3]}]},
               {"job": 1, "value": 2, "uses": [{"node": 0, "amount": [2]}]},
               {"job": 2, "value": 1, "uses": [{"node": 1, "amount": [4]}]},
               {"job": 3, "value": 5, "uses": [{"node": 1, "amount": [1]}]}]})";
  }
  const Outcome o = run({"solve", window, "--out", dir + "/solution.json"});
  ASSERT_EQ(o.code, kExitOk) << o.err << o.out;
  EXPECT_NE(o.out.find("(2 of 4 jobs start; 2 independent parts proven apart)"), std::string::npos) << o.out;
  EXPECT_EQ(field_value(o.out, "objective  "), 8.0) << o.out;
  EXPECT_NE(o.out.find("status     optimal"), std::string::npos) << o.out;
  EXPECT_NE(read_file(dir + "/solution.json").find("\"parts\": 2"), std::string::npos);
}

TEST(SolveCommand, BidsThatCanNeverFitAreCountedAndNeverWin) {
  const std::string dir = temp_dir("solve-never-fit");
  const std::string window = dir + "/never-fit.json";
  {
    std::ofstream out(window);
    out << R"({"format": "hetsched-window", "version": 1, "dimensions": ["cores", "gpu"],
      "nodes": [{"capacity": [4, 0]}, {"capacity": [4, 2]}], "jobs": [{}, {}],
      "bids": [{"job": 0, "value": 9, "uses": [{"node": 0, "amount": [1, 1]}]},
               {"job": 0, "value": 2, "uses": [{"node": 1, "amount": [1, 1]}]},
               {"job": 1, "value": 7, "uses": [{"node": 1, "amount": [5, 0]}]}]})";
  }
  const Outcome o = run({"solve", window, "--out", dir + "/solution.json"});
  ASSERT_EQ(o.code, kExitOk) << o.err << o.out;
  EXPECT_NE(o.out.find("3 bids; never fit: 2 (more than a node's capacity)"), std::string::npos)
      << o.out;
  EXPECT_EQ(field_value(o.out, "objective  "), 2.0) << o.out;
  EXPECT_NE(read_file(dir + "/solution.json").find("\"bids_never_fit\": 2"), std::string::npos);
  const Outcome fine = run({"solve", kExample});
  EXPECT_EQ(fine.out.find("never fit"), std::string::npos) << fine.out;
}

TEST(SolveCommand, EverySolverAgreesOnTheExample) {
  for (const std::string& name : solver::window_solver_names()) {
    const Outcome o = run({"solve", kExample, "--solver", name});
    ASSERT_EQ(o.code, kExitOk) << name << o.err;
    if (name != "greedy") {
      EXPECT_EQ(field_value(o.out, "objective  "), 6.0) << name << o.out;
    }
  }
}

TEST(SolveCommand, BadFilesAndOptionsAreBadInputNamingTheField) {
  const std::string dir = temp_dir("solve-bad");
  const std::string bad = dir + "/bad.json";
  {
    std::ofstream out(bad);
    out << R"({"format": "hetsched-window", "version": 1, "dimensions": ["cores"],
               "nodes": [{"capacity": [4]}], "jobs": [{}],
               "bids": [{"job": 0, "value": -2, "uses": []}]})";
  }
  Outcome o = run({"solve", bad});
  EXPECT_EQ(o.code, kExitBadInput);
  EXPECT_NE(o.err.find(bad), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("$.bids[0].value"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("-2"), std::string::npos) << o.err;
  EXPECT_EQ(run({"solve"}).code, kExitBadInput);
  EXPECT_EQ(run({"solve", dir + "/missing.json"}).code, kExitBadInput);
  EXPECT_EQ(run({"solve", kExample, "--solver", "nope"}).code, kExitBadInput);
  EXPECT_EQ(run({"solve", kExample, "--export", "xls", "--out", dir + "/m"}).code, kExitBadInput);
  EXPECT_EQ(run({"solve", kExample, "--export", "lp"}).code, kExitBadInput);
}

// CBC's command-line program, when installed: its optimum of an exported model.
std::optional<double> cbc_optimum(const std::string& model_path, const std::string& log) {
  if (std::system("command -v cbc >/dev/null 2>&1") != 0) return std::nullopt;
  const std::string command = "cbc " + model_path + " solve > " + log + " 2>&1";
  if (std::system(command.c_str()) != 0) return std::nullopt;
  const std::string text = read_file(log);
  std::smatch m;
  if (!std::regex_search(text, m, std::regex("Objective value:\\s+(-?[0-9.eE+-]+)")))
    return std::nullopt;
  return std::stod(m[1]);
}

// A window of one's own of at most 400 bids goes to `exact` by default: on this one (the
// bench's 1024 x 50 x 5 window 1000) the default solver alone stops unproven, `exact` proves
// its answer optimal, and never ends below it. --exact-bids 0 turns it off.
TEST(SolveCommand, SmallWindowsOfOnesOwnAreProvenByTheExactSolver) {
  if (!solver::clp_available()) GTEST_SKIP() << "no CLP in this build";
  const std::string dir = temp_dir("solve-exact");
  solver::RandomWindowSpec spec;
  spec.nodes = 1024;
  spec.jobs = 50;
  spec.max_bids_per_job = 5;
  spec.seed = 1000003ULL * 1024 + 7919ULL * 50 + 31ULL * 5 + 1000;
  window_file::WindowFile window;
  window.problem = solver::make_random_window(spec);
  ASSERT_LE(window.problem.bids.size(), 400u);
  window_file::write_window_file(dir + "/w.json", window);
  const Outcome with = run({"solve", dir + "/w.json", "--lp-bound", "0"});
  ASSERT_EQ(with.code, kExitOk) << with.err;
  EXPECT_NE(with.out.find("exact for windows of <= 400 bids"), std::string::npos) << with.out;
  EXPECT_NE(with.out.find("status     optimal"), std::string::npos) << with.out;
  const Outcome without = run({"solve", dir + "/w.json", "--lp-bound", "0", "--exact-bids", "0"});
  ASSERT_EQ(without.code, kExitOk) << without.err;
  EXPECT_EQ(without.out.find("exact for windows"), std::string::npos) << without.out;
  EXPECT_GE(field_value(with.out, "objective  "), field_value(without.out, "objective  "));
  const Outcome greedy = run({"solve", dir + "/w.json", "--solver", "greedy", "--exact-bids", "1"});
  EXPECT_EQ(greedy.code, kExitBadInput) << greedy.out;
  EXPECT_NE(greedy.err.find("--exact-bids"), std::string::npos) << greedy.err;
}

// CBC counts no effort units: `--effort` with it is refused with the option named, rather
// than ignored (it was, before session 41).
TEST(SolveCommand, AnEffortLimitForCbcIsRefused) {
  if (!solver::cbc_available()) GTEST_SKIP() << "no CBC backend in this build";
  const std::string dir = temp_dir("solve-cbc-effort");
  solver::RandomWindowSpec spec;
  spec.nodes = 16;
  spec.jobs = 5;
  window_file::WindowFile window;
  window.problem = solver::make_random_window(spec);
  window_file::write_window_file(dir + "/w.json", window);
  const Outcome cbc = run({"solve", dir + "/w.json", "--solver", "cbc", "--effort", "1000"});
  EXPECT_EQ(cbc.code, kExitBadInput) << cbc.out;
  EXPECT_NE(cbc.err.find("--effort"), std::string::npos) << cbc.err;
  EXPECT_NE(cbc.err.find("--time-limit"), std::string::npos) << cbc.err;
}

TEST(SolveCommand, ExportedModelsHaveTheSameOptimumUnderCbc) {
  if (!solver::cbc_available()) GTEST_SKIP() << "no CBC backend in this build";
  if (std::system("command -v cbc >/dev/null 2>&1") != 0) GTEST_SKIP() << "no cbc binary";
  const std::string dir = temp_dir("solve-export");
  solver::RandomWindowSpec spec;
  spec.nodes = 24;
  spec.jobs = 14;
  spec.seed = 3;
  window_file::WindowFile random;
  random.problem = solver::make_random_window(spec);
  random.dimension_names = {"cores", "gpu"};
  window_file::write_window_file(dir + "/random.json", random);
  for (const std::string& window : {kExample, dir + "/random.json"}) {
    const Outcome exact = run({"solve", window, "--solver", "exhaustive"});
    ASSERT_EQ(exact.code, kExitOk) << exact.err;
    ASSERT_NE(exact.out.find("status     optimal"), std::string::npos) << exact.out;
    const double optimum = field_value(exact.out, "objective  ");
    ASSERT_GT(optimum, 0.0);
    for (const std::string format : {"lp", "mps"}) {
      const std::string model = dir + "/model." + format;
      ASSERT_EQ(run({"solve", window, "--export", format, "--out", model}).code, kExitOk);
      ASSERT_TRUE(fs::exists(model));
      const auto cbc = cbc_optimum(model, dir + "/cbc.log");
      ASSERT_TRUE(cbc.has_value()) << read_file(dir + "/cbc.log");
      // The files state a minimisation of the negated values.
      EXPECT_NEAR(-*cbc, optimum, 1e-6 * optimum) << window << " as " << format;
    }
  }
}

// passes.csv of the replay in dir/out: as many solver calls as windows were saved, every
// answer at or below its bound, and the same bytes from the second replay (dir/out2).
void expect_pass_table_matches(const std::string& dir, std::size_t saved_windows) {
  const std::string table = read_file(dir + "/out/passes.csv");
  EXPECT_EQ(read_file(dir + "/out2/passes.csv"), table);
  std::istringstream lines(table);
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line.rfind("pass,time,window,bids,solves,started,objective,bound,gap,proven", 0), 0u);
  std::size_t solves = 0;
  while (std::getline(lines, line)) {
    std::vector<std::string> cells;
    std::istringstream row(line);
    for (std::string cell; std::getline(row, cell, ',');) cells.push_back(cell);
    ASSERT_GE(cells.size(), 10u) << line;
    solves += std::stoul(cells[4]);
    if (cells[4] == "0") continue;
    EXPECT_LE(std::stod(cells[6]), std::stod(cells[7]) * (1 + 1e-9)) << line;
    EXPECT_GE(std::stod(cells[8]), 0.0) << line;
  }
  EXPECT_EQ(solves, saved_windows);
}

// Every window of a replay, saved and solved again, gives the replay's objective.
void expect_dumped_windows_reproduce(const std::string& scheduler, const std::string& name) {
  const std::string dir = temp_dir("dump-" + name);
  const Outcome sim = run({"simulate", "--cluster", kTinyCluster, "--workload",
                           kSource + "/examples/workloads/lab-mix-v-78.jobs", "--scheduler",
                           scheduler, "--out", dir + "/out", "--dump-windows", dir + "/windows"});
  ASSERT_EQ(sim.code, kExitOk) << sim.err;
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(dir + "/windows")) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  ASSERT_GT(files.size(), 5u);
  const std::regex pattern(".*/pass-[0-9]{6}-t[0-9]+-s[0-9]+\\.json");
  int reproduced = 0;
  for (const std::string& file : files) {
    ASSERT_TRUE(std::regex_match(file, pattern)) << file;
    const Outcome o = run({"solve", file});
    ASSERT_EQ(o.code, kExitOk) << file << o.err;
    EXPECT_NE(o.out.find("; reproduced\n"), std::string::npos) << file << "\n" << o.out;
    reproduced += o.out.find("; reproduced\n") != std::string::npos;
  }
  EXPECT_EQ(reproduced, static_cast<int>(files.size()));
  // Saved windows name their dimensions, the cluster's nodes and the jobs' ids.
  const window_file::WindowFile first = window_file::read_window_file(files.front());
  ASSERT_FALSE(first.dimension_names.empty());
  EXPECT_EQ(first.dimension_names.front(), "cores");
  EXPECT_EQ(first.node_names.size(), static_cast<std::size_t>(first.problem.node_count));
  EXPECT_EQ(first.job_names.size(), static_cast<std::size_t>(first.problem.job_count));
  ASSERT_TRUE(first.replay.has_value());
  EXPECT_EQ(first.replay->scheduler, scheduler);
  // A second replay saves the same windows, byte for byte.
  ASSERT_EQ(run({"simulate", "--cluster", kTinyCluster, "--workload",
                 kSource + "/examples/workloads/lab-mix-v-78.jobs", "--scheduler", scheduler,
                 "--out", dir + "/out2", "--dump-windows", dir + "/again"})
                .code,
            kExitOk);
  for (const std::string& file : files)
    EXPECT_EQ(read_file(dir + "/again/" + fs::path(file).filename().string()), read_file(file));
  expect_pass_table_matches(dir, files.size());
}

TEST(SolveCommand, DumpedAuctionWindowsReproduceTheReplaysObjectives) {
  expect_dumped_windows_reproduce("aucsched2", "auc2");
}

TEST(SolveCommand, DumpedIpschedColumnWindowsReproduceTheReplaysObjectives) {
  expect_dumped_windows_reproduce("ipsched", "ipsched");
}

TEST(SolveCommand, DumpWindowsNeedsAWindowScheduler) {
  const std::string dir = temp_dir("dump-backfill");
  const Outcome o = run({"simulate", "--cluster", kTinyCluster, "--workload", kTinyJobs, "--out",
                         dir + "/out", "--dump-windows", dir + "/w"});
  EXPECT_EQ(o.code, kExitBadInput);
  EXPECT_NE(o.err.find("--dump-windows"), std::string::npos) << o.err;
}

TEST(SolveCommand, DumpedNamesAreZeroPaddedAndOrdered) {
  EXPECT_EQ(dumped_window_name(123, 4500, 1), "pass-000123-t4500-s1.json");
  EXPECT_EQ(dumped_window_name(0, 0, 2), "pass-000000-t0-s2.json");
}

}  // namespace
}  // namespace hs::cli
