// -C/--constraint, -x, -w and --exclusive against a small cluster: parsing of constraints,
// binding to nodes, the shared job_node_mask and the allocation checks.
#include <gtest/gtest.h>

#include "model/job_nodes.hpp"
#include "model/node_constraint.hpp"
#include "model/request_fit.hpp"

namespace hs {
namespace {

// n1, n2: intel; n3: amd+gpu; n4: amd. 8 cores each. Partition p1 = n1-n3.
Cluster featured_cluster() {
  Cluster c;
  c.gres_types = {"gpu"};
  const std::vector<std::vector<std::string>> features = {
      {"intel"}, {"intel"}, {"amd", "gpu"}, {"amd"}};
  for (int i = 0; i < 4; ++i) {
    Node n;
    n.name = "n" + std::to_string(i + 1);
    n.cores = 8;
    n.features = features[i];
    c.nodes.push_back(n);
  }
  c.partitions.push_back({"p1", {0, 1, 2}, kNoTime, kNoTime, 1, true});
  c.partitions.push_back({"all", {0, 1, 2, 3}, kNoTime, kNoTime, 1, false});
  return c;
}

Job job(std::int32_t ntasks, const std::string& partition = "all") {
  Job j;
  j.id = 1;
  j.run_time = 10;
  j.partition = partition;
  j.req.ntasks = ntasks;
  j.req.time_limit = 100;
  return j;
}

NodeConstraint constraint(const std::string& text) {
  NodeConstraint c;
  EXPECT_FALSE(parse_node_constraint(text, c).has_value()) << text;
  return c;
}

Allocation on(std::initializer_list<std::pair<NodeIndex, std::int32_t>> shares) {
  Allocation a;
  for (auto [n, cores] : shares) {
    NodeShare s;
    s.node = n;
    s.cores = cores;
    a.shares.push_back(s);
  }
  return a;
}

TEST(NodeConstraint, AndOrAndTheRefusedForms) {
  const std::vector<std::string> amd_gpu = {"amd", "gpu"};
  EXPECT_TRUE(constraint("amd").matches(amd_gpu));
  EXPECT_TRUE(constraint("amd&gpu").matches(amd_gpu));
  EXPECT_FALSE(constraint("amd&intel").matches(amd_gpu));
  EXPECT_TRUE(constraint("intel|gpu").matches(amd_gpu));
  EXPECT_FALSE(constraint("intel|arm").matches(amd_gpu));
  EXPECT_EQ(constraint("a|b|a").text(), "a|b");
  NodeConstraint c;
  for (const char* bad : {"", "a&b|c", "[a|b]", "(a&b)", "a*2", "a,b", "a&", "|b", "a b"})
    EXPECT_TRUE(parse_node_constraint(bad, c).has_value()) << bad;
}

TEST(NodeRules, BindComputesTheMaskAndRefusesImpossibleRequests) {
  const Cluster c = featured_cluster();
  Job j = job(4);
  j.req.edit_node_rules().constraint = constraint("amd");
  j.req.edit_node_rules().exclude = {"n4"};
  ASSERT_FALSE(bind_to_cluster(c, j).has_value());
  EXPECT_EQ(job_node_mask(c, j), (std::vector<char>{0, 0, 1, 0}));
  Job in_p1 = job(4, "p1");
  in_p1.req.edit_node_rules().constraint = constraint("amd");
  ASSERT_FALSE(bind_to_cluster(c, in_p1).has_value());
  EXPECT_EQ(job_node_mask(c, in_p1), (std::vector<char>{0, 0, 1, 0}));  // n4 not in p1
  auto reason = [&](auto edit) {
    Job b = job(4);
    edit(b.req);
    const auto r = bind_to_cluster(c, b);
    return r.value_or("");
  };
  const auto arm = reason([](JobRequest& r) { r.edit_node_rules().constraint = constraint("arm"); });
  EXPECT_NE(arm.find("no node has feature 'arm'"), std::string::npos) << arm;
  const auto n9 = reason([](JobRequest& r) { r.edit_node_rules().exclude = {"n9"}; });
  EXPECT_NE(n9.find("-x: no node named 'n9'"), std::string::npos) << n9;
  EXPECT_NE(reason([](JobRequest& r) {
                  r.edit_node_rules().nodelist = {"n1"};
                  r.edit_node_rules().exclude = {"n1"};
                })
                .find("-w node n1 is ruled out"),
            std::string::npos);
  EXPECT_NE(reason([](JobRequest& r) {
                  r.edit_node_rules().nodelist = {"n1", "n2"};
                  r.nodes_min = 1;
                })
                .find("-N allows at most 1"),
            std::string::npos);
  Job outside = job(4, "p1");
  outside.req.edit_node_rules().nodelist = {"n4"};
  const std::string why = bind_to_cluster(c, outside).value_or("");
  EXPECT_NE(why.find("outside partition p1"), std::string::npos) << why;
}

TEST(NodeRules, AllocationChecksEveryRule) {
  const Cluster c = featured_cluster();
  Job j = job(8);
  j.req.edit_node_rules().constraint = constraint("intel|gpu");
  j.req.edit_node_rules().nodelist = {"n2"};
  ASSERT_FALSE(bind_to_cluster(c, j).has_value());
  EXPECT_EQ(j.req.node_rules().required, (std::vector<NodeIndex>{1}));
  EXPECT_FALSE(allocation_violates_request(c, j, on({{1, 4}, {2, 4}})).has_value());
  const auto no_feature = allocation_violates_request(c, j, on({{1, 4}, {3, 4}}));
  ASSERT_TRUE(no_feature.has_value());
  EXPECT_NE(no_feature->find("node n4 lacks the features -C intel|gpu"), std::string::npos);
  const auto missing = allocation_violates_request(c, j, on({{0, 4}, {2, 4}}));
  ASSERT_TRUE(missing.has_value());
  EXPECT_NE(missing->find("-w node n2 is not in the allocation"), std::string::npos);
  j.req.edit_node_rules().exclude = {"n3"};
  ASSERT_FALSE(bind_to_cluster(c, j).has_value());
  const std::string excluded =
      allocation_violates_request(c, j, on({{1, 4}, {2, 4}})).value_or("");
  EXPECT_NE(excluded.find("excluded by -x"), std::string::npos) << excluded;
}

TEST(NodeRules, ExclusiveJobsHoldWholeNodes) {
  const Cluster c = featured_cluster();
  Job j = job(10);
  j.req.exclusive = true;
  ASSERT_FALSE(bind_to_cluster(c, j).has_value());
  EXPECT_FALSE(allocation_violates_request(c, j, on({{0, 8}, {1, 8}})).has_value());
  EXPECT_TRUE(allocation_violates_request(c, j, on({{0, 8}, {1, 2}})).has_value());  // not whole
  EXPECT_TRUE(allocation_violates_request(c, j, on({{0, 8}})).has_value());          // too few
  Job plain = job(10);
  ASSERT_FALSE(bind_to_cluster(c, plain).has_value());
  EXPECT_TRUE(allocation_violates_request(c, plain, on({{0, 8}, {1, 8}})).has_value());
}

TEST(NodeRules, NeverRunnableNamesTheRuledOutNodes) {
  const Cluster c = featured_cluster();
  Job j = job(20);
  j.req.edit_node_rules().constraint = constraint("amd");
  ASSERT_FALSE(bind_to_cluster(c, j).has_value());
  const auto reason = never_runnable_reason(c, j);
  ASSERT_TRUE(reason.has_value());
  EXPECT_NE(reason->find("2 are ruled out by -C/-x"), std::string::npos) << *reason;
}

}  // namespace
}  // namespace hs
