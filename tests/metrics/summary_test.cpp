#include "metrics/summary.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "../sim/fcfs_first_fit.hpp"
#include "../sim/sim_fixtures.hpp"
#include "metrics/job_metrics.hpp"
#include "metrics/outputs.hpp"
#include "sim/invariant_checker.hpp"

namespace hs {
namespace {

using testing::add_gpus;
using testing::make_cluster;
using testing::make_job;

// 2 nodes x (4 cores, 2 gpu). J1: 4 cores 100 s at 0; J2: 4 cores + 1 gpu 50 s at 0;
// J3: 6 cores, runs 40 s but limited to 30 s, submitted at 10, starts at 100 on both nodes.
struct SmallRun {
  Cluster cluster = make_cluster(2, 4, 2);
  Workload workload;
  SimResult result;
  SmallRun() {
    Job j2 = make_job(2, 0, 4, 50, 100);
    add_gpus(j2, 1, 1);
    workload.jobs = {make_job(1, 0, 4, 100, 200), j2, make_job(3, 10, 6, 40, 30)};
    testing::FcfsFirstFit fcfs;
    result = simulate(cluster, workload, fcfs, {});
  }
};

TEST(Summary, HandComputedValues) {
  const SmallRun run;
  ASSERT_TRUE(check_run(run.cluster, run.workload, run.result).ok());
  ASSERT_EQ(run.result.records[2].start, 100);
  const Summary s = summarize(run.cluster, run.workload, run.result);
  EXPECT_EQ(s.completed, 2);
  EXPECT_EQ(s.killed, 1);
  EXPECT_EQ(s.rejected, 0);
  EXPECT_EQ(s.span, 130);
  // T_theo = (100*4 + 50*4 + min(40,30)*6) / 8 = 97.5
  EXPECT_DOUBLE_EQ(s.theoretical_runtime, 97.5);
  EXPECT_DOUBLE_EQ(s.utilization, 0.75);
  EXPECT_DOUBLE_EQ(s.core_utilization, 780.0 / (8 * 130));
  ASSERT_EQ(s.gres_utilization.size(), 1u);
  EXPECT_DOUBLE_EQ(s.gres_utilization[0], 50.0 / (4 * 130));
  EXPECT_DOUBLE_EQ(s.load_ratio_cores, s.core_utilization);
  EXPECT_DOUBLE_EQ(s.load_ratio_gres[0], s.gres_utilization[0]);
  EXPECT_FALSE(s.load_ratio_mem);
  // Waits 0, 0, 90.
  EXPECT_DOUBLE_EQ(s.wait.mean, 30);
  EXPECT_NEAR(s.wait.std, std::sqrt(1800.0), 1e-9);
  EXPECT_DOUBLE_EQ(s.wait.max, 90);
  // Nearest rank of {0, 0, 90}: the 2nd value for p50, the 3rd for p95 and p99.
  EXPECT_DOUBLE_EQ(s.wait.p50, 0);
  EXPECT_DOUBLE_EQ(s.wait.p95, 90);
  EXPECT_DOUBLE_EQ(s.wait.p99, 90);
  // Slowdowns 1, 1, (90 + 30) / 30 = 4.
  EXPECT_DOUBLE_EQ(s.slowdown.mean, 2);
  EXPECT_DOUBLE_EQ(s.bounded_slowdown.max, 4);
  EXPECT_DOUBLE_EQ(s.packing_factor.mean, 1);
  EXPECT_DOUBLE_EQ(s.fragmentation.mean, 1);
  EXPECT_DOUBLE_EQ(s.spread.mean, 1);
  EXPECT_FALSE(s.switch_level);
  // Passes at 0, 10, 50, 100, 130 with pending 0, 1, 1, 0, 0.
  EXPECT_EQ(s.passes, 5);
  EXPECT_DOUBLE_EQ(s.queue_mean, 0.4);
  EXPECT_EQ(s.queue_max, 1);
  EXPECT_DOUBLE_EQ(s.queue_time_mean, 90.0 / 130);
}

TEST(Summary, SwitchLevelWithATopology) {
  SmallRun run;
  SwitchTree tree;
  tree.switches.resize(3);
  tree.switches[0].nodes = {0};
  tree.switches[1].nodes = {1};
  tree.switches[2].children = {0, 1};
  tree.finalize(2);
  run.cluster.topology = tree;
  const Summary s = summarize(run.cluster, run.workload, run.result);
  ASSERT_TRUE(s.switch_level);
  EXPECT_DOUBLE_EQ(s.switch_level->mean, 2.0 / 3);  // 0, 0 (one node) and 2 (both leaves)
}

TEST(JobMetrics, ShapeMeasures) {
  Allocation a;
  for (NodeIndex n : {1, 3, 5, 7}) a.shares.push_back({n, 1, {}, 0});
  EXPECT_EQ(fragmentation(a), 4);
  EXPECT_DOUBLE_EQ(spread(a), 7.0 / 4);
  Allocation b;
  for (NodeIndex n : {11, 12, 21, 22}) b.shares.push_back({n, 1, {}, 0});
  EXPECT_EQ(fragmentation(b), 2);
  EXPECT_DOUBLE_EQ(spread(b), 3.0);
}

TEST(JobMetrics, PackingFactor) {
  Cluster c = make_cluster(4, 8, 2);
  c.nodes[3].cores = 16;
  Job j = make_job(1, 0, 16, 10, 10);
  EXPECT_EQ(min_nodes_possible(c, j), 1);  // the 16-core node
  Allocation a;
  for (NodeIndex n : {0, 1}) a.shares.push_back({n, 8, {}, 0});
  EXPECT_DOUBLE_EQ(*packing_factor(c, j, a), 2.0);
  add_gpus(j, 1, 1);
  c.nodes[3].gres[0] = 0;  // the big node has no gpu: two 8-core nodes needed
  EXPECT_DOUBLE_EQ(*packing_factor(c, j, a), 1.0);
  j.req.nodes_min = 4;
  EXPECT_EQ(min_nodes_possible(c, j), 4);
  j.req.nodes_min = 0;
  j.req.ntasks_per_node = 4;
  EXPECT_EQ(min_nodes_possible(c, j), 4);
}

TEST(JobMetrics, SlowdownOfShortJobs) {
  Job j = make_job(1, 0, 1, 2, 10);
  JobRecord r;
  r.start = 8;
  r.end = 10;
  const JobTiming t = job_timing(j, r);
  EXPECT_DOUBLE_EQ(t.slowdown, 5.0);          // (8 + 2) / 2
  EXPECT_DOUBLE_EQ(t.bounded_slowdown, 1.0);  // max(1, 10 / 10)
}

TEST(Outputs, JobsCsvRows) {
  const SmallRun run;
  std::ostringstream out;
  write_jobs_csv(out, run.cluster, run.workload, run.result);
  EXPECT_EQ(out.str(),
            "id,name,user,partition,submit,start,end,wait,run,status,nodes,cores,gpu,"
            "allocation,reason,time_limit,req_cores,req_nodes,req_gres\n"
            "1,j1,u,,0,0,100,0,100,completed,1,4,0,n1:4c,,200,4,,\n"
            "2,j2,u,,0,0,50,0,50,completed,1,4,1,n2:4c+1gpu,,100,4,,gpu:1\n"
            "3,j3,u,,10,100,130,90,30,killed,2,6,0,n1:4c;n2:2c,,30,6,,\n");
}

TEST(Percentiles, NearestRankOfOneToHundred) {
  std::vector<double> v;
  for (int i = 100; i >= 1; --i) v.push_back(i);
  const Stat st = describe(v);
  EXPECT_DOUBLE_EQ(st.p50, 50);
  EXPECT_DOUBLE_EQ(st.p95, 95);
  EXPECT_DOUBLE_EQ(st.p99, 99);
  EXPECT_DOUBLE_EQ(describe({7}).p50, 7);
  EXPECT_DOUBLE_EQ(describe({7}).p99, 7);
}

// Jobs with hand-set starts and ends on 16 x (8 cores, 2 gpu) = 128 cores.
struct FairnessRun {
  Cluster cluster = make_cluster(16, 8, 2);
  Workload workload;
  SimResult result;
  void add(const std::string& user, std::int32_t cores, bool gpu, Time wait, Time run) {
    Job j = make_job(static_cast<std::int64_t>(workload.jobs.size()) + 1, 0, cores, run, run);
    j.user = user;
    if (gpu) add_gpus(j, 1, 1);
    workload.jobs.push_back(j);
    JobRecord r;
    r.status = JobStatus::Completed;
    r.start = wait;
    r.end = wait + run;
    result.records.push_back(r);
  }
};

TEST(Fairness, JainIndexWorstUserAndClasses) {
  FairnessRun run;
  run.add("a", 4, false, 0, 100);     // small cpu, bsld 1
  run.add("b", 16, true, 200, 100);   // medium gres, bsld 3
  run.add("b", 64, false, 500, 100);  // large cpu, bsld 6
  JobRecord rejected;
  rejected.status = JobStatus::Rejected;
  run.workload.jobs.push_back(make_job(4, 0, 4, 10, 10));
  run.result.records.push_back(rejected);  // not counted anywhere
  const Fairness f = measure_fairness(run.cluster, run.workload, run.result);
  EXPECT_EQ(f.users, 2);
  // User means 1 and 4.5: (5.5)^2 / (2 * (1 + 20.25)).
  EXPECT_NEAR(f.user_jain, 30.25 / 42.5, 1e-12);
  EXPECT_DOUBLE_EQ(f.user_worst_bsld, 4.5);
  ASSERT_EQ(f.classes.size(), 5u);
  const std::vector<std::string> names = {"cpu", "gres", "small", "medium", "large"};
  const std::vector<std::int64_t> jobs = {2, 1, 1, 1, 1};
  const std::vector<double> waits = {250, 200, 0, 200, 500};
  for (std::size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(f.classes[i].name, names[i]);
    EXPECT_EQ(f.classes[i].jobs, jobs[i]) << names[i];
    EXPECT_DOUBLE_EQ(f.classes[i].wait_mean, waits[i]) << names[i];
  }
  EXPECT_DOUBLE_EQ(f.classes[0].bounded_slowdown_mean, 3.5);
}

TEST(Fairness, SizeClassBoundaries) {
  Job j = make_job(1, 0, 32, 10, 10);
  EXPECT_STREQ(job_size_class(j, 1024), "small");  // 1/32 exactly
  j.req.ntasks = 33;
  EXPECT_STREQ(job_size_class(j, 1024), "medium");
  j.req.ntasks = 256;
  EXPECT_STREQ(job_size_class(j, 1024), "medium");  // 1/4 exactly
  j.req.ntasks = 257;
  EXPECT_STREQ(job_size_class(j, 1024), "large");
}

// docs/metrics.md's jobs.csv table: its column names, in order, with "<gres>" for gres columns.
std::vector<std::string> documented_jobs_columns() {
  std::ifstream doc(std::string(HETSCHED_SOURCE_DIR) + "/docs/metrics.md");
  std::string line;
  bool in_table = false;
  std::vector<std::string> columns;
  while (std::getline(doc, line)) {
    if (line.rfind("**jobs.csv**", 0) == 0) in_table = true;
    if (!in_table) continue;
    if (line.rfind("| `", 0) == 0) {
      const auto end = line.find('`', 3);
      columns.push_back(line.substr(3, end - 3));
    } else if (!columns.empty() && line.empty()) {
      break;
    }
  }
  return columns;
}

TEST(Outputs, JobsCsvSchemaIsDocumented) {
  const SmallRun run;  // one gres type: gpu
  std::ostringstream out;
  write_jobs_csv(out, run.cluster, run.workload, run.result);
  const std::string header = out.str().substr(0, out.str().find('\n'));
  std::string documented;
  for (const std::string& c : documented_jobs_columns())
    documented += (documented.empty() ? "" : ",") + (c == "<gres>" ? std::string("gpu") : c);
  EXPECT_EQ(header, documented);
}

TEST(Outputs, AllocationTextGroupsNodesIntoHostlists) {
  const Cluster c = make_cluster(12, 4, 2);  // n1..n12
  Allocation a;
  for (NodeIndex n : {0, 1, 2, 3, 5, 9}) a.shares.push_back({n, 4, {2, 0, 0, 0}, 0});
  a.shares.push_back({10, 2, {}, 512});
  a.shares.push_back({11, 4, {2, 0, 0, 0}, 0});
  EXPECT_EQ(allocation_text(c, a), "n[1-4,6,10]:4c+2gpu;n11:2c+512M;n12:4c+2gpu");
  EXPECT_EQ(allocation_text(c, Allocation{}), "");
}

TEST(Outputs, RejectedJobsKeepTheirReasonQuoted) {
  SmallRun run;
  run.workload.jobs.push_back(make_job(4, 20, 99, 10, 10));
  testing::FcfsFirstFit fcfs;
  run.result = simulate(run.cluster, run.workload, fcfs, {});
  std::ostringstream out;
  write_jobs_csv(out, run.cluster, run.workload, run.result);
  EXPECT_NE(out.str().find("4,j4,u,,20,,,,,rejected,0,0,0,,\"needs 99 cores, the best"),
            std::string::npos)
      << out.str();
}

TEST(Outputs, QueueAndUsageSeries) {
  const SmallRun run;
  std::ostringstream queue, usage;
  write_queue_csv(queue, run.result);
  EXPECT_EQ(queue.str(), "time,pending,running\n0,0,2\n10,1,2\n50,1,1\n100,0,1\n130,0,0\n");
  write_usage_csv(usage, run.cluster, run.result);
  EXPECT_EQ(usage.str(),
            "time,used_cores,used_gpu,used_mem_mb\n0,8,1,0\n50,4,0,0\n100,6,0,0\n130,0,0,0\n");
}

TEST(Outputs, SummaryFilesListEveryField) {
  const SmallRun run;
  const Summary s = summarize(run.cluster, run.workload, run.result);
  std::ostringstream csv, json, table;
  write_summary_csv(csv, s);
  write_summary_json(json, s);
  print_summary(s, table);
  EXPECT_NE(csv.str().find("\nutilization,0.75\n"), std::string::npos) << csv.str();
  EXPECT_NE(csv.str().find("\nkilled,1\n"), std::string::npos);
  EXPECT_NE(json.str().find("\"theoretical_runtime\": 97.5,"), std::string::npos) << json.str();
  EXPECT_NE(table.str().find("gpu_utilization"), std::string::npos);
  EXPECT_EQ(json.str().back(), '\n');
}

std::string read_all(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(Outputs, TwoRunsWriteByteIdenticalFiles) {
  const Cluster c = make_cluster(16, 8, 2);
  Workload w;
  for (int i = 0; i < 400; ++i) {
    Job j = make_job(i + 1, i * 7, 1 + (i * 29) % 60, 5 + (i * 53) % 700, 400);
    if (i % 4 == 1) add_gpus(j, 1, 2);
    if (i % 9 == 0) j.req.contiguous = true;
    w.jobs.push_back(j);
  }
  const auto dir = std::filesystem::temp_directory_path() / "hetsched_metrics_determinism";
  std::filesystem::remove_all(dir);
  for (const char* sub : {"a", "b"}) {
    testing::FcfsFirstFit fcfs;
    SimConfig cfg;
    cfg.periodic_interval = 30;
    const SimResult r = simulate(c, w, fcfs, cfg);
    write_run_outputs((dir / sub).string(), c, w, r, summarize(c, w, r));
  }
  for (const char* f : {"jobs.csv", "summary.csv", "summary.json", "queue.csv", "usage.csv"}) {
    const std::string a = read_all(dir / "a" / f);
    EXPECT_FALSE(a.empty()) << f;
    EXPECT_EQ(a, read_all(dir / "b" / f)) << f;
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace hs
