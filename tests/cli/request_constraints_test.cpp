// Property test of issue 18: every scheduler either honours a job's request constraints
// (typed GRES so far) or rejects the job with a reason, on a small heterogeneous cluster
// read from slurm.conf; the independent invariant checker audits every run.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "io/job_options.hpp"
#include "io/slurm_conf.hpp"
#include "policy/registry.hpp"
#include "sim/bind.hpp"
#include "sim/invariant_checker.hpp"
#include "sim/simulator.hpp"

namespace hs {
namespace {

// c1-c2 plain, a1-a2 two A100 each, v1-v2 two V100 each, m1 one of each, u1 two untyped.
const char* kSlurmConf =
    "NodeName=c[1-2] CPUs=8\n"
    "NodeName=a[1-2] CPUs=8 Gres=gpu:a100:2\n"
    "NodeName=v[1-2] CPUs=8 Gres=gpu:v100:2\n"
    "NodeName=m1 CPUs=8 Gres=gpu:a100:1,gpu:v100:1\n"
    "NodeName=u1 CPUs=8 Gres=gpu:2\n"
    "PartitionName=all Nodes=ALL Default=YES MaxTime=UNLIMITED\n";

Cluster typed_cluster() {
  const auto dir = std::filesystem::temp_directory_path() / "hs-request-constraints";
  std::filesystem::create_directories(dir);
  const auto path = dir / "slurm.conf";
  std::ofstream(path) << kSlurmConf;
  return load_slurm_conf(path.string()).cluster;
}

Job job_of(std::int64_t id, Time submit, Time run, const std::string& options) {
  Job j;
  j.id = id;
  j.name = "j" + std::to_string(id);
  j.user = "u" + std::to_string(id % 3);
  j.submit = submit;
  j.run_time = run;
  std::vector<std::string_view> tokens;
  for (std::size_t at = 0; at < options.size();) {
    const std::size_t space = std::min(options.find(' ', at), options.size());
    tokens.push_back(std::string_view(options).substr(at, space - at));
    at = space + 1;
  }
  parse_job_options(tokens, j.req, {"<test>", static_cast<int>(id)});
  return j;
}

// A deterministic mix of plain, untyped-GPU and typed-GPU jobs that keeps the machine busy.
Workload constrained_workload() {
  const std::vector<std::string> shapes = {
      "-n 4 -t 10:00",
      "-n 2 --gres=gpu:1 -t 10:00",
      "-n 2 --gres=gpu:a100:1 -t 10:00",
      "-n 8 -N 2 --gres=gpu:v100:2 -t 10:00",
      "-n 4 -N 2 --gres=gpu:2 -t 10:00",
      "-n 1 --gres=gpu:a100:2 -t 10:00",
      "-n 3 --gres=gpu:v100:1 -t 10:00",
  };
  Workload w;
  w.name = "constrained";
  for (int i = 0; i < 42; ++i)
    w.jobs.push_back(job_of(i + 1, 7 * i, 60 + 37 * (i % 5),
                            shapes[static_cast<std::size_t>(i * 5) % shapes.size()]));
  return w;
}

const std::vector<std::string> kSchedulers = {
    "backfill",   "backfill-easy", "ipsched",         "aucsched1",          "aucsched2",
    "aucsched3",  "fifo+ff",       "easy+bf",         "sjf+balanced",       "prb+weighted",
    "cph+pweighted", "easy+ff+oracle"};

bool is_window(const std::string& s) {
  return s == "ipsched" || s.starts_with("aucsched");
}

struct Run {
  std::string scheduler;
  SimResult result;
};

TEST(RequestConstraints, EverySchedulerHonoursTypedGresOrRejectsWithAReason) {
  const Cluster cluster = typed_cluster();
  ASSERT_EQ(cluster.gres_types, (std::vector<std::string>{"gpu", "gpu:a100", "gpu:v100"}));
  Workload workload = constrained_workload();
  ASSERT_TRUE(bind_workload(cluster, workload).rejected.empty());
  const int a100 = cluster.gres_index("gpu:a100"), v100 = cluster.gres_index("gpu:v100");
  for (const std::string& spec : kSchedulers) {
    SCOPED_TRACE(spec);
    auto built = make_scheduler(spec, {});
    const SimResult result = simulate(cluster, workload, *built.scheduler, {});
    const CheckReport check = check_run(cluster, workload, result);
    EXPECT_TRUE(check.ok()) << ::testing::PrintToString(check.violations);
    int typed_ran = 0, untyped_on_typed = 0;
    for (std::size_t j = 0; j < workload.jobs.size(); ++j) {
      const Job& job = workload.jobs[j];
      const JobRecord& rec = result.records[j];
      const bool typed = !job.req.gres.empty() && !job.req.gres[0].kind.empty();
      if (rec.status == JobStatus::Rejected) {
        EXPECT_TRUE(typed && is_window(spec)) << "job " << job.id << ": " << rec.reason;
        EXPECT_NE(rec.reason.find("typed gres"), std::string::npos) << rec.reason;
        continue;
      }
      ASSERT_TRUE(rec.status == JobStatus::Completed) << "job " << job.id;
      for (const NodeShare& s : rec.alloc.shares) {
        const std::string& node = cluster.nodes[s.node].name;
        if (typed) {
          const std::string& kind = job.req.gres[0].kind;
          const int k = kind == "a100" ? a100 : v100;
          EXPECT_TRUE(node[0] == kind[0] || node == "m1") << "job " << job.id << " on " << node;
          EXPECT_EQ(s.gres[k], job.req.gres[0].per_node_min) << "job " << job.id;
          EXPECT_EQ(s.gres[0], s.gres[k]) << "job " << job.id;
        } else if (!job.req.gres.empty()) {
          EXPECT_EQ(s.gres[a100] + s.gres[v100], 0) << "untyped job " << job.id;
          untyped_on_typed += node[0] != 'u';
        }
      }
      typed_ran += typed;
    }
    EXPECT_EQ(typed_ran > 0, !is_window(spec));
    EXPECT_GT(untyped_on_typed, 0) << "untyped GPU jobs should use typed nodes too";
  }
}

}  // namespace
}  // namespace hs
