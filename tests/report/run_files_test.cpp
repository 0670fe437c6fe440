#include "report/run_files.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "report/comparison_report.hpp"
#include "report/csv_reader.hpp"
#include "report_fixtures.hpp"
#include "util/error.hpp"

namespace hs {
namespace {

using report_test::fresh_dir;

void write(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// Expects an InputError naming this file, line, field and value.
template <class F>
void expect_error(F f, const std::string& file, long line, const std::string& field,
                  const std::string& value) {
  try {
    f();
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().file, file);
    EXPECT_EQ(e.where().line, line);
    EXPECT_EQ(e.field(), field);
    EXPECT_EQ(e.value(), value);
  }
}

TEST(CsvReader, QuotedFieldsAndLineNumbers) {
  const report::CsvTable t =
      report::parse_csv("a,b\n1,\"x, \"\"y\"\"\"\n\n2,\"two\nlines\"\n3,z\n", "t.csv");
  ASSERT_EQ(t.rows.size(), 3u);
  EXPECT_EQ(t.rows[0].fields[1], "x, \"y\"");
  EXPECT_EQ(t.rows[1].fields[1], "two\nlines");
  EXPECT_EQ(t.rows[1].line, 4);
  EXPECT_EQ(t.rows[2].line, 6);
}

TEST(CsvReader, ErrorsNameFileLineFieldValue) {
  expect_error([] { report::parse_csv("a,b\n1,2\n3\n", "f.csv"); }, "f.csv", 3, "record",
               "1 fields");
  expect_error([] { report::parse_csv("a,b\n1,\"open\n", "f.csv"); }, "f.csv", 2, "record",
               "open\n");
  const report::CsvTable t = report::parse_csv("a,b\n1,x2\n", "f.csv");
  expect_error([&] { report::csv_double(t, t.rows[0], 1); }, "f.csv", 2, "b", "x2");
  expect_error([&] { report::csv_int(t, t.rows[0], 1); }, "f.csv", 2, "b", "x2");
  expect_error([] { report::read_csv_file("/nonexistent/x.csv"); }, "/nonexistent/x.csv", 0, "file",
               "/nonexistent/x.csv");
}

TEST(RunFiles, ParsesAllocationText) {
  const auto uses = report::parse_allocation("n0001:4c+2gpu;n0002:3c+1gpu+512M;n0010:1c", "j", 2);
  ASSERT_EQ(uses.size(), 3u);
  EXPECT_EQ(uses[0].node, "n0001");
  EXPECT_EQ(uses[0].cores, 4);
  EXPECT_EQ(uses[0].gres, 2);
  EXPECT_EQ(uses[1].gres, 1);  // memory is not a gres
  EXPECT_EQ(uses[2].node, "n0010");
  EXPECT_EQ(uses[2].gres, 0);
  // A typed kind repeats its name's count (gpu + gpu:v100): counted once.
  const auto typed = report::parse_allocation("v100n[01-02]:4c+1gpu+1gpu:v100+16384M", "j", 2);
  ASSERT_EQ(typed.size(), 2u);
  EXPECT_EQ(typed[1].node, "v100n02");
  EXPECT_EQ(typed[1].cores, 4);
  EXPECT_EQ(typed[1].gres, 1);
  const auto ranged = report::parse_allocation("n[1-3,7]:4c+2gpu;n9:1c", "j", 2);
  ASSERT_EQ(ranged.size(), 5u);
  EXPECT_EQ(ranged[2].node, "n3");
  EXPECT_EQ(ranged[2].cores, 4);
  EXPECT_EQ(ranged[3].node, "n7");
  EXPECT_EQ(ranged[3].gres, 2);
  EXPECT_EQ(ranged[4].node, "n9");
  expect_error([] { report::parse_allocation("n[3-1]:4c", "j.csv", 7); }, "j.csv", 7,
               "allocation", "n[3-1]:4c");
  expect_error([] { report::parse_allocation("n1:4c;n2", "j.csv", 7); }, "j.csv", 7, "allocation",
               "n1:4c;n2");
  expect_error([] { report::parse_allocation("n1:xc", "j.csv", 7); }, "j.csv", 7, "allocation",
               "n1:xc");
  expect_error([] { report::parse_allocation("n1:2gpu", "j.csv", 7); }, "j.csv", 7, "allocation",
               "n1:2gpu");
}

TEST(RunFiles, ReadsWhatTheMetricsAreaWrites) {
  const std::string root = fresh_dir("runfiles");
  const ComparisonInput in = report_test::make_runs(root, 1);
  const std::string dir = in.schedulers[0].run_dirs[0];
  const report::JobsFile jobs = report::read_jobs_file(dir + "/jobs.csv");
  EXPECT_EQ(jobs.gres_names, std::vector<std::string>{"gpu"});
  ASSERT_EQ(jobs.ran.size(), 10u);
  EXPECT_EQ(jobs.not_run, 0);
  for (const report::JobRun& j : jobs.ran) {
    EXPECT_GE(j.end, j.start);
    EXPECT_FALSE(j.nodes.empty());
    EXPECT_EQ(j.gres[0] > 0, (j.id - 1) % 3 == 1) << j.id;
  }
  const report::UsageFile usage = report::read_usage_file(dir + "/usage.csv");
  EXPECT_EQ(usage.resources, (std::vector<std::string>{"cores", "gpu"}));
  ASSERT_FALSE(usage.time.empty());
  EXPECT_EQ(usage.used[0].back(), 0);  // everything released at the end
  const report::UsageFile queue = report::read_queue_file(dir + "/queue.csv");
  EXPECT_EQ(queue.resources, (std::vector<std::string>{"pending", "running"}));
  ASSERT_FALSE(queue.time.empty());
  double most_running = 0;
  for (double r : queue.used[1]) most_running = std::max(most_running, r);
  EXPECT_GE(most_running, 2);          // 16 cores hold several of the 2-8 core jobs at once
  EXPECT_EQ(queue.used[0].back(), 0);  // nothing pending after the last pass
}

TEST(RunFiles, BadRunFilesRaiseInputErrorsWithLocation) {
  const std::string root = fresh_dir("badfiles");
  ComparisonInput in = report_test::make_runs(root, 2);
  const std::string summary = in.schedulers[1].run_dirs[1] + "/summary.csv";
  write(summary, "metric,value\njobs,10\ncompleted,ten\n");
  expect_error([&] { aggregate_summaries(in); }, summary, 3, "value", "ten");
  write(summary, "metric,value\njobs,10\n");
  expect_error([&] { aggregate_summaries(in); }, summary, 3, "metric", "completed");

  const std::string jobs = root + "/jobs.csv";
  write(jobs,
        "id,submit,start,end,wait,status,cores,gpu,allocation\n"
        "1,0,0,10,0,completed,4,0,n1:4c\n2,0,5,10,5,finished,4,0,n1:4c\n");
  expect_error([&] { report::read_jobs_file(jobs); }, jobs, 3, "status", "finished");
  write(jobs,
        "id,submit,start,end,wait,status,cores,gpu,allocation\n"
        "1,0,0,10,0,completed,4,0,n1:4c\n2,0,5,1O,5,completed,4,0,n1:4c\n");
  expect_error([&] { report::read_jobs_file(jobs); }, jobs, 3, "end", "1O");
  write(jobs,
        "id,submit,start,end,wait,status,cores,gpu,allocation\n"
        "1,0,0,10,0,rejected,0,0,\n");
  EXPECT_EQ(report::read_jobs_file(jobs).not_run, 1);
  const std::string usage = root + "/usage.csv";
  write(usage, "time,used_cores,used_gpu,used_mem_mb\n0,4,0,0\n20,2,0,0\n10,0,0,0\n");
  expect_error([&] { report::read_usage_file(usage); }, usage, 4, "time", "10");
  write(usage, "time,used_cores,used_gpu,used_mem_mb\n0,4,x,0\n");
  expect_error([&] { report::read_usage_file(usage); }, usage, 2, "used_gpu", "x");
  write(jobs, "id,submit,end,wait,status,cores,allocation\n");
  expect_error([&] { report::read_jobs_file(jobs); }, jobs, 1, "header", "start");
}

}  // namespace
}  // namespace hs
