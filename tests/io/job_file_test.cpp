#include "io/job_file.hpp"

#include <zlib.h>

#include <sstream>

#include "io/job_options.hpp"
#include "test_helpers.hpp"

namespace hs {
namespace {

using testing::expect_input_error;
using testing::scratch_dir;
using testing::write_file;

std::string header() { return std::string(kJobFileHeader) + "\n"; }

void expect_same_request(const JobRequest& a, const JobRequest& b) {
  EXPECT_EQ(a.ntasks, b.ntasks);
  EXPECT_EQ(a.nodes_min, b.nodes_min);
  EXPECT_EQ(a.nodes_max, b.nodes_max);
  EXPECT_EQ(a.ntasks_per_node, b.ntasks_per_node);
  EXPECT_EQ(a.ntasks_implied, b.ntasks_implied);
  EXPECT_EQ(a.contiguous, b.contiguous);
  EXPECT_EQ(a.mem_per_node_mb, b.mem_per_node_mb);
  EXPECT_EQ(a.time_limit, b.time_limit);
  ASSERT_EQ(a.gres.size(), b.gres.size());
  for (std::size_t i = 0; i < a.gres.size(); ++i) {
    EXPECT_EQ(a.gres[i].name, b.gres[i].name);
    EXPECT_EQ(a.gres[i].type, b.gres[i].type);
    EXPECT_EQ(a.gres[i].per_node_min, b.gres[i].per_node_min);
    EXPECT_EQ(a.gres[i].per_node_max, b.gres[i].per_node_max);
  }
}

void expect_same_jobs(const Workload& a, const Workload& b) {
  ASSERT_EQ(a.jobs.size(), b.jobs.size());
  for (std::size_t i = 0; i < a.jobs.size(); ++i) {
    SCOPED_TRACE("job " + std::to_string(i));
    const Job& x = a.jobs[i];
    const Job& y = b.jobs[i];
    EXPECT_EQ(x.id, y.id);
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.user, y.user);
    EXPECT_EQ(x.partition, y.partition);
    EXPECT_EQ(x.submit, y.submit);
    EXPECT_EQ(x.submit_ms, y.submit_ms);
    EXPECT_EQ(x.end_latency_ms, y.end_latency_ms);
    EXPECT_EQ(x.epilog_ms, y.epilog_ms);
    EXPECT_EQ(x.epilog_by, y.epilog_by);
    ASSERT_EQ(x.node_epilogs.size(), y.node_epilogs.size());
    for (std::size_t k = 0; k < x.node_epilogs.size(); ++k) {
      EXPECT_EQ(x.node_epilogs[k].node, y.node_epilogs[k].node);
      EXPECT_EQ(x.node_epilogs[k].ms, y.node_epilogs[k].ms);
      EXPECT_EQ(x.node_epilogs[k].by, y.node_epilogs[k].by);
    }
    EXPECT_EQ(x.run_time, y.run_time);
    EXPECT_EQ(x.moldable_runtime, y.moldable_runtime);
    expect_same_request(x.req, y.req);
  }
}

Workload round_trip(const Workload& w, const std::string& tag) {
  std::ostringstream out;
  write_job_file(w, out);
  const auto dir = scratch_dir("jobs-rt-" + tag);
  return read_job_file(write_file(dir / "w.jobs", out.str()));
}

Workload varied_workload() {
  Workload w;
  w.name = "varied";
  auto job = [&](std::int64_t id, Time submit, Time run) -> Job& {
    w.jobs.push_back(Job{});
    Job& j = w.jobs.back();
    j.id = id;
    j.submit = submit;
    j.run_time = run;
    j.req.ntasks = 1;
    return j;
  };
  Job& a = job(1, 0, 100);
  a.req.ntasks = 4096;
  Job& b = job(2, 0, 1000);
  b.user = "a user with spaces";
  b.name = "100% #weird\tname=x";
  b.partition = "gpu";
  b.req.ntasks = 2048;
  b.req.nodes_min = b.req.nodes_max = 512;
  b.req.gres = {GresRequest{"gpu", -1, 2, 2}};
  b.req.time_limit = 1000;
  Job& c = job(7, 5, 0);
  c.moldable_runtime = true;
  c.req.ntasks = 24;
  c.req.nodes_min = 2;
  c.req.nodes_max = 6;
  c.req.ntasks_per_node = 4;
  c.req.gres = {GresRequest{"gpu", -1, 1, 3}, GresRequest{"mic", -1, 0, 1}};
  c.req.contiguous = true;
  c.req.mem_per_node_mb = 5000;
  c.req.time_limit = 3 * 86400 + 1;
  Job& d = job(9, 99999999, 1);
  d.req.nodes_min = 3;  // exactly 3 ("-N 3-", which sbatch refuses, is an error now)
  d.req.nodes_max = 3;
  d.req.time_limit = kNoTime;
  d.end_latency_ms = 117;
  d.epilog_ms = 16;
  d.epilog_by = Job::EpilogReport::Message;
  d.node_epilogs = {{"n9", 4, Job::EpilogReport::Answer}, {"gpu-n10", 16, Job::EpilogReport::Message}};
  Job& e = job(10, 1, 1);
  e.req.nodes_min = 0;
  e.req.nodes_max = 4;
  e.user = "ünïcode";
  e.submit_ms = 53;
  e.end_latency_ms = 0;  // recorded as 0 ms: written, unlike the default -1
  e.epilog_ms = 0;
  e.epilog_by = Job::EpilogReport::Answer;
  return w;
}

TEST(JobFile, RoundTripIsExact) {
  const Workload w = varied_workload();
  const Workload back = round_trip(w, "varied");
  expect_same_jobs(w, back);
  EXPECT_EQ(back.name, "w");
  // And the text itself is a fixed point.
  std::ostringstream first, second;
  write_job_file(w, first);
  write_job_file(back, second);
  EXPECT_EQ(first.str().substr(first.str().find('\n', 20)),
            second.str().substr(second.str().find('\n', 20)));
}

TEST(JobFile, ReadsTheExampleAndSurvivesRoundTrip) {
  const Workload w = read_job_file(testing::source_path("examples/workloads/tiny.jobs"));
  EXPECT_EQ(w.name, "tiny");
  ASSERT_EQ(w.jobs.size(), 8u);
  const Job& train = w.jobs[3];
  EXPECT_EQ(train.id, 4);
  EXPECT_EQ(train.user, "carol");
  EXPECT_EQ(train.partition, "gpu");
  EXPECT_EQ(train.req.nodes_min, 2);
  EXPECT_EQ(train.req.gres.at(0).per_node_min, 2);
  EXPECT_EQ(w.jobs[2].req.mem_per_node_mb, 8192);
  EXPECT_EQ(w.jobs[2].req.time_limit, 600);
  EXPECT_TRUE(w.jobs[5].moldable_runtime);
  EXPECT_TRUE(w.jobs[5].req.contiguous);
  EXPECT_EQ(w.jobs[5].req.gres.at(0).per_node_max, 2);
  EXPECT_EQ(w.jobs[6].req.ntasks, 4);  // inferred from -N 2 --ntasks-per-node=2
  expect_same_jobs(w, round_trip(w, "tiny"));
}

TEST(JobFile, OptionSpellings) {
  const auto dir = scratch_dir("jobs-spell");
  const std::string path =
      write_file(dir / "s.jobs", header() +
                                     "1 0 10 --ntasks=8 --nodes=2-4 --time=1-02 --mem 2G\n"
                                     "2 0 10 -n8 -N2 -t5:00 --gres gpu,mic:2\n"
                                     "3 0 10 -N 3  # trailing comment\n"
                                     "4 0 10 -n 1 --mem=1536K --gres=gpu:0-2\n"
                                     "5 0 10 -n 1 --mem=3 -t 1:00:00\n");
  const Workload w = read_job_file(path);
  ASSERT_EQ(w.jobs.size(), 5u);
  EXPECT_EQ(w.jobs[0].req.ntasks, 8);
  EXPECT_EQ(w.jobs[0].req.nodes_min, 2);
  EXPECT_EQ(w.jobs[0].req.nodes_max, 4);
  EXPECT_EQ(w.jobs[0].req.time_limit, 86400 + 2 * 3600);
  EXPECT_EQ(w.jobs[0].req.mem_per_node_mb, 2048);
  EXPECT_EQ(w.jobs[1].req.ntasks, 8);
  EXPECT_EQ(w.jobs[1].req.time_limit, 300);
  ASSERT_EQ(w.jobs[1].req.gres.size(), 2u);
  EXPECT_EQ(w.jobs[1].req.gres[0].per_node_min, 1);  // "gpu" alone = 1
  EXPECT_EQ(w.jobs[1].req.gres[1].name, "mic");
  EXPECT_EQ(w.jobs[2].req.ntasks, 3);               // one task per node by default
  EXPECT_TRUE(w.jobs[2].req.ntasks_implied);        // ... which sbatch would not send
  EXPECT_FALSE(w.jobs[1].req.ntasks_implied);
  EXPECT_EQ(format_job_options(w.jobs[2].req), "-N 3");  // written back without -n
  JobRequest exact;  // nodes_max 0 (a sacct record's exact count) reads back as the same
  exact.ntasks = 4;
  exact.nodes_min = 2;
  EXPECT_EQ(format_job_options(exact), "-n 4 -N 2");
  exact.nodes_min = 0, exact.nodes_max = 3;
  EXPECT_EQ(format_job_options(exact), "-n 4 -N 0-3");
  exact.nodes_from_partition = true;  // the partition's MaxNodes, not the job's -N
  EXPECT_EQ(format_job_options(exact), "-n 4");
  EXPECT_EQ(w.jobs[3].req.mem_per_node_mb, 2);      // 1.5 MB rounded up
  EXPECT_EQ(w.jobs[3].req.gres[0].per_node_min, 0);
  EXPECT_EQ(w.jobs[4].req.mem_per_node_mb, 3);
  EXPECT_EQ(w.jobs[4].req.time_limit, 3600);
}

// -C, -w, -x and --exclusive as sbatch writes them, and back.
TEST(JobFile, NodeRulesParseAndRoundTrip) {
  const auto dir = scratch_dir("jobs-node-rules");
  const std::string path = write_file(
      dir / "r.jobs", header() +
                          "1 0 10 -n 4 -C a100&ib -w n[1-2],m3 -x n5 --exclusive -t 1:00\n"
                          "2 0 10 -n 4 --constraint=a|b --nodelist=n7 --exclude=n[8-9]\n");
  const Workload w = read_job_file(path);
  const JobRequest& r = w.jobs[0].req;
  EXPECT_EQ(r.node_rules().constraint.features, (std::vector<std::string>{"a100", "ib"}));
  EXPECT_FALSE(r.node_rules().constraint.any);
  EXPECT_EQ(r.node_rules().nodelist, (std::vector<std::string>{"n1", "n2", "m3"}));
  EXPECT_EQ(r.node_rules().exclude, (std::vector<std::string>{"n5"}));
  EXPECT_TRUE(r.exclusive);
  EXPECT_TRUE(w.jobs[1].req.node_rules().constraint.any);
  EXPECT_EQ(format_job_options(r), "-n 4 -t 00:01:00 -C a100&ib -w n[1-2],m3 -x n5 --exclusive");
  EXPECT_EQ(format_job_options(w.jobs[1].req), "-n 4 -C a|b -w n7 -x n[8-9]");
}

TEST(JobFile, ErrorsNameFileLineFieldAndValue) {
  struct Case {
    const char* line;
    const char* field;
    const char* value;
  };
  const Case cases[] = {
      {"1 0 10 -n 4 --exclusive=user", "--exclusive", "--exclusive=user"},
      {"1 0 10 -n 4 -x n[3-1]", "-x", "n[3-1]"},
      {"1 0 10 -n 4 -w", "-w", ""},
      {"1 0 10 -n 4 -C a&b|c", "-C", "a&b|c"},
      {"1 0 10 -n 4 -C [a|b]", "-C", "[a|b]"},
      {"1 0 10 -n 4 -C a*2", "-C", "a*2"},
      {"1 0 10 -n 4 --constraint=a&&b", "--constraint", "a&&b"},
      {"1 0 10 -n 4 color=red", "color", "red"},
      {"1 0 10 -n 4 submit_ms=1000", "submit_ms", "1000"},
      {"1 0 10 -n 4 submit_ms=-1", "submit_ms", "-1"},
      {"1 0 10 -n 4 end_latency_ms=-1", "end_latency_ms", "-1"},
      {"1 0 10 -n 4 end_latency_ms=60001", "end_latency_ms", "60001"},
      {"1 0 10 -n 4 epilog_ms=-3", "epilog_ms", "-3"},
      {"1 0 10 -n 4 epilog_ms=x", "epilog_ms", "x"},
      {"1 0 10 -n 4 epilog_by=rpc", "epilog_by", "rpc"},
      {"1 0 10 -n 4 epilog_nodes=n1", "epilog_nodes", "n1"},
      {"1 0 10 -n 4 epilog_nodes=n1:4,:5", "epilog_nodes", ":5"},
      {"1 0 10 -n 4 epilog_nodes=n1:4x", "epilog_nodes", "4x"},
      {"1 0 10 -n 4 epilog_nodes=n1:70000", "epilog_nodes", "70000"},
      {"1 0 10 -n four", "-n", "four"},
      {"1 0 10 -n 0", "-n", "0"},
      {"1 0 10 -n 4 -n 5", "-n", "5"},
      {"1 0 10 -n", "-n", ""},
      {"1 0 10 -N 4-2", "-N", "4-2"},
      {"1 0 10 -N 2-", "-N", "2-"},
      {"1 0 10 -N 0", "-N", "0"},
      {"1 0 10 -N -", "-N", "-"},
      {"1 0 10 -n 1 --gres=gpu:3-1", "--gres", "gpu:3-1"},
      {"1 0 10 -n 1 --gres=gpu:tesla:1-2", "--gres", "gpu:tesla:1-2"},
      {"1 0 10 -n 1 --gres=gpu:a100:1,gpu:v100:1", "--gres", "gpu:a100:1,gpu:v100:1"},
      {"1 0 10 -n 1 --gres=gpu:a100:x", "--gres", "gpu:a100:x"},
      {"1 0 10 -n 1 --gres=gpu:!a:1", "--gres", "gpu:!a:1"},
      {"1 0 10 -n 1 --gres=gpu:1,gpu:2", "--gres", "gpu:1,gpu:2"},
      {"1 0 10 -n 1 --gres=", "--gres", ""},
      {"1 0 10 -n 1 --gres=:2", "--gres", ":2"},
      {"1 0 10 -n 1 --mem=4X", "--mem", "4X"},
      {"1 0 10 -n 1 --mem=0", "--mem", "0"},
      {"1 0 10 -n 1 -t 1:2:3:4", "-t", "1:2:3:4"},
      {"1 0 10 -n 1 -t 0", "-t", "0"},
      {"1 0 10 -n 1 --contiguous=yes", "--contiguous", "--contiguous=yes"},
      {"1 0 10 -n 1 moldable=maybe", "moldable", "maybe"},
      {"1 0 10 -n 1 user=a%2", "user", "a%2"},
      {"1 0 10 -n 1 user=a%zz", "user", "a%zz"},
      {"1 0 10", "-n", ""},
      {"1 0", "job", "1 0"},
      {"x 0 10 -n 1", "id", "x"},
      {"1 -5 10 -n 1", "submit", "-5"},
      {"1 0 -1 -n 1", "runtime", "-1"},
      {"1 0 10 -n 1 stray", "option", "stray"},
  };
  const auto dir = scratch_dir("jobs-bad");
  for (const Case& c : cases) {
    const std::string path = write_file(dir / "bad.jobs", header() + "# ok\n" + c.line + "\n");
    const InputError e = expect_input_error([&] { read_job_file(path); });
    EXPECT_EQ(e.where().file, path);
    EXPECT_EQ(e.where().line, 3) << c.line;
    EXPECT_EQ(e.field(), c.field) << c.line << " | " << e.what();
    EXPECT_EQ(e.value(), c.value) << c.line << " | " << e.what();
  }
}

TEST(JobFile, HeaderAndDuplicateIds) {
  const auto dir = scratch_dir("jobs-header");
  EXPECT_EQ(expect_input_error([&] {
              read_job_file(write_file(dir / "a.jobs", "1 0 10 -n 1\n"));
            }).field(),
            "header");
  EXPECT_EQ(expect_input_error([&] { read_job_file(write_file(dir / "b.jobs", "")); }).field(),
            "header");
  const InputError dup = expect_input_error([&] {
    read_job_file(write_file(dir / "c.jobs", header() + "1 0 10 -n 1\n1 5 10 -n 1\n"));
  });
  EXPECT_EQ(dup.field(), "id");
  EXPECT_EQ(dup.where().line, 3);
  EXPECT_EQ(read_job_file(write_file(dir / "d.jobs", "\n" + header())).jobs.size(), 0u);
}

TEST(JobFile, LoadWorkloadFilePicksFormatAndSorts) {
  const auto dir = scratch_dir("jobs-load");
  const std::string jobs = write_file(dir / "mixed.jobs", header() +
                                                              "5 20 10 -n 1\n"
                                                              "3 20 10 -n 1\n"
                                                              "9 0 10 -n 1\n");
  const Workload w = load_workload_file(jobs);
  ASSERT_EQ(w.jobs.size(), 3u);
  EXPECT_EQ(w.jobs[0].id, 9);
  EXPECT_EQ(w.jobs[1].id, 3);
  EXPECT_EQ(w.jobs[2].id, 5);

  const std::string swf_line = "4 50 0 10 2 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1\n"
                               "2 10 0 10 2 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1\n";
  EXPECT_EQ(load_workload_file(write_file(dir / "t.swf", swf_line)).jobs.front().id, 2);
  const std::string gz = (dir / "trace.data").string();  // gzip, no telling name
  gzFile out = gzopen(gz.c_str(), "wb");
  ASSERT_NE(out, nullptr);
  gzputs(out, swf_line.c_str());
  gzclose(out);
  EXPECT_EQ(load_workload_file(gz).jobs.size(), 2u);
  // A job file given a .swf name is read as SWF and fails on its first line ('#' is no
  // SWF comment), with the location.
  const InputError e = expect_input_error([&] {
    load_workload_file(write_file(dir / "wrong.swf", header() + "1 0 10 -n 1\n"));
  });
  EXPECT_EQ(e.where().line, 1);
  EXPECT_EQ(e.field(), "record");
}

TEST(JobFile, GresAndMemoryHelpers) {
  const InputLocation where{"x", 1};
  const auto gres = parse_gres_request("gpu:1-3,mic:1", where, "--gres");
  EXPECT_EQ(format_gres_request(gres), "gpu:1-3,mic:1");
  // Typed GRES: name:type:count, name:type (= 1); a type may start with a digit.
  const auto typed = parse_gres_request("gpu:a100:2,mic:1080ti,fpga:3", where, "--gres");
  ASSERT_EQ(typed.size(), 3u);
  EXPECT_EQ(typed[0].name, "gpu");
  EXPECT_EQ(typed[0].kind, "a100");
  EXPECT_EQ(typed[0].per_node_min, 2);
  EXPECT_EQ(typed[0].per_node_max, 2);
  EXPECT_EQ(typed[1].kind, "1080ti");
  EXPECT_EQ(typed[1].per_node_min, 1);
  EXPECT_EQ(typed[2].kind, "");
  EXPECT_EQ(typed[2].per_node_min, 3);
  EXPECT_EQ(format_gres_request(typed), "gpu:a100:2,mic:1080ti:1,fpga:3");
  EXPECT_EQ(parse_memory_mb("1T", where, "--mem"), 1024 * 1024);
  EXPECT_EQ(parse_memory_mb("1k", where, "--mem"), 1);
  expect_input_error([&] { parse_memory_mb("99999999999T", where, "--mem"); });
}

// Issue 22 (3): nothing to replay is an input error, not a clean run of 0 jobs.
TEST(JobFile, LoadWorkloadFileRefusesFilesWithNoJobs) {
  const auto dir = scratch_dir("jobs-none");
  const std::string skipped = "1 0 -1 0 4 -1 -1 4 100 -1 1 1 1 -1 1 -1 -1 -1\n";
  const std::pair<std::string, std::string> cases[] = {
      {"empty.swf", ""},
      {"comments.swf", "; Version: 2.2\n; MaxProcs: 128\n"},
      {"header-only.jobs", header() + "# no jobs yet\n\n"},
      {"all-skipped.swf", skipped},
  };
  for (const auto& [name, text] : cases) {
    const std::string path = write_file(dir / name, text);
    const InputError e = expect_input_error([&] { load_workload_file(path); });
    EXPECT_EQ(e.where().file, path);
    EXPECT_EQ(e.field(), "file");
    EXPECT_NE(std::string(e.what()).find("no jobs in " + path), std::string::npos) << e.what();
  }
  const std::string all_skipped = (dir / "all-skipped.swf").string();
  const InputError why = expect_input_error([&] { load_workload_file(all_skipped); });
  EXPECT_NE(std::string(why.what()).find("1 records skipped: run time <= 0"), std::string::npos)
      << why.what();
}

// Issue 22 (1): a missing path or a directory is named as such.
TEST(JobFile, MissingFileAndDirectoryAreNamed) {
  const auto dir = scratch_dir("jobs-missing");
  const std::string missing = (dir / "nope.swf").string();
  const InputError gone = expect_input_error([&] { load_workload_file(missing); });
  EXPECT_EQ(gone.value(), missing);
  EXPECT_EQ(gone.problem(), "no such file");
  const InputError folder = expect_input_error([&] { load_workload_file(dir.string()); });
  EXPECT_EQ(folder.value(), dir.string());
  EXPECT_EQ(folder.problem(), "is a directory, not a file");
}

}  // namespace
}  // namespace hs
