// `hetsched reproduce`: the transcribed tables parse and are fully covered by the experiment
// list, the difference and baseline rules, and a quick end-to-end run whose document holds
// every table heading and numbers read back from the runs' summary.csv.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cli/exit_codes.hpp"
#include "cli/main_command.hpp"
#include "cli/repro_data.hpp"
#include "cli/repro_document.hpp"
#include "policy/window/window_schedulers.hpp"
#include "util/error.hpp"

namespace hs::cli::repro {
namespace {

namespace fs = std::filesystem;
const std::string kRepro = std::string(HETSCHED_SOURCE_DIR) + "/repro";

std::string read_all(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string temp_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("hetsched-repro-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

double published(const std::vector<PublishedValue>& all, const std::string& table,
                 const std::string& row, const std::string& scheduler, const std::string& metric,
                 const std::string& workload = "") {
  for (const auto& v : all)
    if (v.table == table && v.row == row && v.scheduler == scheduler && v.metric == metric &&
        (workload.empty() || v.workload == workload))
      return v.value;
  ADD_FAILURE() << "missing " << table << " " << row << " " << scheduler << " " << metric;
  return -1;
}

TEST(Repro, PublishedTablesParseWithSpotChecks) {
  const auto all = read_published_dir(kRepro + "/published");
  std::map<std::string, int> per_table;
  for (const auto& v : all) ++per_table[v.table];
  EXPECT_EQ(per_table.size(), repro_tables().size());
  EXPECT_EQ(per_table["002-V"], 6 * 5);
  EXPECT_EQ(per_table["000-7"], 15 * 2 * 10);
  EXPECT_EQ(per_table["003-A.3"], 12 * 3 * 8);
  EXPECT_EQ(per_table["004-3"], 2 * 4 * 5 * 2);
  EXPECT_DOUBLE_EQ(published(all, "002-V", "1-SLURM", "backfill-basic", "wait_h"), 1.60);
  EXPECT_DOUBLE_EQ(published(all, "002-VI", "8", "ipsched-multifactor-pr", "packing"), 1.016);
  EXPECT_DOUBLE_EQ(published(all, "000-7", "V.2", "aucsched1", "utilization_pct"), 72);
  EXPECT_DOUBLE_EQ(published(all, "003-A.1", "8", "aucsched1-multifactor", "slowdown"), 29.14);
  EXPECT_DOUBLE_EQ(published(all, "003-A.4", "6'", "aucsched3", "spread"), 61.4);
  EXPECT_DOUBLE_EQ(published(all, "004-3", "PRB", "prb+pweighted+datadriven", "queue", "aug2014"),
                   3);
  EXPECT_DOUBLE_EQ(published(all, "004-3", "PRB", "prb+pweighted+datadriven", "queue", "sep2014"),
                   20);
}

TEST(Repro, EveryPublishedRowHasAnExperiment) {
  const auto all = read_published_dir(kRepro + "/published");
  const auto experiments = read_experiments(kRepro + "/experiments.csv");
  for (const auto& v : all) {
    bool found = false;
    for (const auto& e : experiments)
      found |= e.table == v.table && e.machine == v.machine && e.workload == v.workload &&
               e.scheduler == v.scheduler;
    EXPECT_TRUE(found) << v.table << " " << v.row << " " << v.scheduler;
  }
  std::map<std::string, int> quick;
  for (const auto& e : experiments)
    if (!e.quick_workload_spec.empty()) ++quick[e.table];
  EXPECT_EQ(quick.size(), repro_tables().size()) << "every table needs a quick experiment";
}

TEST(Repro, WindowSchedulersRunWithoutTheStarvationGuard) {
  EXPECT_EQ(with_documents_setting("aucsched3"), "aucsched3:starvation=none,solver_enumerate_bids=0");
  EXPECT_EQ(with_documents_setting("ipsched:priority=multifactor,objective=priority"),
            "ipsched:priority=multifactor,objective=priority,starvation=none,solver_enumerate_bids=0");
  EXPECT_EQ(with_documents_setting("aucsched2:starvation=reserve"),
            "aucsched2:starvation=reserve,solver_enumerate_bids=0");
  EXPECT_EQ(with_documents_setting("aucsched2:starvation=reserve,solver_enumerate_bids=64"),
            "aucsched2:starvation=reserve,solver_enumerate_bids=64");
  EXPECT_EQ(with_documents_setting("backfill:priority=multifactor"),
            "backfill:priority=multifactor");
  EXPECT_EQ(with_documents_setting("easy+weighted+datadriven"), "easy+weighted+datadriven");
  int window_rows = 0;
  for (const auto& e : read_experiments(kRepro + "/experiments.csv")) {
    const auto window = window_scheduler_names();
    const std::string name = e.scheduler_spec.substr(0, e.scheduler_spec.find(':'));
    if (std::find(window.begin(), window.end(), name) == window.end()) continue;
    ++window_rows;
    EXPECT_NE(e.scheduler_spec.find("starvation=none"), std::string::npos) << e.scheduler_spec;
    EXPECT_NE(e.scheduler_spec.find("solver_enumerate_bids=0"), std::string::npos) << e.scheduler_spec;
  }
  EXPECT_GT(window_rows, 0);
}

TEST(Repro, BadFilesNameFileLineAndValue) {
  const std::string dir = temp_dir("bad");
  std::ofstream(dir + "/t.csv") << "source,table,row,machine,workload,scheduler,metric,value\n"
                                << "002,V,1,paper1024,esp-het,backfill,wait_h,1.x\n";
  try {
    read_published(dir + "/t.csv");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().line, 2);
    EXPECT_EQ(e.value(), "1.x");
  }
  std::ofstream(dir + "/u.csv") << "source,table,row,machine,workload,scheduler,metric,value\n"
                                << "002,V,1,paper1024,esp-het,backfill,speed,1\n";
  EXPECT_THROW(read_published(dir + "/u.csv"), InputError);
  EXPECT_THROW(split_csv_line("a,\"b", "x", 1), InputError);
  EXPECT_EQ(split_csv_line("a,\"b,c\",\"d\"\"e\"", "x", 1),
            (std::vector<std::string>{"a", "b,c", "d\"e"}));
}

int run_reproduce(std::vector<std::string> args, std::string* out = nullptr) {
  args.insert(args.begin(), {"hetsched", "reproduce", "--repro-dir", kRepro});
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  const int code = run_main(static_cast<int>(argv.size()), argv.data());
  const std::string text = testing::internal::GetCapturedStdout();
  testing::internal::GetCapturedStderr();
  if (out) *out = text;
  return code;
}

TEST(Repro, DocumentOnlyListsUnrunComparisonsAndRejectsCorruptResults) {
  const std::string dir = temp_dir("doconly");
  std::string out;
  ASSERT_EQ(run_reproduce({"--document-only", "--tables", "002-VI", "--out", dir, "--doc",
                           dir + "/doc.md"}, &out),
            kExitOk);
  const std::string text = read_all(dir + "/doc.md");
  EXPECT_NE(text.find("**not run** in this reproduction"), std::string::npos);
  EXPECT_NE(text.find("hetsched compare --cluster paper1024 --workload \"esp-het-random\""),
            std::string::npos);
  fs::create_directories(dir + "/paper1024__esp-het-random");
  std::ofstream(dir + "/paper1024__esp-het-random/result.csv")
      << "kind,a,b,c,d\nmeta,cluster,paper1024,,\nmetric,backfill,wait_mean,abc,0\n";
  EXPECT_EQ(run_reproduce({"--document-only", "--tables", "002-VI", "--out", dir, "--doc",
                           dir + "/doc.md"}),
            kExitBadInput);
}

// Issue 22 (8): a user's run never overwrites the project's docs/reproduction.md: the
// document goes under --out unless --doc names a file. Run from a scratch working
// directory, so that the old default (docs/reproduction.md) would land there, not in the
// source tree.
TEST(Repro, DocumentGoesUnderOutUnlessDocIsGiven) {
  const std::string dir = temp_dir("doc-default");
  const fs::path previous = fs::current_path();
  fs::current_path(dir);
  std::string out;
  const int code = run_reproduce({"--document-only", "--tables", "002-VI", "--out", "runs"}, &out);
  const int with_doc = run_reproduce(
      {"--document-only", "--tables", "002-VI", "--out", "runs", "--doc", "mine/doc.md"});
  fs::current_path(previous);
  ASSERT_EQ(code, kExitOk) << out;
  EXPECT_FALSE(fs::exists(dir + "/docs/reproduction.md"));
  EXPECT_NE(read_all(dir + "/runs/reproduction.md").find("# Reproduction of the published"),
            std::string::npos);
  EXPECT_NE(out.find("document   runs/reproduction.md"), std::string::npos) << out;
  ASSERT_EQ(with_doc, kExitOk);
  EXPECT_NE(read_all(dir + "/mine/doc.md").find("# Reproduction of the published"),
            std::string::npos);
}

TEST(Repro, DifferenceAndBaselineRules) {
  EXPECT_FALSE(large_difference("utilization", 0.90, 0.86));
  EXPECT_TRUE(large_difference("utilization", 0.90, 0.84));
  EXPECT_FALSE(large_difference("utilization_pct", 95, 91));
  EXPECT_TRUE(large_difference("runtime_h", 4.0, 4.5));
  EXPECT_FALSE(large_difference("wait_h", 1.6, 1.9));
  EXPECT_TRUE(large_difference("wait_h", 1.6, 2.1));
  EXPECT_EQ(baseline_of("backfill-basic"), "");
  EXPECT_EQ(baseline_of("ipsched-basic-pr"), "backfill-basic");
  EXPECT_EQ(baseline_of("aucsched1-multifactor"), "backfill-multifactor");
  EXPECT_EQ(baseline_of("aucsched3"), "backfill");
  EXPECT_EQ(baseline_of("cph+weighted+datadriven"), "cph+ff+datadriven");
  EXPECT_EQ(baseline_of("easy+ff+datadriven"), "");
}

std::string summary_value(const std::string& path, const std::string& field) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(field + ",", 0) == 0) return line.substr(field.size() + 1);
  ADD_FAILURE() << "no " << field << " in " << path;
  return "";
}

TEST(Repro, QuickRunWritesEveryTableWithNumbersFromTheRuns) {
  const std::string dir = temp_dir("quick");
  const std::string doc = dir + "/reproduction.md";
  std::vector<std::string> args = {"hetsched", "reproduce", "--quick", "--parallel", "2",
                                   "--out", dir + "/runs", "--doc", doc, "--repro-dir", kRepro};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  testing::internal::CaptureStdout();
  const int code = run_main(static_cast<int>(argv.size()), argv.data());
  const std::string out = testing::internal::GetCapturedStdout();
  ASSERT_EQ(code, kExitOk) << out;
  const std::string text = read_all(doc);
  for (const auto& t : repro_tables())
    EXPECT_NE(text.find("## " + t.source + ": " + t.title), std::string::npos) << t.id;
  EXPECT_NE(text.find("Quick mode"), std::string::npos);
  EXPECT_EQ(text.find("did not run"), std::string::npos);
  // 002 Table V, backfill with basic priority: the published wait next to ours, read back
  // from the summary.csv of the esp-het group's backfill run.
  std::string run_dir;
  for (const auto& g : fs::directory_iterator(dir + "/runs")) {
    const std::string result = read_all(g.path().string() + "/result.csv");
    if (result.find("meta,workload,esp-het,") != std::string::npos)
      run_dir = g.path().string() + "/runs/backfill/r0";
  }
  ASSERT_FALSE(run_dir.empty());
  const double wait = std::stod(summary_value(run_dir + "/summary.csv", "wait_mean")) / 3600;
  char plain[64], bold[64];
  std::snprintf(plain, sizeof plain, "| 1.60 / %.2f |", wait);
  std::snprintf(bold, sizeof bold, "| 1.60 / **%.2f** |", wait);
  EXPECT_TRUE(text.find(plain) != std::string::npos || text.find(bold) != std::string::npos)
      << plain;
  EXPECT_NE(out.find("wall time"), std::string::npos);
  EXPECT_NE(text.find("Checker violations: 0"), std::string::npos);
}


// --reuse takes a finished group only when it has the repetitions asked for; a group with
// fewer is run again (here: heterogeneous ESP under backfill, about a second).
TEST(Repro, ReuseNeedsTheRequestedRepetitions) {
  const std::string dir = temp_dir("reuse");
  RunGroup g{"paper1024", "esp-het", {"backfill"}, {"002-V"}, dir + "/group"};
  fs::create_directories(g.dir);
  std::ofstream(g.dir + "/result.csv")
      << "kind,a,b,c,d\nmeta,cluster,paper1024,,\nmeta,workload,esp-het,,\n"
         "meta,seed,1,,\nmeta,repeat,1,,\nmeta,jobs,458,,\nmeta,runs,1,,\n"
         "meta,violations,0,,\nmeta,failed_runs,0,,\nmeta,wall_seconds,1,,\n"
         "metric,backfill,wait_mean,7,0\n";
  RunSettings s;
  s.reuse = true;
  s.repeat = 1;
  s.parallel = 1;
  s.out_dir = dir;
  const GroupResult once = run_group(g, s);
  EXPECT_TRUE(once.reused);
  EXPECT_EQ(once.metrics.at("backfill").at("wait_mean").mean, 7);
  s.repeat = 2;
  const GroupResult twice = run_group(g, s);
  EXPECT_FALSE(twice.reused);
  EXPECT_TRUE(twice.ran) << twice.error;
  EXPECT_EQ(twice.repeat, 2);
}

}  // namespace
}  // namespace hs::cli::repro
