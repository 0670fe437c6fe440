#pragma once
// Tiny simulated runs for the report tests: 4 nodes x (4 cores, 2 gpu), ten jobs, and two
// trivial schedulers that differ only in the end of the node order they fill first.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "metrics/outputs.hpp"
#include "metrics/summary.hpp"
#include "report/comparison_report.hpp"
#include "sim/bind.hpp"
#include "sim/simulator.hpp"

namespace hs::report_test {

inline Cluster tiny_cluster() {
  Cluster c;
  c.name = "tiny";
  c.gres_types = {"gpu"};
  for (int i = 0; i < 4; ++i) {
    Node n;
    n.name = "n" + std::to_string(i + 1);
    n.cores = 4;
    n.gres[0] = 2;
    c.nodes.push_back(n);
  }
  return c;
}

// Repetition r stretches run times so the summaries differ between repetitions.
inline Workload tiny_workload(int repetition) {
  Workload w;
  w.name = "tiny";
  for (int i = 0; i < 10; ++i) {
    Job j;
    j.id = i + 1;
    j.name = "j" + std::to_string(i + 1);
    j.user = "u";
    j.submit = 15 * i;
    j.run_time = 60 + 20 * (i % 4) + 13 * repetition;
    j.req.ntasks = 2 + 3 * (i % 3);  // 2, 5 or 8 cores
    j.req.time_limit = 400;
    if (i % 3 == 1) j.req.gres.push_back({"gpu", -1, 1, 1});
    w.jobs.push_back(j);
  }
  return w;
}

// First fit over nodes in ascending (or descending) order; strict FCFS.
class FirstFit : public Scheduler {
 public:
  explicit FirstFit(bool descending) : descending_(descending) {}
  std::string name() const override { return descending_ ? "last-fit" : "first-fit"; }
  Decisions decide(const SystemView& view, std::span<const Event>) override {
    Decisions d;
    ClusterState free = *view.free;
    for (JobRef j : view.pending) {
      std::optional<Allocation> a = place(view.job(j), free);
      if (!a) break;
      free.take(*a);
      d.starts.push_back({j, std::move(*a)});
    }
    return d;
  }

 private:
  std::optional<Allocation> place(const Job& job, const ClusterState& free) const {
    const int gpus = job.req.gres.empty() ? 0 : job.req.gres[0].per_node_min;
    Allocation a;
    int left = job.req.ntasks;
    for (int k = 0; k < free.node_count() && left > 0; ++k) {
      const NodeIndex n = descending_ ? free.node_count() - 1 - k : k;
      const NodeFree& f = free.node(n);
      if (f.cores == 0 || f.gres[0] < gpus) continue;
      NodeShare s;
      s.node = n;
      s.cores = std::min(f.cores, left);
      s.gres[0] = gpus;
      left -= s.cores;
      a.shares.push_back(s);
    }
    if (left > 0) return std::nullopt;
    a.sort_by_node();
    return a;
  }
  bool descending_;
};

// Simulates every (scheduler, repetition) and writes its run directory under `root`.
inline ComparisonInput make_runs(const std::string& root, int repetitions) {
  ComparisonInput in;
  in.title = "tiny on tiny";
  in.cluster_text = "4 nodes x (4 cores, 2 gpu)";
  in.workload_text = "10 hand-made jobs, repetitions 0.." + std::to_string(repetitions - 1);
  in.command = "report_test --fake";
  in.headline_metrics = {"utilization", "wait_mean", "no_such_metric", "gpu_utilization"};
  const Cluster cluster = tiny_cluster();
  for (bool descending : {false, true}) {
    FirstFit policy(descending);
    SchedulerRuns runs{policy.name(), {}};
    for (int r = 0; r < repetitions; ++r) {
      Workload w = tiny_workload(r);
      bind_workload(cluster, w);
      const SimResult result = simulate(cluster, w, policy, {});
      const std::string dir = root + "/runs/" + policy.name() + "/rep" + std::to_string(r);
      write_run_outputs(dir, cluster, w, result, summarize(cluster, w, result));
      runs.run_dirs.push_back(dir);
    }
    in.schedulers.push_back(runs);
  }
  return in;
}

inline std::string fresh_dir(const std::string& name) {
  const std::filesystem::path p = std::filesystem::temp_directory_path() / ("hs_report_" + name);
  std::filesystem::remove_all(p);
  std::filesystem::create_directories(p);
  return p.string();
}

}  // namespace hs::report_test
