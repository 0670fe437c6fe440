#include "sim/bind.hpp"

#include <gtest/gtest.h>

#include "sim_fixtures.hpp"

namespace hs {
namespace {

using testing::make_cluster;
using testing::make_job;

Cluster two_partitions() {
  Cluster c = make_cluster(4, 4, 1);
  c.gres_types = {"gpu", "mic"};
  Partition a;
  a.name = "short";
  a.nodes = {0, 1};
  a.max_time = 600;
  a.is_default = true;
  Partition b;
  b.name = "long";
  b.nodes = {2, 3};
  b.default_time = 3600;
  c.partitions = {a, b};
  return c;
}

TEST(BindWorkload, FillsLimitsAndListsFailures) {
  const Cluster c = two_partitions();
  Workload w;
  w.jobs = {make_job(1, 0, 1, 10, 0), make_job(2, 0, 1, 10, 0), make_job(3, 0, 1, 10, 601)};
  w.jobs[1].partition = "long";
  const BindReport report = bind_workload(c, w);
  EXPECT_EQ(w.jobs[0].req.time_limit, 600);   // MaxTime of the default partition
  EXPECT_EQ(w.jobs[1].req.time_limit, 3600);  // DefaultTime
  ASSERT_EQ(report.rejected.size(), 1u);
  EXPECT_EQ(report.rejected[0].job, 2);
  EXPECT_NE(report.rejected[0].reason.find("exceeds MaxTime 600"), std::string::npos);
}

TEST(BindingProblem, CatchesUnboundAndMismatchedJobs) {
  const Cluster c = two_partitions();
  Job j = make_job(1, 0, 1, 10, 100);
  EXPECT_FALSE(binding_problem(c, j));
  j.req.gres.push_back({"mic", 0, 1, 1});  // bound to the gpu index by mistake
  EXPECT_NE(binding_problem(c, j).value_or("").find("bound to another type"), std::string::npos);
  j.req.gres[0].type = -1;
  EXPECT_EQ(binding_problem(c, j).value_or(""), "unknown gres type 'mic'");
  j.req.gres.clear();
  j.partition = "other";
  EXPECT_EQ(binding_problem(c, j).value_or(""),
            "unknown partition 'other' (partitions: short, long)");
  j.partition = "short";
  j.req.time_limit = 601;
  EXPECT_NE(binding_problem(c, j).value_or("").find("MaxTime"), std::string::npos);
  j.req.time_limit = 0;
  EXPECT_EQ(binding_problem(c, j).value_or(""), "no time limit");
  j.req.time_limit = kNoTime;
  EXPECT_EQ(binding_problem(c, j).value_or(""),
            "time limit UNLIMITED exceeds MaxTime 600 s of partition short");
  j.partition = "long";
  EXPECT_EQ(binding_problem(c, j).value_or(""), "time limit UNLIMITED was not bound");
}

// Issue 22 (2): a job naming a partition on a cluster without partitions is rejected at
// submission too, even when it slipped past binding.
TEST(BindingProblem, NamedPartitionOnAClusterWithoutPartitions) {
  Cluster c = make_cluster(4, 4, 1);
  c.name = "S";
  Job j = make_job(1, 0, 1, 10, 100);
  EXPECT_FALSE(binding_problem(c, j));
  j.partition = "gpu";
  EXPECT_EQ(binding_problem(c, j).value_or(""),
            "unknown partition 'gpu' (cluster S has no partitions)");
}

// A job bind_to_cluster refused for its partition's MaxNodes / MinNodes keeps its request,
// so the check at submission must find the same reason, or the job would run outside them.
TEST(BindingProblem, PartitionNodeLimitsRefuseAtSubmissionToo) {
  Cluster c = two_partitions();
  c.partitions[0].max_nodes = 1;
  c.partitions[1].min_nodes = 2;
  Workload w;
  w.jobs = {make_job(1, 0, 2, 10, 100), make_job(2, 0, 1, 10, 100), make_job(3, 0, 4, 10, 100)};
  w.jobs[0].req.nodes_min = w.jobs[0].req.nodes_max = 2;  // -N 2 under MaxNodes=1
  w.jobs[1].partition = "long";
  w.jobs[1].req.nodes_min = w.jobs[1].req.nodes_max = 1;  // -N 1 under MinNodes=2
  w.jobs[2].partition = "long";                           // -n 4: 2 nodes at least
  const BindReport report = bind_workload(c, w);
  ASSERT_EQ(report.rejected.size(), 2u);
  EXPECT_EQ(binding_problem(c, w.jobs[0]).value_or(""),
            "needs at least 2 nodes, above partition short's MaxNodes 1 (Slurm keeps it pending: PartitionNodeLimit)");
  EXPECT_EQ(binding_problem(c, w.jobs[1]).value_or(""),
            "takes at most 1 nodes, below partition long's MinNodes 2 (Slurm keeps it pending: PartitionNodeLimit)");
  EXPECT_FALSE(binding_problem(c, w.jobs[2]));
  EXPECT_EQ(w.jobs[2].req.nodes_min, 2);
  EXPECT_TRUE(w.jobs[2].req.nodes_from_partition);
}

TEST(BindingProblem, AnUnknownGresTypeIsNamed) {
  const Cluster c = two_partitions();
  Job j = make_job(1, 0, 1, 10, 100);
  j.req.gres.push_back({"gpu", 0, 1, 1, "a100"});
  EXPECT_EQ(binding_problem(c, j).value_or(""), "unknown gres type 'gpu:a100' (no node has gres gpu of type a100)");
}

}  // namespace
}  // namespace hs
