// Property test of issue 18: every scheduler either honours a job's request constraints
// (typed GRES, -C features, -x, -w, --exclusive) or rejects the job with a reason, on a
// small heterogeneous cluster read from slurm.conf; the invariant checker audits every run
// and the test re-checks each constraint from node names and features itself.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "io/job_options.hpp"
#include "io/slurm_conf.hpp"
#include "model/job_nodes.hpp"
#include "policy/registry.hpp"
#include "sim/bind.hpp"
#include "sim/invariant_checker.hpp"
#include "sim/simulator.hpp"

namespace hs {
namespace {

// c1-c2 plain, a1-a2 two A100 each, v1-v2 two V100 each, m1 one of each, u1 two untyped.
// Features: c intel, a amd, v intel, m1 amd+big, u1 old; the CPU nodes weigh most.
const char* kSlurmConf =
    "NodeName=c[1-2] CPUs=8 Features=cpu,intel Weight=5\n"
    "NodeName=a[1-2] CPUs=8 Gres=gpu:a100:2 Features=gpu,amd\n"
    "NodeName=v[1-2] CPUs=8 Gres=gpu:v100:2 Features=gpu,intel\n"
    "NodeName=m1 CPUs=8 Gres=gpu:a100:1,gpu:v100:1 Features=gpu,amd,big\n"
    "NodeName=u1 CPUs=8 Gres=gpu:2 Feature=gpu,old\n"
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
      "-n 2 -C intel -t 10:00",
      "-n 4 -C gpu&amd --gres=gpu:1 -t 10:00",
      "-n 2 -C cpu|old -t 10:00",
      "-n 2 -x c1,a[1-2] -t 10:00",
      "-n 6 -w c2,v1 -t 10:00",
      "-n 2 --exclusive -t 10:00",
      "-n 10 -N 2 --exclusive -C intel -t 10:00",
  };
  Workload w;
  w.name = "constrained";
  for (int i = 0; i < 70; ++i)
    w.jobs.push_back(job_of(i + 1, 7 * i, 60 + 37 * (i % 5),
                            shapes[static_cast<std::size_t>(i * 3) % shapes.size()]));
  return w;
}

const std::vector<std::string> kSchedulers = {
    "backfill",   "backfill-easy", "ipsched",         "aucsched1",          "aucsched2",
    "aucsched3",  "fifo+ff",       "easy+bf",         "sjf+balanced",       "prb+weighted",
    "cph+pweighted", "easy+ff+oracle"};

bool is_window(const std::string& s) {
  return s == "ipsched" || s.starts_with("aucsched");
}

// What each scheduler family may refuse (and must then say why).
bool may_reject(const std::string& spec, const Job& job) {
  const JobRequest& r = job.req;
  const bool typed = !r.gres.empty() && !r.gres[0].kind.empty();
  if (spec.starts_with("backfill")) return false;
  if (is_window(spec) && typed) return true;
  return !r.node_rules().nodelist.empty() || r.exclusive;
}

// Nodes each -C of the workload admits, written out by hand from kSlurmConf.
const std::map<std::string, std::set<std::string>> kFeatureNodes = {
    {"intel", {"c1", "c2", "v1", "v2"}},
    {"gpu&amd", {"a1", "a2", "m1"}},
    {"cpu|old", {"c1", "c2", "u1"}},
};

// Re-checks one run job's allocation against its options, from names alone.
void expect_honoured(const Cluster& cluster, const Job& job, const JobRecord& rec) {
  const JobRequest& r = job.req;
  std::set<std::string> used;
  for (const NodeShare& s : rec.alloc.unpack().shares) {
    const std::string& node = cluster.nodes[s.node].name;
    used.insert(node);
    if (!r.node_rules().constraint.empty()) {
      EXPECT_TRUE(kFeatureNodes.at(r.node_rules().constraint.text()).count(node))
          << "job " << job.id << " on " << node;
    }
    const std::vector<std::string>& exclude = r.node_rules().exclude;
    EXPECT_EQ(std::count(exclude.begin(), exclude.end(), node), 0) << "job " << job.id;
    if (r.exclusive) {
      EXPECT_EQ(s.cores, cluster.nodes[s.node].cores) << "job " << job.id;
    }
    if (!r.gres.empty() && !r.gres[0].kind.empty()) {
      const std::string& kind = r.gres[0].kind;
      const int k = cluster.gres_index("gpu:" + kind);
      EXPECT_TRUE(node[0] == kind[0] || node == "m1") << "job " << job.id << " on " << node;
      EXPECT_EQ(s.gres[k], r.gres[0].per_node_min) << "job " << job.id;
      EXPECT_EQ(s.gres[0], s.gres[k]) << "job " << job.id;
    } else {
      for (std::size_t t = 1; t < cluster.gres_types.size(); ++t)
        EXPECT_EQ(s.gres[t], 0) << "untyped job " << job.id;
    }
  }
  for (const std::string& name : r.node_rules().nodelist)
    EXPECT_TRUE(used.count(name)) << "job " << job.id;
}

// No other job overlaps an --exclusive job on any of its nodes.
void expect_alone(const Workload& w, const SimResult& result, std::size_t j) {
  const JobRecord& a = result.records[j];
  for (std::size_t k = 0; k < w.jobs.size(); ++k) {
    const JobRecord& b = result.records[k];
    if (k == j || b.status != JobStatus::Completed) continue;
    if (b.end <= a.start || b.start >= a.end) continue;
    for (const NodeShare& x : a.alloc.unpack().shares)
      for (const NodeShare& y : b.alloc.unpack().shares)
        EXPECT_NE(x.node, y.node) << "job " << w.jobs[k].id << " shares exclusive job "
                                  << w.jobs[j].id << "'s node";
  }
}

TEST(RequestConstraints, EverySchedulerHonoursConstraintsOrRejectsWithAReason) {
  const Cluster cluster = typed_cluster();
  ASSERT_EQ(cluster.gres_types, (std::vector<std::string>{"gpu", "gpu:a100", "gpu:v100"}));
  Workload workload = constrained_workload();
  ASSERT_TRUE(bind_workload(cluster, workload).rejected.empty());
  for (const std::string& spec : kSchedulers) {
    SCOPED_TRACE(spec);
    auto built = make_scheduler(spec, {});
    const SimResult result = simulate(cluster, workload, *built.scheduler, {});
    const CheckReport check = check_run(cluster, workload, result);
    EXPECT_TRUE(check.ok()) << ::testing::PrintToString(check.violations);
    int ran_constrained = 0, untyped_on_typed = 0;
    for (std::size_t j = 0; j < workload.jobs.size(); ++j) {
      const Job& job = workload.jobs[j];
      const JobRecord& rec = result.records[j];
      if (rec.status == JobStatus::Rejected) {
        EXPECT_TRUE(may_reject(spec, job)) << "job " << job.id << ": " << rec.reason;
        EXPECT_TRUE(rec.reason.find("does not model") != std::string::npos ||
                    rec.reason.find("typed gres") != std::string::npos)
            << rec.reason;
        continue;
      }
      ASSERT_TRUE(rec.status == JobStatus::Completed) << "job " << job.id << " " << rec.reason;
      expect_honoured(cluster, job, rec);
      if (job.req.exclusive) expect_alone(workload, result, j);
      ran_constrained += has_node_rules(job.req) || job.req.exclusive ||
                         (!job.req.gres.empty() && !job.req.gres[0].kind.empty());
      if (!job.req.gres.empty() && job.req.gres[0].kind.empty())
        for (const NodeShare& s : rec.alloc.unpack().shares)
          untyped_on_typed += cluster.nodes[s.node].name[0] != 'u';
    }
    EXPECT_GT(ran_constrained, 0);
    EXPECT_GT(untyped_on_typed, 0) << "untyped GPU jobs should use typed nodes too";
  }
}

// A GPU cluster of six models (as public GPU-cluster traces have), with memory: seven gres
// entries, every scheduler runs on it; typed jobs land on their model, untyped on any.
const char* kSixModelConf =
    "NodeName=t[1-2] CPUs=16 RealMemory=64000 Gres=gpu:t4:2\n"
    "NodeName=p[1-2] CPUs=16 RealMemory=64000 Gres=gpu:p100:2\n"
    "NodeName=v[1-2] CPUs=16 RealMemory=64000 Gres=gpu:v100:4\n"
    "NodeName=s[1-2] CPUs=16 RealMemory=64000 Gres=gpu:v100m16:4\n"
    "NodeName=l[1-2] CPUs=16 RealMemory=64000 Gres=gpu:v100m32:4\n"
    "NodeName=x[1-2] CPUs=16 RealMemory=64000 Gres=gpu:misc:1\n"
    "PartitionName=all Nodes=ALL Default=YES MaxTime=UNLIMITED\n";

TEST(RequestConstraints, SixGpuModelsRunUnderEveryScheduler) {
  const auto dir = std::filesystem::temp_directory_path() / "hs-six-models";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "slurm.conf") << kSixModelConf;
  const Cluster cluster = load_slurm_conf((dir / "slurm.conf").string()).cluster;
  ASSERT_EQ(cluster.gres_types.size(), 7u);
  const std::vector<std::string> shapes = {
      "-n 4 --mem=8G -t 10:00",          "-n 2 --gres=gpu:1 --mem=4G -t 10:00",
      "-n 2 --gres=gpu:v100m16:2 -t 10:00", "-n 8 -N 2 --gres=gpu:v100m32:4 -t 10:00",
      "-n 1 --gres=gpu:t4:1 -t 10:00",      "-n 4 -N 2 --gres=gpu:2 -t 10:00",
      "-n 3 --gres=gpu:misc:1 -t 10:00"};
  Workload workload;
  workload.name = "six-models";
  for (int i = 0; i < 60; ++i)
    workload.jobs.push_back(job_of(i + 1, 5 * i, 50 + 31 * (i % 4),
                                   shapes[static_cast<std::size_t>(i * 5) % shapes.size()]));
  ASSERT_TRUE(bind_workload(cluster, workload).rejected.empty());
  for (const std::string& spec : kSchedulers) {
    SCOPED_TRACE(spec);
    auto built = make_scheduler(spec, {});
    const SimResult result = simulate(cluster, workload, *built.scheduler, {});
    EXPECT_TRUE(check_run(cluster, workload, result).ok());
    int completed = 0;
    for (std::size_t j = 0; j < workload.jobs.size(); ++j) {
      const JobRecord& rec = result.records[j];
      const JobRequest& r = workload.jobs[j].req;
      const bool typed = !r.gres.empty() && !r.gres[0].kind.empty();
      if (rec.status == JobStatus::Rejected) {
        EXPECT_TRUE(is_window(spec) && typed) << rec.reason;
        continue;
      }
      ASSERT_EQ(rec.status, JobStatus::Completed) << rec.reason;
      ++completed;
      if (!typed) continue;
      const int k = cluster.gres_index("gpu:" + r.gres[0].kind);
      for (const NodeShare& share : rec.alloc.unpack().shares) {
        EXPECT_GT(cluster.nodes[share.node].gres[k], 0) << cluster.nodes[share.node].name;
        EXPECT_EQ(share.gres[k], r.gres[0].per_node_min);
      }
    }
    EXPECT_GE(completed, 25);  // window schedulers refuse the typed jobs (4 shapes of 7)
  }
}

}  // namespace
}  // namespace hs
