#include "io/builtin_clusters.hpp"

#include <algorithm>

#include "test_helpers.hpp"
#include "util/natural_sort.hpp"

namespace hs {
namespace {

using testing::expect_input_error;

void expect_naturally_sorted(const Cluster& c) {
  for (int i = 1; i < c.node_count(); ++i)
    ASSERT_TRUE(natural_less(c.nodes[i - 1].name, c.nodes[i].name)) << c.nodes[i].name;
}

TEST(BuiltinClusters, ShapesOfEveryMachine) {
  struct Shape {
    const char* name;
    int nodes;
    int cores;
    std::int64_t gpus;
  };
  for (const Shape& s : {Shape{"paper1024", 1024, 8, 2048}, Shape{"S", 128, 8, 256},
                         Shape{"M", 256, 8, 512}, Shape{"L", 1024, 8, 2048},
                         Shape{"tsubame2", 1408, 12, 4224}, Shape{"tree1024", 1024, 16, 3072},
                         Shape{"sdsc-sp2", 128, 1, 0}, Shape{"kth-sp2", 100, 1, 0}}) {
    const auto c = builtin_cluster(s.name);
    ASSERT_TRUE(c) << s.name;
    EXPECT_EQ(c->name, s.name);
    EXPECT_EQ(c->node_count(), s.nodes) << s.name;
    EXPECT_EQ(c->total_cores(), std::int64_t{s.nodes} * s.cores) << s.name;
    const int gpu = c->gres_index("gpu");
    EXPECT_EQ(gpu < 0 ? 0 : c->total_gres(gpu), s.gpus) << s.name;
    for (const Node& n : c->nodes) ASSERT_EQ(n.memory_mb, 0);
    expect_naturally_sorted(*c);
  }
  EXPECT_EQ(builtin_cluster("paper1024")->nodes.front().name, "n0001");
  EXPECT_TRUE(builtin_cluster("s").has_value());
  EXPECT_FALSE(builtin_cluster("nosuch").has_value());
  EXPECT_FALSE(builtin_cluster("paper1024")->topology.has_value());
}

TEST(BuiltinClusters, EuroraHasGpuBlockThenMicBlock) {
  const Cluster c = *builtin_cluster("eurora");
  ASSERT_EQ(c.node_count(), 64);
  const int gpu = c.gres_index("gpu"), mic = c.gres_index("mic");
  ASSERT_GE(gpu, 0);
  ASSERT_GE(mic, 0);
  for (int i = 0; i < 64; ++i) {
    EXPECT_EQ(c.nodes[i].cores, 16);
    EXPECT_EQ(c.nodes[i].gres[gpu], i < 32 ? 2 : 0) << i;
    EXPECT_EQ(c.nodes[i].gres[mic], i < 32 ? 0 : 2) << i;
  }
}

TEST(BuiltinClusters, TsubameTreeHasThreeLevels) {
  const Cluster c = *builtin_cluster("tsubame2");
  ASSERT_TRUE(c.topology);
  const SwitchTree& t = *c.topology;
  EXPECT_EQ(t.max_level(), 3);
  EXPECT_EQ(t.switches.size(), 88u + 11u + 1u);
  std::vector<NodeIndex> leaf{0, 15}, middle{0, 16 * 8 - 1}, top{0, 16 * 8};
  EXPECT_EQ(t.lowest_common_level(leaf), 1);
  EXPECT_EQ(t.lowest_common_level(middle), 2);
  EXPECT_EQ(t.lowest_common_level(top), 3);
  for (NodeIndex n = 0; n < c.node_count(); ++n) ASSERT_EQ(t.leaf_of_node[n], n / 16);
  const Cluster tree = *builtin_cluster("tree1024");
  EXPECT_EQ(tree.topology->switches.size(), 64u + 8u + 1u);
  EXPECT_EQ(tree.topology->max_level(), 3);
}

TEST(BuiltinClusters, ListAndSpecLoading) {
  const auto list = builtin_cluster_list();
  ASSERT_EQ(list.size(), 9u);
  EXPECT_EQ(list.front().first, std::string(kDefaultClusterName));
  for (const auto& [name, description] : list) {
    EXPECT_TRUE(builtin_cluster(name).has_value()) << name;
    EXPECT_FALSE(description.empty());
  }
  EXPECT_EQ(load_cluster_spec("M").node_count(), 256);
  EXPECT_EQ(load_cluster_spec(testing::source_path("examples/clusters/small-tree")).node_count(),
            16);
  EXPECT_EQ(load_cluster_spec(testing::source_path("examples/clusters/small-tree/slurm.conf"))
                .name,
            "smalltree");
  const InputError e = expect_input_error([] { load_cluster_spec("paper2048"); });
  EXPECT_EQ(e.value(), "paper2048");
  EXPECT_NE(std::string(e.what()).find("tsubame2"), std::string::npos);
}

}  // namespace
}  // namespace hs
