#include "model/request_fit.hpp"

#include <gtest/gtest.h>

namespace hs {
namespace {

// n1..n4: 8 cores, 2 gpu; n5, n6: 4 cores, no gpu, 1000 MB; n7: 16 cores, 0 gpu, 4000 MB.
Cluster mixed_cluster() {
  Cluster c;
  c.gres_types = {"gpu", "mic"};
  auto add = [&](const std::string& name, int cores, int gpu, std::int64_t mem) {
    Node n;
    n.name = name;
    n.cores = cores;
    n.gres[0] = gpu;
    n.memory_mb = mem;
    c.nodes.push_back(n);
  };
  for (int i = 1; i <= 4; ++i) add("n" + std::to_string(i), 8, 2, 0);
  add("n5", 4, 0, 1000);
  add("n6", 4, 0, 1000);
  add("n7", 16, 0, 4000);
  return c;
}

Job job_with(std::int32_t ntasks) {
  Job j;
  j.id = 1;
  j.run_time = 10;
  j.req.ntasks = ntasks;
  j.req.time_limit = 100;
  return j;
}

void add_gpu(Job& j, std::int32_t min, std::int32_t max) {
  j.req.gres.push_back({"gpu", 0, min, max});
}

NodeShare share(NodeIndex n, std::int32_t cores, std::int32_t gpu = 0, std::int64_t mem = 0) {
  NodeShare s;
  s.node = n;
  s.cores = cores;
  s.gres[0] = gpu;
  s.mem_mb = mem;
  return s;
}

std::string reason_of(const std::optional<std::string>& r) { return r.value_or("<none>"); }

// ---- bind_to_cluster ----

TEST(BindToCluster, ResolvesGresNames) {
  const Cluster c = mixed_cluster();
  Job j = job_with(1);
  j.req.gres.push_back({"mic", -1, 1, 1});
  EXPECT_FALSE(bind_to_cluster(c, j));
  EXPECT_EQ(j.req.gres[0].type, 1);
}

TEST(BindToCluster, UnknownGresIsAReason) {
  const Cluster c = mixed_cluster();
  Job j = job_with(1);
  j.req.gres.push_back({"fpga", -1, 1, 1});
  EXPECT_EQ(reason_of(bind_to_cluster(c, j)), "unknown gres type 'fpga'");
}

// Issue 22 (2): on a cluster without partitions a named partition is unknown, with or
// without a time limit, never silently ignored.
TEST(BindToCluster, NoPartitionsMeansEveryNamedPartitionIsUnknownAndALimitIsNeeded) {
  Cluster c = mixed_cluster();
  c.name = "S";
  Job j = job_with(1);
  EXPECT_FALSE(bind_to_cluster(c, j));
  const std::string unknown = "unknown partition 'anything' (cluster S has no partitions)";
  j.partition = "anything";
  EXPECT_EQ(reason_of(bind_to_cluster(c, j)), unknown);
  EXPECT_EQ(reason_of(never_runnable_reason(c, j)), unknown);
  j.req.time_limit = 0;
  EXPECT_EQ(reason_of(bind_to_cluster(c, j)), unknown);
  j.partition.clear();
  EXPECT_EQ(reason_of(bind_to_cluster(c, j)), "no time limit");
}

Cluster with_partitions() {
  Cluster c = mixed_cluster();
  Partition batch;
  batch.name = "batch";
  batch.nodes = {0, 1, 2, 3};
  batch.max_time = 3600;
  batch.default_time = 600;
  batch.is_default = true;
  Partition big;
  big.name = "big";
  big.nodes = {4, 5, 6};
  big.max_time = 7200;
  Partition open;
  open.name = "open";
  open.nodes = {6};
  c.partitions = {batch, big, open};
  return c;
}

TEST(BindToCluster, PartitionDefaults) {
  const Cluster c = with_partitions();
  Job j = job_with(1);
  j.req.time_limit = 0;
  EXPECT_FALSE(bind_to_cluster(c, j));  // default partition "batch"
  EXPECT_EQ(j.req.time_limit, 600);
  j.partition = "big";
  j.req.time_limit = 0;
  EXPECT_FALSE(bind_to_cluster(c, j));  // no DefaultTime: MaxTime
  EXPECT_EQ(j.req.time_limit, 7200);
}

TEST(BindToCluster, PartitionReasons) {
  const Cluster c = with_partitions();
  Job j = job_with(1);
  const std::string unknown = "unknown partition 'nope' (partitions: batch, big, open)";
  j.partition = "nope";
  EXPECT_EQ(reason_of(bind_to_cluster(c, j)), unknown);
  j.req.time_limit = 0;  // the partition is named before the missing limit
  EXPECT_EQ(reason_of(bind_to_cluster(c, j)), unknown);
  j.partition = "batch";
  j.req.time_limit = 3601;
  EXPECT_NE(reason_of(bind_to_cluster(c, j)).find("exceeds MaxTime 3600"), std::string::npos);
  j.partition = "open";
  j.req.time_limit = 1000000;
  EXPECT_FALSE(bind_to_cluster(c, j));
  EXPECT_EQ(j.req.time_limit, 1000000);
}

// MaxNodes / MinNodes as slurmctld's select_nodes applies them: a -N range is narrowed into
// them, a job without -N gets them as its range (aiming at the fewest nodes), and a request
// outside them can never run (PartitionNodeLimit).
Partition node_limited(std::int32_t min_nodes, std::int32_t max_nodes) {
  Partition p;
  p.name = "lim";
  p.nodes = {0, 1, 2, 3, 4, 5, 6};
  p.min_nodes = min_nodes;
  p.max_nodes = max_nodes;
  return p;
}

JobRequest nodes(std::int32_t min, std::int32_t max) {
  JobRequest r;
  r.ntasks = 16;
  r.nodes_min = min;
  r.nodes_max = max;
  return r;
}

std::string limited(const Partition& p, JobRequest& r) {
  const auto reason = apply_partition_node_limits(p, r);
  return reason ? *reason : std::to_string(r.nodes_min) + "-" + std::to_string(r.nodes_max) +
                                (r.nodes_from_partition ? " from partition" : "");
}

TEST(PartitionNodeLimits, RangesAreNarrowedAndUnwrittenCountsTakeTheLimits) {
  const Partition at_most_4 = node_limited(0, 4), at_least_2 = node_limited(2, 0), both = node_limited(2, 4);
  JobRequest r = nodes(0, 0);
  EXPECT_EQ(limited(at_most_4, r), "0-4 from partition");
  EXPECT_EQ(limited(at_most_4, r), "0-4 from partition");  // twice: the same
  r = nodes(0, 0);
  EXPECT_EQ(limited(at_least_2, r), "2-7 from partition");  // not "exactly 2"
  r = nodes(0, 0);
  EXPECT_EQ(limited(both, r), "2-4 from partition");
  r = nodes(2, 6);
  EXPECT_EQ(limited(at_most_4, r), "2-4");
  r = nodes(1, 3);
  EXPECT_EQ(limited(both, r), "2-3");
  r = nodes(3, 0);  // exactly 3 stays as written
  EXPECT_EQ(limited(both, r), "3-0");
  r = nodes(3, 0);
  EXPECT_EQ(limited(node_limited(0, 0), r), "3-0");
}

TEST(PartitionNodeLimits, RequestsOutsideTheLimitsNeverRun) {
  JobRequest r = nodes(5, 0);
  EXPECT_EQ(limited(node_limited(0, 4), r),
            "needs at least 5 nodes, above partition lim's MaxNodes 4 (Slurm keeps it pending: PartitionNodeLimit)");
  r = nodes(5, 8);
  EXPECT_NE(limited(node_limited(0, 4), r).find("MaxNodes 4"), std::string::npos);
  r = nodes(1, 0);
  EXPECT_EQ(limited(node_limited(2, 0), r),
            "takes at most 1 nodes, below partition lim's MinNodes 2 (Slurm keeps it pending: PartitionNodeLimit)");
}

TEST(PartitionNodeLimits, BindToClusterAppliesThemAndAJobTooBigForMaxNodesNeverRuns) {
  Cluster c = mixed_cluster();  // n1..n4 have 8 cores
  c.partitions.push_back(node_limited(0, 2));
  c.partitions.back().nodes = {0, 1, 2, 3};
  Job fits = job_with(16);
  fits.partition = "lim";
  EXPECT_FALSE(bind_to_cluster(c, fits));
  EXPECT_EQ(fits.req.nodes_max, 2);
  EXPECT_FALSE(never_runnable_reason(c, fits));
  Job too_big = job_with(17);  // 17 cores on at most 2 nodes of 8
  too_big.partition = "lim";
  EXPECT_FALSE(bind_to_cluster(c, too_big));
  EXPECT_TRUE(never_runnable_reason(c, too_big));
  Job three = job_with(3);
  three.partition = "lim";
  three.req.nodes_min = 3;
  EXPECT_NE(reason_of(bind_to_cluster(c, three)).find("PartitionNodeLimit"), std::string::npos);
}

// Issue 22 (7): UNLIMITED runs where no MaxTime applies, planned with Slurm's backfill
// horizon; under a finite MaxTime it is rejected, as Slurm leaves it pending for ever.
TEST(BindToCluster, UnlimitedTimeLimit) {
  const Cluster bare = mixed_cluster();
  Job j = job_with(1);
  j.req.time_limit = kNoTime;
  EXPECT_TRUE(runs_unlimited(bare, j));
  EXPECT_FALSE(bind_to_cluster(bare, j));
  EXPECT_EQ(j.req.time_limit, kUnlimitedPlanningTime);
  EXPECT_EQ(kUnlimitedPlanningTime, 365 * 86400);

  const Cluster c = with_partitions();
  j.partition = "open";  // MaxTime UNLIMITED
  j.req.time_limit = kNoTime;
  EXPECT_TRUE(runs_unlimited(c, j));
  EXPECT_FALSE(bind_to_cluster(c, j));
  EXPECT_EQ(j.req.time_limit, kUnlimitedPlanningTime);
  j.req.time_limit = 0;  // no DefaultTime either: Slurm gives it MaxTime, UNLIMITED
  EXPECT_TRUE(runs_unlimited(c, j));
  EXPECT_FALSE(bind_to_cluster(c, j));
  EXPECT_EQ(j.req.time_limit, kUnlimitedPlanningTime);

  j.partition = "batch";  // MaxTime 3600
  j.req.time_limit = kNoTime;
  EXPECT_FALSE(runs_unlimited(c, j));
  EXPECT_EQ(reason_of(bind_to_cluster(c, j)),
            "time limit UNLIMITED exceeds MaxTime 3600 s of partition batch");
  j.req.time_limit = 600;
  EXPECT_FALSE(runs_unlimited(c, j));
  j.partition = "nope";
  j.req.time_limit = kNoTime;
  EXPECT_FALSE(runs_unlimited(c, j));
}

// ---- never_runnable_reason ----

TEST(NeverRunnable, FitsOnTheWholeMachine) {
  const Cluster c = mixed_cluster();
  EXPECT_FALSE(never_runnable_reason(c, job_with(56)));  // 4*8 + 2*4 + 16
  EXPECT_NE(reason_of(never_runnable_reason(c, job_with(57))).find("57 cores"),
            std::string::npos);
}

TEST(NeverRunnable, MalformedValues) {
  const Cluster c = mixed_cluster();
  EXPECT_NE(reason_of(never_runnable_reason(c, job_with(0))).find("ntasks"), std::string::npos);
  Job j = job_with(4);
  j.req.nodes_min = -1;
  EXPECT_NE(reason_of(never_runnable_reason(c, j)).find("negative"), std::string::npos);
  j = job_with(4);
  j.req.nodes_min = 3;
  j.req.nodes_max = 2;
  EXPECT_NE(reason_of(never_runnable_reason(c, j)).find("empty"), std::string::npos);
  j = job_with(4);
  j.req.mem_per_node_mb = -5;
  EXPECT_NE(reason_of(never_runnable_reason(c, j)).find("memory"), std::string::npos);
  j = job_with(4);
  add_gpu(j, 2, 1);
  EXPECT_NE(reason_of(never_runnable_reason(c, j)).find("range"), std::string::npos);
  j = job_with(4);
  j.req.gres.push_back({"gpu", -1, 1, 1});
  EXPECT_NE(reason_of(never_runnable_reason(c, j)).find("not bound"), std::string::npos);
  j = job_with(4);
  j.req.time_limit = 0;
  EXPECT_EQ(reason_of(never_runnable_reason(c, j)), "no time limit");
}

TEST(NeverRunnable, NodeCountRules) {
  const Cluster c = mixed_cluster();
  Job j = job_with(4);
  j.req.nodes_min = 5;  // fewer tasks than nodes
  EXPECT_NE(reason_of(never_runnable_reason(c, j)).find("below the minimum node count"),
            std::string::npos);
  j = job_with(8);
  j.req.nodes_min = 8;  // only 7 nodes
  EXPECT_NE(reason_of(never_runnable_reason(c, j)).find("at least 8 nodes"), std::string::npos);
  j = job_with(33);
  j.req.nodes_min = 2;  // -N 2: best two nodes are 16 + 8 = 24 cores
  EXPECT_NE(reason_of(never_runnable_reason(c, j)).find("best 2"), std::string::npos);
  j.req.nodes_max = 3;  // -N 2-3: 16 + 8 + 8 = 32
  EXPECT_TRUE(never_runnable_reason(c, j));
  j.req.ntasks = 32;
  EXPECT_FALSE(never_runnable_reason(c, j));
}

TEST(NeverRunnable, GresAndMemoryFilterNodes) {
  const Cluster c = mixed_cluster();
  Job j = job_with(32);
  add_gpu(j, 1, 2);
  EXPECT_FALSE(never_runnable_reason(c, j));  // n1..n4
  j.req.ntasks = 33;
  EXPECT_TRUE(never_runnable_reason(c, j));
  j = job_with(1);
  add_gpu(j, 3, 3);
  EXPECT_NE(reason_of(never_runnable_reason(c, j)).find("only 0 eligible"), std::string::npos);
  EXPECT_NE(reason_of(never_runnable_reason(c, j)).find("have fewer than 3 gpu"),
            std::string::npos)
      << reason_of(never_runnable_reason(c, j));
  // 2000 MB: n5/n6 drop out (1000 MB), n1..n4 don't model memory, n7 has 4000.
  j = job_with(48);
  j.req.mem_per_node_mb = 2000;
  EXPECT_FALSE(never_runnable_reason(c, j));
  j.req.ntasks = 49;
  const std::string memory = reason_of(never_runnable_reason(c, j));
  EXPECT_NE(memory.find("of 7 nodes: 2 have less than 2000 MB"), std::string::npos) << memory;
}

TEST(NeverRunnable, NtasksPerNode) {
  const Cluster c = mixed_cluster();
  Job j = job_with(30);
  j.req.ntasks_per_node = 4;
  EXPECT_NE(reason_of(never_runnable_reason(c, j)).find("not a multiple"), std::string::npos);
  j.req.ntasks = 28;  // 7 nodes with >= 4 cores
  EXPECT_FALSE(never_runnable_reason(c, j));
  j.req.ntasks_per_node = 7;  // 4 nodes of 7 cores: n1..n4 and n7 qualify
  EXPECT_FALSE(never_runnable_reason(c, j));
  j.req.ntasks = 42;  // 6 nodes with >= 7 cores: only 5
  EXPECT_NE(reason_of(never_runnable_reason(c, j)).find("only 5 eligible"), std::string::npos);
  j = job_with(16);
  j.req.ntasks_per_node = 8;
  j.req.nodes_min = 3;  // 16 / 8 = 2 nodes is not -N 3
  EXPECT_NE(reason_of(never_runnable_reason(c, j)).find("outside the node range"),
            std::string::npos);
}

TEST(NeverRunnable, Contiguity) {
  Cluster c = mixed_cluster();
  Job j = job_with(36);
  j.req.contiguous = true;
  // n1..n7 are one run; best 36-core window with no node limit: all seven (56).
  EXPECT_FALSE(never_runnable_reason(c, j));
  add_gpu(j, 1, 1);  // run n1..n4 = 32 cores
  EXPECT_TRUE(never_runnable_reason(c, j));
  j.req.ntasks = 32;
  EXPECT_FALSE(never_runnable_reason(c, j));
  // Break the gpu run: n2 without gpus leaves runs {n1} and {n3, n4}.
  c.nodes[1].gres[0] = 0;
  j.req.ntasks = 17;
  EXPECT_NE(reason_of(never_runnable_reason(c, j)).find("consecutive"), std::string::npos);
  j.req.ntasks = 16;
  EXPECT_FALSE(never_runnable_reason(c, j));
  // -N 2 window on 8,8,8,8,4,4,16 (no gpu): best pair is 4+16 = 20.
  j = job_with(21);
  j.req.contiguous = true;
  j.req.nodes_min = 2;
  c = mixed_cluster();
  EXPECT_TRUE(never_runnable_reason(c, j));
  j.req.ntasks = 20;
  EXPECT_FALSE(never_runnable_reason(c, j));
}

TEST(NeverRunnable, PartitionRestrictsNodes) {
  const Cluster c = with_partitions();
  Job j = job_with(32);
  EXPECT_FALSE(never_runnable_reason(c, j));  // batch = n1..n4
  j.req.ntasks = 33;
  EXPECT_TRUE(never_runnable_reason(c, j));
  j.partition = "big";  // n5..n7 = 24 cores
  j.req.ntasks = 24;
  EXPECT_FALSE(never_runnable_reason(c, j));
  j.partition = "gone";
  EXPECT_EQ(reason_of(never_runnable_reason(c, j)),
            "unknown partition 'gone' (partitions: batch, big, open)");
}

// ---- allocation_violates_request ----

TEST(AllocationRules, AcceptsAValidAllocation) {
  const Cluster c = mixed_cluster();
  Job j = job_with(10);
  add_gpu(j, 1, 2);
  EXPECT_FALSE(allocation_violates_request(c, j, Allocation{{share(0, 6, 2), share(2, 4, 2)}}));
}

TEST(AllocationRules, CoreTotalsAndShape) {
  const Cluster c = mixed_cluster();
  const Job j = job_with(10);
  EXPECT_NE(reason_of(allocation_violates_request(c, j, Allocation{})).find("empty"),
            std::string::npos);
  EXPECT_NE(reason_of(allocation_violates_request(c, j, Allocation{{share(0, 8), share(1, 1)}}))
                .find("9 cores allocated"),
            std::string::npos);
  EXPECT_NE(reason_of(allocation_violates_request(c, j, Allocation{{share(1, 5), share(0, 5)}}))
                .find("ascending"),
            std::string::npos);
  EXPECT_NE(reason_of(allocation_violates_request(c, j, Allocation{{share(0, 5), share(9, 5)}}))
                .find("out of range"),
            std::string::npos);
  EXPECT_NE(reason_of(allocation_violates_request(c, j, Allocation{{share(0, 10)}}))
                .find("exceed"),
            std::string::npos);
  EXPECT_NE(reason_of(allocation_violates_request(
                          c, j, Allocation{{share(0, 8), share(1, 2), share(2, 0)}}))
                .find("no cores"),
            std::string::npos);
}

TEST(AllocationRules, NodeRangeAndTasksPerNode) {
  const Cluster c = mixed_cluster();
  Job j = job_with(12);
  j.req.nodes_min = 2;
  j.req.nodes_max = 2;
  EXPECT_FALSE(allocation_violates_request(c, j, Allocation{{share(0, 8), share(1, 4)}}));
  EXPECT_NE(reason_of(allocation_violates_request(
                          c, j, Allocation{{share(0, 4), share(1, 4), share(2, 4)}}))
                .find("3 nodes outside"),
            std::string::npos);
  j.req.nodes_max = 3;
  j.req.ntasks_per_node = 4;
  EXPECT_FALSE(allocation_violates_request(
      c, j, Allocation{{share(0, 4), share(1, 4), share(2, 4)}}));
  j.req.ntasks_per_node = 6;
  EXPECT_NE(reason_of(allocation_violates_request(c, j, Allocation{{share(0, 8), share(1, 4)}}))
                .find("ntasks_per_node"),
            std::string::npos);
}

TEST(AllocationRules, GresRangeEqualPerNode) {
  const Cluster c = mixed_cluster();
  Job j = job_with(4);
  add_gpu(j, 1, 2);
  EXPECT_NE(reason_of(allocation_violates_request(c, j, Allocation{{share(0, 2, 1), share(1, 2, 2)}}))
                .find("differs"),
            std::string::npos);
  EXPECT_NE(reason_of(allocation_violates_request(c, j, Allocation{{share(0, 4, 0)}}))
                .find("outside the requested 1-2"),
            std::string::npos);
  Job cpu = job_with(4);  // gres not asked must not be handed out
  EXPECT_NE(reason_of(allocation_violates_request(c, cpu, Allocation{{share(0, 4, 1)}}))
                .find("outside the requested 0-0"),
            std::string::npos);
  Job three = job_with(1);
  add_gpu(three, 3, 3);
  EXPECT_NE(reason_of(allocation_violates_request(c, three, Allocation{{share(0, 1, 3)}}))
                .find("exceeds the node's 2"),
            std::string::npos);
}

TEST(AllocationRules, MemoryAndContiguity) {
  const Cluster c = mixed_cluster();
  Job j = job_with(8);
  j.req.mem_per_node_mb = 500;
  // n5 models memory: share must carry 500; n1 does not: share carries 0.
  EXPECT_FALSE(allocation_violates_request(c, j, Allocation{{share(0, 4), share(4, 4, 0, 500)}}));
  EXPECT_NE(reason_of(allocation_violates_request(c, j, Allocation{{share(0, 4), share(4, 4)}}))
                .find("memory 0 MB, expected 500"),
            std::string::npos);
  j.req.contiguous = true;
  EXPECT_NE(reason_of(allocation_violates_request(c, j, Allocation{{share(0, 4), share(4, 4, 0, 500)}}))
                .find("contiguous"),
            std::string::npos);
  EXPECT_FALSE(allocation_violates_request(c, j, Allocation{{share(3, 4), share(4, 4, 0, 500)}}));
}

TEST(AllocationRules, PartitionMembership) {
  const Cluster c = with_partitions();
  Job j = job_with(8);
  EXPECT_FALSE(allocation_violates_request(c, j, Allocation{{share(0, 8)}}));
  EXPECT_NE(reason_of(allocation_violates_request(c, j, Allocation{{share(6, 8)}}))
                .find("outside partition batch"),
            std::string::npos);
}

// Typed GRES: gpu:a100:2 needs two a100 units of a node (and so two of its gpus); the
// kind must exist on the cluster; the breakdown names the kind.
TEST(RequestFit, TypedGresBindsToItsKind) {
  Cluster c = mixed_cluster();
  Job j = job_with(2);
  j.req.gres.push_back({"gpu", -1, 2, 2, "a100"});
  const auto unknown = bind_to_cluster(c, j);
  ASSERT_TRUE(unknown.has_value());
  EXPECT_NE(unknown->find("unknown gres type 'gpu:a100'"), std::string::npos) << *unknown;
  c.gres_types = {"gpu", "mic", "gpu:a100"};
  c.nodes[0].gres[2] = 1;  // n1: 2 gpus, 1 of them an a100
  c.nodes[1].gres[2] = 2;  // n2: both a100
  ASSERT_FALSE(bind_to_cluster(c, j).has_value());
  EXPECT_EQ(j.req.gres[0].type, 0);
  EXPECT_EQ(j.req.gres[0].kind_type, 2);
  EXPECT_EQ(j.req.gres_min(0), 2);
  EXPECT_EQ(j.req.gres_min(2), 2);
  EXPECT_FALSE(never_runnable_reason(c, j).has_value());
  Allocation on_n1{{share(0, 2, 2)}};
  on_n1.shares[0].gres[2] = 1;
  EXPECT_TRUE(allocation_violates_request(c, j, on_n1).has_value());  // one a100 short
  Allocation on_n2{{share(1, 2, 2)}};
  on_n2.shares[0].gres[2] = 2;
  EXPECT_FALSE(allocation_violates_request(c, j, on_n2).has_value());
  j.req.nodes_min = j.req.nodes_max = 2;
  j.req.ntasks = 2;
  const auto never = never_runnable_reason(c, j);
  ASSERT_TRUE(never.has_value());
  EXPECT_NE(never->find("fewer than 2 gpu:a100"), std::string::npos) << *never;
}

// An untyped request counts only against the name: a100 units serve it like any gpu.
TEST(RequestFit, UntypedGresTakesAnyKind) {
  Cluster c = mixed_cluster();
  c.gres_types = {"gpu", "mic", "gpu:a100"};
  c.nodes[1].gres[2] = 2;
  Job j = job_with(2);
  add_gpu(j, 2, 2);
  ASSERT_FALSE(bind_to_cluster(c, j).has_value());
  EXPECT_EQ(j.req.gres_min(2), 0);
  Allocation on_n2{{share(1, 2, 2)}};
  EXPECT_FALSE(allocation_violates_request(c, j, on_n2).has_value());
  on_n2.shares[0].gres[2] = 2;  // an untyped job may not be booked against a kind
  EXPECT_TRUE(allocation_violates_request(c, j, on_n2).has_value());
}

}  // namespace
}  // namespace hs

namespace hs {
namespace {

// The independent check of a units job: a whole number of tasks on every node, each with
// its GPUs; the GPU count may differ between nodes.
TEST(RequestFitUnits, EveryShareIsAWholeNumberOfTasks) {
  Cluster c;
  c.name = "u";
  c.gres_types = {"gpu"};
  for (int i = 0; i < 3; ++i) {
    Node n;
    n.name = "n" + std::to_string(i);
    n.cores = 8;
    n.gres[0] = 2;
    c.nodes.push_back(n);
  }
  Job j;
  j.id = 1;
  j.req.ntasks = 12;
  j.req.task_cores = 4;  // 3 tasks of 4 cores and 1 GPU
  j.req.time_limit = 60;
  j.req.gres.push_back({"gpu", -1, 1, 1});
  ASSERT_FALSE(bind_to_cluster(c, j).has_value());
  EXPECT_FALSE(never_runnable_reason(c, j).has_value());
  auto share = [](NodeIndex n, int cores, int gpus) {
    NodeShare s;
    s.node = n, s.cores = cores, s.gres[0] = gpus;
    return s;
  };
  EXPECT_EQ(allocation_violates_request(c, j, {{share(0, 8, 2), share(1, 4, 1)}}), std::nullopt);
  const auto split = allocation_violates_request(c, j, {{share(0, 6, 2), share(1, 6, 1)}});
  ASSERT_TRUE(split.has_value());
  EXPECT_NE(split->find("not a whole number of 4-core tasks"), std::string::npos) << *split;
  const auto gpus = allocation_violates_request(c, j, {{share(0, 8, 1), share(1, 4, 2)}});
  ASSERT_TRUE(gpus.has_value());
  EXPECT_NE(gpus->find("for 2 tasks of 1"), std::string::npos) << *gpus;
  j.req.ntasks = 40;  // 10 tasks: the three nodes hold 2 each (GPUs)
  const auto never = never_runnable_reason(c, j);
  ASSERT_TRUE(never.has_value());
  EXPECT_NE(never->find("needs 40 cores"), std::string::npos) << *never;
  j.req.ntasks = 10;
  EXPECT_NE(never_runnable_reason(c, j)->find("not a multiple of 4"), std::string::npos);
}

}  // namespace
}  // namespace hs
