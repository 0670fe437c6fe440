#pragma once
// Small hand-made clusters, jobs and views for the heuristic policies' tests.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/cluster.hpp"
#include "model/job.hpp"
#include "model/request_fit.hpp"
#include "sim/scheduler.hpp"
#include "util/error.hpp"

namespace hs::heuristic::testing {

// Nodes "n0".. with the given cores and (gpu, mic) counts; gres types {gpu, mic}.
struct NodeSpec {
  std::int32_t cores;
  std::int32_t gpus = 0;
  std::int32_t mics = 0;
};

inline Cluster make_cluster(const std::vector<NodeSpec>& specs) {
  Cluster c;
  c.name = "test";
  c.gres_types = {"gpu", "mic"};
  for (std::size_t i = 0; i < specs.size(); ++i) {
    Node n;
    n.name = "n" + std::to_string(i);
    n.cores = specs[i].cores;
    n.gres[0] = specs[i].gpus;
    n.gres[1] = specs[i].mics;
    c.nodes.push_back(n);
  }
  return c;
}

struct JobSpec {
  std::int32_t ntasks;
  Time run_time = 100;
  Time limit = 1000;
  Time submit = 0;
  std::int32_t nodes = 0;
  std::int32_t per_node = 0;
  std::int32_t gpus = 0;  // per node
  std::int32_t mics = 0;  // per node
  std::string user = "u";
  std::string name = "job";
};

inline Job make_job(const Cluster& cluster, std::int64_t id, const JobSpec& s) {
  Job j;
  j.id = id;
  j.name = s.name;
  j.user = s.user;
  j.submit = s.submit;
  j.run_time = s.run_time;
  j.req.ntasks = s.ntasks;
  j.req.nodes_min = s.nodes;
  j.req.ntasks_per_node = s.per_node;
  j.req.time_limit = s.limit;
  if (s.gpus > 0) j.req.gres.push_back({"gpu", -1, s.gpus, s.gpus});
  if (s.mics > 0) j.req.gres.push_back({"mic", -1, s.mics, s.mics});
  const auto problem = bind_to_cluster(cluster, j);
  EXPECT_FALSE(problem.has_value()) << *problem;
  return j;
}

inline Workload make_workload(const Cluster& cluster, const std::vector<JobSpec>& specs) {
  Workload w;
  w.name = "test";
  for (std::size_t i = 0; i < specs.size(); ++i)
    w.jobs.push_back(make_job(cluster, static_cast<std::int64_t>(i + 1), specs[i]));
  return w;
}

// A view over explicit pending/running lists (the caller keeps everything alive).
inline SystemView make_view(const Cluster& cluster, const Workload& workload,
                            const ClusterState& free, Time now,
                            const std::vector<JobRef>& pending,
                            const std::vector<RunningJob>& running) {
  SystemView v;
  v.now = now;
  v.cluster = &cluster;
  v.workload = &workload;
  v.free = &free;
  v.pending = pending;
  v.running = running;
  return v;
}

inline std::vector<JobRef> started_jobs(const Decisions& d) {
  std::vector<JobRef> out;
  for (const auto& s : d.starts) out.push_back(s.job);
  return out;
}

}  // namespace hs::heuristic::testing
