#pragma once
// Small builders shared by the Slurm model's tests.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/bind.hpp"

#include "model/cluster.hpp"
#include "support/uniform_cluster.hpp"
#include "model/job.hpp"
#include "sim/cluster_state.hpp"

namespace hs::slurm::testing {

inline Cluster make_cluster(int nodes, int cores, int gpus = 0) { return test::uniform_cluster(nodes, cores, gpus); }

struct Req {
  int ntasks = 1;
  int nodes_min = 0;
  int nodes_max = 0;
  int per_node = 0;
  int gpus = 0;
  int gpus_max = 0;
  bool contiguous = false;
  Time limit = 3600;
  Time run = 3600;
  Time submit = 0;
};

inline Job make_job(const Req& r, std::int64_t id = 1) {
  Job j;
  j.id = id;
  j.submit = r.submit;
  j.run_time = r.run;
  j.req.ntasks = r.ntasks;
  j.req.nodes_min = r.nodes_min;
  j.req.nodes_max = r.nodes_max;
  j.req.ntasks_per_node = r.per_node;
  j.req.contiguous = r.contiguous;
  j.req.time_limit = r.limit;
  if (r.gpus > 0) j.req.gres.push_back({"gpu", 0, r.gpus, r.gpus_max > 0 ? r.gpus_max : r.gpus});
  return j;
}

// Four leaf switches of `per_leaf` consecutive nodes; leaves 0-1 and 2-3 under two middle
// switches, both under one top switch (names s0..s3, s4, s5, s6).
// Jobs 1..n from `reqs`, bound to `c` (every one must bind).
inline Workload workload_of(const Cluster& c, const std::vector<Req>& reqs) {
  Workload w;
  w.name = "test";
  for (std::size_t i = 0; i < reqs.size(); ++i)
    w.jobs.push_back(make_job(reqs[i], static_cast<std::int64_t>(i + 1)));
  EXPECT_TRUE(bind_workload(c, w).rejected.empty());
  return w;
}

inline void add_two_level_tree(Cluster& c, int per_leaf) {
  SwitchTree t;
  for (int leaf = 0; leaf < 4; ++leaf) {
    Switch s;
    s.name = "s" + std::to_string(leaf);
    for (int i = 0; i < per_leaf; ++i) s.nodes.push_back(leaf * per_leaf + i);
    t.switches.push_back(s);
  }
  Switch a, b, top;
  a.name = "s4", a.children = {0, 1};
  b.name = "s5", b.children = {2, 3};
  top.name = "s6", top.children = {4, 5};
  t.switches.push_back(a), t.switches.push_back(b), t.switches.push_back(top);
  t.finalize(c.nodes.size());
  c.topology = t;
}

// Occupies `cores` cores (and `gpus` GPUs) on node n.
inline void occupy(ClusterState& s, NodeIndex n, int cores, int gpus = 0) {
  Allocation a;
  NodeShare sh;
  sh.node = n;
  sh.cores = cores;
  sh.gres[0] = gpus;
  a.shares.push_back(sh);
  s.take(a);
}

inline std::vector<NodeIndex> nodes_of(const Allocation& a) { return a.nodes(); }
inline std::vector<int> cores_of(const Allocation& a) {
  std::vector<int> out;
  for (const auto& s : a.shares) out.push_back(s.cores);
  return out;
}

}  // namespace hs::slurm::testing
