#include "io/slurm_conf.hpp"

#include <algorithm>

#include "io/hostlist.hpp"
#include "test_helpers.hpp"

namespace hs {
namespace {

using testing::expect_input_error;
using testing::scratch_dir;
using testing::write_file;

bool has_warning(const SlurmConfig& c, const std::string& text) {
  return std::any_of(c.warnings.begin(), c.warnings.end(),
                     [&](const std::string& w) { return w.find(text) != std::string::npos; });
}

TEST(SlurmConf, ReadsTheSmallTreeExample) {
  const SlurmConfig config =
      load_slurm_conf(testing::source_path("examples/clusters/small-tree/slurm.conf"));
  const Cluster& c = config.cluster;
  EXPECT_EQ(c.name, "smalltree");
  ASSERT_EQ(c.node_count(), 16);
  EXPECT_EQ(c.nodes[0].name, "cn01");
  EXPECT_EQ(c.nodes[7].name, "cn08");
  EXPECT_EQ(c.nodes[8].name, "gn01");
  EXPECT_EQ(c.nodes[15].name, "gn08");
  ASSERT_EQ(c.gres_types, (std::vector<std::string>{"gpu", "gpu:k80", "gpu:v100"}));
  EXPECT_EQ(c.nodes[0].cores, 16);
  EXPECT_EQ(c.nodes[0].gres[0], 0);
  EXPECT_EQ(c.nodes[0].memory_mb, 64000);
  EXPECT_EQ(c.nodes[8].gres[0], 2);
  EXPECT_EQ(c.nodes[8].weight, 10);
  EXPECT_EQ(c.nodes[15].cores, 20);
  EXPECT_EQ(c.nodes[15].gres[0], 4);
  EXPECT_EQ(c.nodes[15].memory_mb, 192000);
  EXPECT_EQ(c.total_gres(0), 6 * 2 + 2 * 4);

  ASSERT_EQ(c.partitions.size(), 3u);
  const Partition* cpu = c.find_partition("");
  ASSERT_NE(cpu, nullptr);
  EXPECT_EQ(cpu->name, "cpu");
  EXPECT_EQ(cpu->nodes, (std::vector<NodeIndex>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(cpu->max_time, 2 * 86400);
  EXPECT_EQ(cpu->default_time, 3600);
  const Partition* gpu = c.find_partition("gpu");
  ASSERT_NE(gpu, nullptr);
  EXPECT_EQ(gpu->nodes.front(), 8);
  EXPECT_EQ(gpu->default_time, 30 * 60);
  const Partition* debug = c.find_partition("debug");
  ASSERT_NE(debug, nullptr);
  EXPECT_EQ(debug->nodes.size(), 16u);
  EXPECT_EQ(debug->priority_tier, 10);
  EXPECT_EQ(debug->max_time, 30 * 60);

  ASSERT_TRUE(c.topology.has_value());
  const SwitchTree& tree = *c.topology;
  EXPECT_EQ(tree.switches.size(), 3u);
  EXPECT_EQ(tree.max_level(), 2);
  const std::vector<NodeIndex> same_leaf{0, 7};
  const std::vector<NodeIndex> across{0, 8};
  EXPECT_EQ(tree.lowest_common_level(same_leaf), 1);
  EXPECT_EQ(tree.lowest_common_level(across), 2);
  EXPECT_EQ(tree.leaf_of_node[0], tree.leaf_of_node[7]);
  EXPECT_NE(tree.leaf_of_node[0], tree.leaf_of_node[8]);

  EXPECT_EQ(config.settings.at("schedulertype"), "sched/backfill");
  EXPECT_EQ(config.settings.at("priorityweightage"), "1000");
  EXPECT_EQ(config.settings.at("selecttypeparameters"), "CR_Core_Memory");
  EXPECT_EQ(config.settings.count("slurmuser"), 0u);
  EXPECT_FALSE(has_warning(config, "OverSubscribe"));  // =NO is what the model does
  // LinkSpeed is unused by Slurm too: accepted without a warning, so the shipped example is quiet.
  EXPECT_FALSE(has_warning(config, "LinkSpeed"));
  EXPECT_TRUE(config.warnings.empty()) << ::testing::PrintToString(config.warnings);
  EXPECT_FALSE(has_warning(config, "SlurmUser"));
}

TEST(SlurmConf, DefaultsCpusGresTypesAndNaturalOrder) {
  const auto dir = scratch_dir("conf-defaults");
  const std::string path = write_file(dir / "site.conf",
                                      "nodename=DEFAULT boards=2 socketsperboard=2 "
                                      "corespersocket=4 threadspercore=2\n"
                                      "NodeName=n[9-11] Gres=mic:1,gpu:tesla:2(S:0-1)\n"
                                      "NODENAME=n[1-2] CPUs=6 Gres=gpu:1,gpu:k80:1\n"
                                      "NodeName=x1 Procs=3\n"
                                      "Unknownkey=5   # a comment\n"
                                      "PartitionName=all Nodes=ALL MaxTime=UNLIMITED "
                                      "OverSubscribe=FORCE:4\n");
  const SlurmConfig config = load_slurm_conf(path);
  const Cluster& c = config.cluster;
  EXPECT_EQ(c.name, "site");
  ASSERT_EQ(c.node_count(), 6);
  const std::vector<std::string> order{"n1", "n2", "n9", "n10", "n11", "x1"};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(c.nodes[i].name, order[i]);
  // Names first, then the typed kinds in order of first use.
  EXPECT_EQ(c.gres_types, (std::vector<std::string>{"gpu", "mic", "gpu:tesla", "gpu:k80"}));
  EXPECT_EQ(c.nodes[0].cores, 6);
  EXPECT_EQ(c.nodes[0].gres, (GresCounts{2, 0, 0, 1}));  // gpu:1 untyped + gpu:k80:1
  EXPECT_EQ(c.nodes[2].gres, (GresCounts{2, 1, 2, 0}));
  EXPECT_EQ(c.nodes[2].cores, 2 * 2 * 4 * 2);
  EXPECT_EQ(c.nodes[2].gres[0], 2);
  EXPECT_EQ(c.nodes[2].gres[1], 1);
  EXPECT_EQ(c.nodes[5].cores, 3);
  EXPECT_FALSE(c.topology.has_value());
  EXPECT_EQ(c.partitions.at(0).max_time, kNoTime);
  EXPECT_TRUE(has_warning(config, "site.conf:5: unknown key 'Unknownkey'"));
  EXPECT_TRUE(has_warning(config, "site.conf:6: partition key 'OverSubscribe' is not modelled"));
}

TEST(SlurmConf, PartitionNodeLimits) {
  const auto dir = scratch_dir("conf-node-limits");
  const std::string path = write_file(dir / "slurm.conf",
                                      "NodeName=n[1-4] CPUs=8\n"
                                      "PartitionName=a Nodes=ALL MaxNodes=2 MinNodes=1 Default=YES\n"
                                      "PartitionName=b Nodes=ALL MaxNodes=UNLIMITED\n"
                                      "PartitionName=c Nodes=ALL maxnodes=infinite minnodes=0\n");
  const SlurmConfig config = load_slurm_conf(path);
  const auto& p = config.cluster.partitions;
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[0].max_nodes, 2);
  EXPECT_EQ(p[0].min_nodes, 1);
  EXPECT_EQ(p[1].max_nodes, 0);
  EXPECT_EQ(p[2].max_nodes, 0);
  EXPECT_EQ(p[2].min_nodes, 0);
  EXPECT_FALSE(has_warning(config, "not modelled"));
}

TEST(SlurmConf, ContinuationIncludeAndGresConf) {
  const auto dir = scratch_dir("conf-include");
  write_file(dir / "sub" / "nodes.conf",
             "NodeName=g[1-2],g4 CPUs=8 \\\n  Gres=gpu:1\nNodeName=g3 CPUs=8 Gres=gpu:a:1,gpu:b:1\n");
  write_file(dir / "gres.conf",
             "NodeName=g[1-2] Name=gpu File=/dev/nvidia[0-2]\n"
             "NodeName=g3 Name=gpu Type=a Count=1\nNodeName=g3 Name=gpu Type=b Count=2\n");
  const std::string path = write_file(dir / "slurm.conf",
                                      "GresTypes=gpu\nInclude sub/nodes.conf\n"
                                      "PartitionName=p Nodes=g[1-4] Default=YES\n");
  const Cluster c = load_slurm_conf(path).cluster;
  ASSERT_EQ(c.node_count(), 4);
  EXPECT_EQ(c.nodes[0].cores, 8);
  EXPECT_EQ(c.nodes[0].gres[0], 3);
  EXPECT_EQ(c.nodes[1].gres[0], 3);
  EXPECT_EQ(c.nodes[2].gres, (GresCounts{3, 1, 2, 0}));  // gres.conf's Type= counts win
  EXPECT_EQ(c.nodes[3].gres[0], 1);  // not in gres.conf: slurm.conf's count stays
  EXPECT_EQ(c.gres_types, (std::vector<std::string>{"gpu", "gpu:a", "gpu:b"}));
}

TEST(SlurmConf, GresConfTypesMustBeKindsOfSlurmConf) {
  const auto dir = scratch_dir("conf-gres-type");
  write_file(dir / "gres.conf", "NodeName=g2 Name=gpu Type=h100 Count=2\n");
  const std::string path = write_file(
      dir / "slurm.conf", "NodeName=g1 CPUs=8 Gres=gpu:a100:2\nNodeName=g2 CPUs=8 Gres=gpu:2\n");
  const InputError e = expect_input_error([&] { load_slurm_conf(path); });
  EXPECT_EQ(e.where().file, (dir / "gres.conf").string());
  EXPECT_EQ(e.where().line, 1);
  EXPECT_EQ(e.field(), "Type");
  EXPECT_EQ(e.value(), "h100");
  // A gres.conf line that retypes a node's gpus drops slurm.conf's kinds of that name.
  write_file(dir / "gres.conf", "NodeName=g1 Name=gpu Count=3\n");
  const Cluster c = load_slurm_conf(path).cluster;
  EXPECT_EQ(c.nodes[0].gres, (GresCounts{3, 0, 0, 0}));
  EXPECT_EQ(c.nodes[1].gres, (GresCounts{2, 0, 0, 0}));
}

TEST(SlurmConf, NodeFeaturesAndWeight) {
  const SlurmConfig config =
      load_slurm_conf(testing::source_path("examples/clusters/small-tree/slurm.conf"));
  const Cluster& c = config.cluster;
  EXPECT_EQ(c.nodes[0].features, (std::vector<std::string>{"cpu", "haswell"}));
  EXPECT_EQ(c.nodes[15].features, (std::vector<std::string>{"gpu", "v100"}));
  EXPECT_EQ(c.nodes[15].weight, 20);
  EXPECT_FALSE(has_warning(config, "Feature"));
  const auto dir = scratch_dir("conf-features");
  const std::string path = write_file(dir / "slurm.conf", "NodeName=n1 CPUs=2 Features=a,b|c\n");
  const InputError e = expect_input_error([&] { load_slurm_conf(path); });
  EXPECT_EQ(e.field(), "Features");
  EXPECT_EQ(e.value(), "a,b|c");
  EXPECT_NE(std::string(e.what()).find("bad feature name 'b|c'"), std::string::npos) << e.what();
}

TEST(SlurmConf, TooManyTypedKindsIsAnError) {
  const auto dir = scratch_dir("conf-gres-kinds");
  const std::string path = write_file(
      dir / "slurm.conf", "NodeName=g1 CPUs=8 Gres=gpu:a:1,gpu:b:1,gpu:c:1,gpu:d:1,gpu:e:1,gpu:f:1,gpu:g:1,gpu:h:1\n");
  const InputError e = expect_input_error([&] { load_slurm_conf(path); });
  EXPECT_EQ(e.field(), "GresTypes");
  EXPECT_NE(std::string(e.what()).find("each typed kind"), std::string::npos) << e.what();
}

TEST(SlurmConf, DeepTopologyLevels) {
  const auto dir = scratch_dir("conf-topo");
  write_file(dir / "topology.conf",
             "SwitchName=l[1-4] Nodes=n[1-4]\n"
             "SwitchName=l1 Nodes=n[1-2]\nSwitchName=l2 Nodes=n[3-4]\n"
             "SwitchName=l3 Nodes=n[5-6]\nSwitchName=l4 Nodes=n[7-8]\n"
             "SwitchName=m1 Switches=l[1-2]\nSwitchName=m2 Switches=l[3-4]\n"
             "SwitchName=top Switches=m[1-2]\n");
  // The first line uses a hostlist as a switch name: invalid (names must be unique words).
  const std::string conf = write_file(dir / "slurm.conf", "NodeName=n[1-8] CPUs=4\n");
  expect_input_error([&] { load_slurm_conf(conf); });
  write_file(dir / "topology.conf",
             "SwitchName=l1 Nodes=n[1-2]\nSwitchName=l2 Nodes=n[3-4]\n"
             "SwitchName=l3 Nodes=n[5-6]\nSwitchName=l4 Nodes=n[7-8]\n"
             "SwitchName=m1 Switches=l[1-2]\nSwitchName=m2 Switches=l[3-4]\n"
             "SwitchName=top Switches=m[1-2]\n");
  const Cluster c = load_slurm_conf(conf).cluster;
  ASSERT_TRUE(c.topology);
  EXPECT_EQ(c.topology->max_level(), 3);
  const std::vector<NodeIndex> a{0, 3}, b{0, 7}, d{4, 5};
  EXPECT_EQ(c.topology->lowest_common_level(a), 2);
  EXPECT_EQ(c.topology->lowest_common_level(b), 3);
  EXPECT_EQ(c.topology->lowest_common_level(d), 1);
}

struct BadConf {
  const char* slurm;
  const char* gres;      // nullptr = no gres.conf
  const char* topology;  // nullptr = no topology.conf
  const char* field;     // expected InputError field
};

TEST(SlurmConf, ErrorsNameFileLineAndField) {
  const BadConf cases[] = {
      {"NodeName=n1 CPUs=zero\n", nullptr, nullptr, "CPUs"},
      {"NodeName=n1 CPUs=0\n", nullptr, nullptr, "CPUs"},
      {"NodeName=n[1-2]\nNodeName=n2\n", nullptr, nullptr, "NodeName"},
      {"NodeName=n1 Gres=gpu:x:y:2\n", nullptr, nullptr, "Gres"},
      {"NodeName=n1 Gres=gpu:-1\n", nullptr, nullptr, "Gres"},
      {"GresTypes=gpu\nNodeName=n1 Gres=mic:1\n", nullptr, nullptr, "Gres"},
      {"NodeName=n1 Gres=a:1,b:1,c:1,d:1,e:1,f:1,g:1,h:1,i:1\n", nullptr, nullptr, "GresTypes"},
      {"NodeName=n1\nPartitionName=p Nodes=n2\n", nullptr, nullptr, "Nodes"},
      {"NodeName=n1\nPartitionName=p MaxTime=1:2:3:4\n", nullptr, nullptr, "MaxTime"},
      {"NodeName=n1\nPartitionName=p Default=maybe\n", nullptr, nullptr, "Default"},
      {"NodeName=n1\nPartitionName=p MaxNodes=two\n", nullptr, nullptr, "MaxNodes"},
      {"NodeName=n1\nPartitionName=p MinNodes=-1\n", nullptr, nullptr, "MinNodes"},
      {"NodeName=n1\nPartitionName=p MinNodes=3 MaxNodes=2\n", nullptr, nullptr, "MinNodes"},
      {"NodeName=n1\nPartitionName=p\nPartitionName=p\n", nullptr, nullptr, "PartitionName"},
      {"NodeName=n[1-\n", nullptr, nullptr, "hostlist"},
      {"PartitionName=p\n", nullptr, nullptr, "NodeName"},
      {"NodeName=n1\nPartitionName= Nodes=n1\n", nullptr, nullptr, "PartitionName"},
      {"NodeName=\n", nullptr, nullptr, "hostlist"},
      {"NodeName=n1 junk\n", nullptr, nullptr, "token"},
      {"NodeName=n1 Weight=\"3\n", nullptr, nullptr, "line"},
      {"Include missing.conf\nNodeName=n1\n", nullptr, nullptr, "Include"},
      {"NodeName=n1 Gres=gpu:2(S:0-1\n", nullptr, nullptr, "Gres"},
      {"NodeName=n1 Gres=gpu:2)\n", nullptr, nullptr, "Gres"},
      {"NodeName=n1 Gres=gpu:1\n", "NodeName=n9 Name=gpu Count=1\n", nullptr, "NodeName"},
      {"NodeName=n1 Gres=gpu:1\n", "NodeName=n1 Name=mic Count=1\n", nullptr, "Name"},
      {"NodeName=n1 Gres=gpu:1\n", "NodeName=n1 Count=1\n", nullptr, "Name"},
      {"NodeName=n1 Gres=gpu:1\n", "NodeName=n1 Name=gpu Count=x\n", nullptr, "Count"},
      {"NodeName=n[1-2]\n", nullptr, "SwitchName=s1 Nodes=n3\n", "Nodes"},
      {"NodeName=n[1-2]\n", nullptr, "SwitchName=s1 Nodes=n1\nSwitchName=s2 Nodes=n1\n",
       "Nodes"},
      {"NodeName=n[1-2]\n", nullptr, "SwitchName=s1 Switches=s9\n", "Switches"},
      {"NodeName=n[1-2]\n", nullptr,
       "SwitchName=a Switches=b\nSwitchName=b Switches=c\nSwitchName=c Switches=a\n",
       "SwitchName"},
      {"NodeName=n[1-2]\n", nullptr, "SwitchName=a Switches=a\n", "SwitchName"},
      {"NodeName=n[1-2]\n", nullptr, "SwitchName=a Nodes=n1 Switches=b\nSwitchName=b\n",
       "Switches"},
      {"NodeName=n[1-2]\n", nullptr, "SwitchName=a Nodes=n1\nSwitchName=a Nodes=n2\n",
       "SwitchName"},
      {"NodeName=n[1-2]\n", nullptr, "Nodes=n1\n", "Nodes"},
  };
  int index = 0;
  for (const BadConf& bad : cases) {
    const auto dir = scratch_dir("conf-bad-" + std::to_string(index++));
    const std::string path = write_file(dir / "slurm.conf", bad.slurm);
    if (bad.gres) write_file(dir / "gres.conf", bad.gres);
    if (bad.topology) write_file(dir / "topology.conf", bad.topology);
    const InputError e = expect_input_error([&] { load_slurm_conf(path); });
    EXPECT_EQ(e.field(), bad.field) << bad.slurm << " | " << e.what();
    EXPECT_FALSE(e.where().file.empty()) << e.what();
  }
}

// Issue 22 (4): a continuation with nothing to continue must not silently drop the line.
TEST(SlurmConf, ContinuationAtEndOfFileNamesFileAndLine) {
  const auto dir = scratch_dir("conf-trailing-continuation");
  for (const char* text : {"PartitionName=p Nodes=ALL Default=YES\nNodeName=n1 CPUs=8 \\",
                           "PartitionName=p Nodes=ALL Default=YES\nNodeName=n1 CPUs=8 \\\n"}) {
    const std::string path = write_file(dir / "slurm.conf", text);
    const InputError e = expect_input_error([&] { load_slurm_conf(path); });
    EXPECT_EQ(e.where().file, path);
    EXPECT_EQ(e.where().line, 2) << e.what();
    EXPECT_EQ(e.value(), "NodeName=n1 CPUs=8 \\");
    EXPECT_NE(std::string(e.what()).find("file ends"), std::string::npos) << e.what();
  }
  // In gres.conf as well (the same reader).
  const std::string conf =
      write_file(dir / "slurm.conf", "GresTypes=gpu\nNodeName=n1 Gres=gpu:2\n");
  write_file(dir / "gres.conf", "NodeName=n1 Name=gpu \\\n");
  const InputError gres = expect_input_error([&] { load_slurm_conf(conf); });
  EXPECT_EQ(gres.where().file, (dir / "gres.conf").string());
  EXPECT_EQ(gres.where().line, 1);
  // A continued line followed by more text is still joined.
  write_file(dir / "gres.conf", "");
  const std::string joined = write_file(dir / "slurm.conf", "NodeName=n1 \\\n CPUs=6\n");
  EXPECT_EQ(load_slurm_conf(joined).cluster.nodes.at(0).cores, 6);
}

TEST(SlurmConf, AtMostOneHundredThousandNodes) {
  const auto dir = scratch_dir("conf-node-cap");
  // Exactly the cap over two lines loads; one node more is refused, naming the line.
  const std::string at_cap = write_file(
      dir / "slurm.conf", "NodeName=a[1-60000] CPUs=1\nNodeName=b[1-40000] CPUs=1\n");
  EXPECT_EQ(load_slurm_conf(at_cap).cluster.nodes.size(), kMaxClusterNodes);
  const std::string over = write_file(
      dir / "slurm.conf", "NodeName=a[1-60000] CPUs=1\nNodeName=b[0-40000] CPUs=1\n");
  const InputError e = expect_input_error([&] { load_slurm_conf(over); });
  EXPECT_EQ(e.where().line, 2);
  EXPECT_EQ(e.value(), "b[0-40000]");
  EXPECT_NE(std::string(e.what()).find("NodeName lines name more than 100000"), std::string::npos)
      << e.what();
}

TEST(SlurmConf, IncludeCycleIsAnError) {
  const auto dir = scratch_dir("conf-cycle");
  write_file(dir / "a.conf", "Include b.conf\n");
  write_file(dir / "b.conf", "Include a.conf\n");
  const InputError e = expect_input_error([&] { load_slurm_conf((dir / "a.conf").string()); });
  EXPECT_EQ(e.field(), "Include");
}

}  // namespace
}  // namespace hs
