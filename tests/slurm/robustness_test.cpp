// Randomised replays mixing every request kind, on a flat and on a tree cluster, under
// every mode: the independent checker must find nothing and no job may stall.
#include <gtest/gtest.h>

#include "policy/slurm/slurm_scheduler.hpp"
#include "sim/bind.hpp"
#include "sim/invariant_checker.hpp"
#include "sim/simulator.hpp"
#include "slurm_test_util.hpp"
#include "util/rng.hpp"

namespace hs::slurm {
namespace {

// 32 nodes x (8 cores, 2 GPUs); with `tree`, 4 leaf switches of 8 under two middle ones.
Cluster mixed_cluster(bool tree) {
  Cluster c = testing::make_cluster(32, 8, 2);
  if (!tree) return c;
  testing::add_two_level_tree(c, 8);
  return c;
}

testing::Req random_request(Rng& rng, Time submit) {
  testing::Req r;
  r.submit = submit;
  r.limit = 60 * rng.uniform_int(2, 40);
  r.run = std::max<Time>(1, r.limit - rng.uniform_int(0, r.limit / 2));
  switch (rng.uniform_int(0, 4)) {
    case 0:  // cores only
      r.ntasks = static_cast<int>(rng.uniform_int(1, 96));
      break;
    case 1:  // nodes and cores
      r.nodes_min = static_cast<int>(rng.uniform_int(1, 8));
      r.ntasks = r.nodes_min * static_cast<int>(rng.uniform_int(1, 8));
      break;
    case 2:  // tasks per node with GPUs
      r.per_node = static_cast<int>(rng.uniform_int(1, 4));
      r.ntasks = r.per_node * static_cast<int>(rng.uniform_int(1, 6));
      r.gpus = static_cast<int>(rng.uniform_int(1, 2));
      break;
    case 3:  // node range with a GPU range
      r.nodes_min = static_cast<int>(rng.uniform_int(1, 4));
      r.nodes_max = r.nodes_min + static_cast<int>(rng.uniform_int(0, 4));
      r.ntasks = r.nodes_max * 2;
      r.gpus = 1;
      r.gpus_max = 2;
      break;
    default:  // contiguous
      r.nodes_min = static_cast<int>(rng.uniform_int(1, 6));
      r.ntasks = r.nodes_min * 4;
      r.contiguous = true;
      break;
  }
  return r;
}

void replay_random(bool tree, const std::string& options, std::uint64_t seed) {
  const Cluster c = mixed_cluster(tree);
  Rng rng(seed);
  Workload w;
  for (int i = 0; i < 300; ++i)
    w.jobs.push_back(testing::make_job(random_request(rng, 15 * i), i + 1));
  bind_workload(c, w);
  Params p = Params::parse(options, "<test>");
  SlurmScheduler s(slurm_config_from(p));
  const SimResult r = simulate(c, w, s, {});
  const CheckReport check = check_run(c, w, r);
  EXPECT_TRUE(check.ok()) << options << ": " << (check.ok() ? "" : check.violations.front());
  EXPECT_EQ(r.stalled, 0) << options;
  EXPECT_EQ(r.rejected, 0) << options;  // every request here fits the idle cluster
}

TEST(SlurmRobustness, FlatClusterEveryMode) {
  for (const char* o : {"mode=conservative", "mode=easy", "scheduler_type=builtin",
                        "priority=multifactor", "mode=easy,priority=multifactor"})
    replay_random(false, o, 7);
}

TEST(SlurmRobustness, TreeClusterBothTopSwitchRules) {
  for (const char* o : {"mode=conservative", "mode=easy", "topology_top=lowest",
                        "topology=false", "priority=multifactor,topology_top=lowest"})
    replay_random(true, o, 11);
}

}  // namespace
}  // namespace hs::slurm
