// Issue 17: the burst-v run's first node-set difference. Backfill tested a job asking for
// 2 GPUs per node, then planned a cores-only job on the nodes that test had found usable
// (n[9-10]), where best fit alone takes the first set (n[1-2]).
#include <gtest/gtest.h>

#include "policy/slurm/gpu_bias.hpp"
#include "policy/slurm/select.hpp"
#include "slurm_test_util.hpp"

namespace hs::slurm {
namespace {

using testing::make_cluster;
using testing::make_job;
using testing::nodes_of;
using testing::occupy;
using V = std::vector<NodeIndex>;

std::vector<NodeIndex> all_nodes(const Cluster& c) {
  std::vector<NodeIndex> v;
  for (NodeIndex n = 0; n < c.node_count(); ++n) v.push_back(n);
  return v;
}

TEST(SlurmGpuBias, TestOfAGpuJobMarksNodesWithEnoughFreeGpus) {
  const Cluster c = make_cluster(4, 8, 2);
  ClusterState s(c);
  occupy(s, 0, 0, 1);  // one GPU left: too few for 2
  occupy(s, 1, 8, 0);  // no cores left: GPUs still count (Slurm's first test ignores cores)
  GpuBias bias;
  bias.resize(c.node_count());
  bias.note_test(c, s, make_job({.ntasks = 8, .nodes_min = 2, .gpus = 2}), all_nodes(c));
  EXPECT_EQ(std::vector<std::uint8_t>(bias.values().begin(), bias.values().end()),
            (std::vector<std::uint8_t>{0, 2, 2, 2}));
  bias.note_test(c, s, make_job({.ntasks = 8}), all_nodes(c));  // no GPUs: no mark
  EXPECT_EQ(bias.values()[1], 2);
  const std::vector<NodeIndex> some{1, 2};
  bias.reset(some, make_job({.ntasks = 8}));
  EXPECT_EQ(std::vector<std::uint8_t>(bias.values().begin(), bias.values().end()),
            (std::vector<std::uint8_t>{0, 0, 0, 2}));
}

TEST(SlurmGpuBias, AResetLeavesTheNodesTheJobMayNotUse) {
  // _sync_node_weight runs over the selected job's node sets: nodes outside the mask
  // (held by backfill's plan) or excluded by -x keep their marks.
  const Cluster c = make_cluster(4, 8, 2);
  const ClusterState s(c);
  GpuBias bias;
  bias.resize(c.node_count());
  bias.note_test(c, s, make_job({.ntasks = 4, .nodes_min = 4, .gpus = 1}), all_nodes(c));
  Job excludes_n3 = make_job({.ntasks = 1});
  excludes_n3.req.edit_node_rules().allowed =
      std::make_shared<const std::vector<char>>(std::vector<char>{1, 1, 1, 0});
  const std::vector<char> not_held{1, 0, 1, 1};
  bias.reset(all_nodes(c), excludes_n3, not_held);
  EXPECT_EQ(std::vector<std::uint8_t>(bias.values().begin(), bias.values().end()),
            (std::vector<std::uint8_t>{0, 1, 0, 1}));
}

TEST(SlurmGpuBias, CoresOnlyJobPrefersNodesAGpuJobsTestFoundUsable) {
  const Cluster c = make_cluster(8, 8, 2);
  ClusterState s(c);
  for (NodeIndex n = 0; n < 4; ++n) occupy(s, n, 0, 2);  // n0-n3: no free GPU
  GpuBias bias;
  bias.resize(c.node_count());
  bias.note_test(c, s, make_job({.ntasks = 8, .nodes_min = 2, .gpus = 2}), all_nodes(c));
  const ClusterState later(c);  // the cores-only job's test: every node free
  const Job cores_only = make_job({.ntasks = 8, .per_node = 4});
  SelectOptions plain;
  EXPECT_EQ(nodes_of(*select_nodes(c, later, cores_only, plain)), (V{0, 1}));
  SelectOptions biased;
  biased.gpu_bias = bias.values();
  EXPECT_EQ(nodes_of(*select_nodes(c, later, cores_only, biased)), (V{4, 5}));
  // A GPU job's own test sets every usable node alike: the bias does not steer it.
  const Job gpu_job = make_job({.ntasks = 8, .nodes_min = 2, .gpus = 1});
  EXPECT_EQ(nodes_of(*select_nodes(c, later, gpu_job, biased)), (V{0, 1}));
}

}  // namespace
}  // namespace hs::slurm
