// How many CPUs of each chosen node a job gets: cons_tres caps each node while it adds
// them (every node still needed keeps one core), then deals the tasks over the nodes in
// node order, one per node per round, and a node holds whole cores of what it was dealt.
// The expected figures were read from a Slurm 22.05 lab (scontrol -d show job, CPU_IDs),
// each job alone on 8 nodes of 16 CPUs: 2 sockets x 4 cores x 2 threads, or 2 x 8 x 1.
#include <gtest/gtest.h>

#include "model/request_fit.hpp"
#include "policy/slurm/select.hpp"
#include "slurm_test_util.hpp"

namespace hs::slurm {
namespace {

using testing::make_job;
using testing::occupy;
using testing::Req;
using Cpus = std::vector<int>;

// 8 nodes of 16 CPUs; threads_per_core = 2 makes each CPU a hardware thread.
Cluster lab_cluster(int threads_per_core) {
  Cluster c = testing::make_cluster(8, 16);
  for (Node& n : c.nodes) n.cpus_per_core = threads_per_core;
  return c;
}

// The CPUs each chosen node holds (whole cores where CPUs are threads), in node order.
Cpus held(const Cluster& c, const ClusterState& s, const Job& j) {
  const auto a = select_nodes(c, s, j, {});
  EXPECT_TRUE(a.has_value());
  if (!a) return {};
  EXPECT_EQ(allocation_violates_request(c, j, *a), std::nullopt);
  Cpus out;
  for (const NodeShare& sh : a->shares) out.push_back(c.nodes[sh.node].held_cores(sh.cores));
  return out;
}

Cpus held_alone(int threads_per_core, const Req& r) {
  const Cluster c = lab_cluster(threads_per_core);
  return held(c, ClusterState(c), make_job(r));
}

TEST(CpuSplit, ThreadsEveryLaterNodeKeepsACore) {
  EXPECT_EQ(held_alone(2, {.ntasks = 32, .nodes_min = 8}), (Cpus{16, 4, 2, 2, 2, 2, 2, 2}));
  EXPECT_EQ(held_alone(2, {.ntasks = 5, .nodes_min = 2}), (Cpus{4, 2}));
  EXPECT_EQ(held_alone(2, {.ntasks = 9, .nodes_min = 2}), (Cpus{8, 2}));
  EXPECT_EQ(held_alone(2, {.ntasks = 3, .nodes_min = 3}), (Cpus{2, 2, 2}));
  EXPECT_EQ(held_alone(2, {.ntasks = 17}), (Cpus{16, 2}));
  EXPECT_EQ(held_alone(2, {.ntasks = 33}), (Cpus{16, 16, 2}));
}

TEST(CpuSplit, ThreadsNodeRangeDealsTasksOverTheCaps) {
  EXPECT_EQ(held_alone(2, {.ntasks = 20, .nodes_min = 2, .nodes_max = 4}), (Cpus{14, 4, 2, 2}));
  EXPECT_EQ(held_alone(2, {.ntasks = 7, .nodes_min = 2, .nodes_max = 3}), (Cpus{4, 2, 2}));
  EXPECT_EQ(held_alone(2, {.ntasks = 30, .nodes_min = 1, .nodes_max = 4}), (Cpus{14, 14, 2, 2}));
  EXPECT_EQ(held_alone(2, {.ntasks = 12, .nodes_min = 3, .nodes_max = 6}),
            (Cpus{6, 2, 2, 2, 2, 2}));
}

TEST(CpuSplit, ThreadsUnitsDealWholeTasks) {
  const Cluster c = lab_cluster(2);
  Job j = make_job({.ntasks = 10, .nodes_min = 2, .nodes_max = 3});  // -n 5 -c 2 -N 2-3
  j.req.task_cores = 2;
  EXPECT_EQ(held(c, ClusterState(c), j), (Cpus{6, 2, 2}));
}

TEST(CpuSplit, ThreadsBusyFirstNodeStillDealtFirst) {
  const Cluster c = lab_cluster(2);
  ClusterState s(c);
  occupy(s, 0, 4);  // a 3-task job: two cores of node 0
  EXPECT_EQ(held(c, s, make_job({.ntasks = 20, .nodes_min = 2, .nodes_max = 4})),
            (Cpus{10, 8, 2, 2}));
  EXPECT_EQ(held(c, s, make_job({.ntasks = 3, .nodes_min = 3})), (Cpus{2, 2, 2}));
}

TEST(CpuSplit, CoresNodeRangeDealsTasksOverTheCaps) {
  EXPECT_EQ(held_alone(1, {.ntasks = 20, .nodes_min = 2, .nodes_max = 4}), (Cpus{14, 4, 1, 1}));
  EXPECT_EQ(held_alone(1, {.ntasks = 30, .nodes_min = 1, .nodes_max = 4}), (Cpus{14, 14, 1, 1}));
  EXPECT_EQ(held_alone(1, {.ntasks = 12, .nodes_min = 3, .nodes_max = 6}),
            (Cpus{7, 1, 1, 1, 1, 1}));
  EXPECT_EQ(held_alone(1, {.ntasks = 7, .nodes_min = 2, .nodes_max = 3}), (Cpus{5, 1, 1}));
  const Cluster c = lab_cluster(1);
  ClusterState s(c);
  occupy(s, 0, 3);
  EXPECT_EQ(held(c, s, make_job({.ntasks = 20, .nodes_min = 2, .nodes_max = 4})),
            (Cpus{11, 7, 1, 1}));
  Job units = make_job({.ntasks = 10, .nodes_min = 2, .nodes_max = 3});  // -n 5 -c 2 -N 2-3
  units.req.task_cores = 2;
  EXPECT_EQ(held(c, ClusterState(c), units), (Cpus{6, 2, 2}));
}

TEST(CpuSplit, CoresFixedNodeCountIsTheGreedySplit) {
  EXPECT_EQ(held_alone(1, {.ntasks = 32, .nodes_min = 8}), (Cpus{16, 10, 1, 1, 1, 1, 1, 1}));
  EXPECT_EQ(held_alone(1, {.ntasks = 20}), (Cpus{16, 4}));
}

// A partition's MaxNodes / MinNodes (bind_to_cluster) bound the node count; a job without -N
// still aims at the fewest nodes (select_nodes' req_nodes is then min_nodes), one with a range
// at the most the partition allows.
Cpus held_in_partition(std::int32_t min_nodes, std::int32_t max_nodes, const Req& r) {
  Cluster c = lab_cluster(1);
  Partition p;
  p.name = "lim";
  for (NodeIndex n = 0; n < c.node_count(); ++n) p.nodes.push_back(n);
  p.min_nodes = min_nodes;
  p.max_nodes = max_nodes;
  c.partitions.push_back(p);
  Job j = make_job(r);
  j.partition = "lim";
  EXPECT_EQ(bind_to_cluster(c, j), std::nullopt);
  return held(c, ClusterState(c), j);
}

TEST(CpuSplit, PartitionNodeLimitsBoundTheNodeCount) {
  EXPECT_EQ(held_in_partition(0, 4, {.ntasks = 20}), (Cpus{16, 4}));
  EXPECT_EQ(held_in_partition(0, 4, {.ntasks = 20, .nodes_min = 2, .nodes_max = 6}), (Cpus{14, 4, 1, 1}));
  EXPECT_EQ(held_in_partition(2, 0, {.ntasks = 4}), (Cpus{3, 1}));
}

}  // namespace
}  // namespace hs::slurm
