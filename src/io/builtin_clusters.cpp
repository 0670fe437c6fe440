#include "io/builtin_clusters.hpp"

#include <filesystem>
#include <functional>

#include "io/slurm_conf.hpp"
#include "io/slurm_site_options.hpp"
#include "io/swf_reader.hpp"
#include "io/text_file.hpp"

namespace hs {

using namespace text;  // io's parsing helpers

namespace {

struct NodeGroup {
  int count;
  std::int32_t cores;
  GresCounts gres;
};

// Nodes named prefix + number, zero padded to the width of the total count ("n0001").
Cluster make_cluster(const std::string& name, const std::vector<std::string>& gres_types,
                     const std::vector<NodeGroup>& groups) {
  Cluster cluster;
  cluster.name = name;
  cluster.gres_types = gres_types;
  int total = 0;
  for (const NodeGroup& g : groups) total += g.count;
  const std::size_t width = std::to_string(total).size();
  for (const NodeGroup& g : groups)
    for (int i = 0; i < g.count; ++i) {
      std::string number = std::to_string(cluster.nodes.size() + 1);
      number.insert(0, width - number.size(), '0');
      cluster.nodes.push_back(Node{"n" + number, g.cores, g.gres, 0, 1, {}});
    }
  cluster.sort_nodes_naturally();
  return cluster;
}

Cluster uniform(const std::string& name, int count, std::int32_t cores, std::int32_t gpus) {
  if (gpus == 0) return make_cluster(name, {}, {{count, cores, {}}});
  return make_cluster(name, {"gpu"}, {{count, cores, {gpus}}});
}

// Three levels: `per_leaf` consecutive nodes per leaf switch, `per_middle` consecutive
// leaves per level-2 switch, one level-3 switch above all level-2 switches.
void add_three_level_tree(Cluster& cluster, int per_leaf, int per_middle) {
  SwitchTree tree;
  const int nodes = cluster.node_count();
  const int leaves = (nodes + per_leaf - 1) / per_leaf;
  const int middles = (leaves + per_middle - 1) / per_middle;
  for (int l = 0; l < leaves; ++l) {
    Switch leaf{"leaf" + std::to_string(l + 1), 1, -1, {}, {}};
    for (int n = l * per_leaf; n < std::min(nodes, (l + 1) * per_leaf); ++n)
      leaf.nodes.push_back(n);
    tree.switches.push_back(std::move(leaf));
  }
  for (int m = 0; m < middles; ++m) {
    Switch middle{"spine" + std::to_string(m + 1), 2, -1, {}, {}};
    for (int l = m * per_middle; l < std::min(leaves, (m + 1) * per_middle); ++l)
      middle.children.push_back(l);
    tree.switches.push_back(std::move(middle));
  }
  Switch top{"top", 3, -1, {}, {}};
  for (int m = 0; m < middles; ++m) top.children.push_back(leaves + m);
  tree.switches.push_back(std::move(top));
  tree.finalize(cluster.nodes.size());
  cluster.topology = std::move(tree);
}

struct Builtin {
  const char* name;
  const char* description;
  std::function<Cluster()> build;
};

const std::vector<Builtin>& builtins() {
  static const std::vector<Builtin> list = {
      {"paper1024", "1024 nodes x (8 cores, 2 GPUs), 1-D order: the documents' machine",
       [] { return uniform("paper1024", 1024, 8, 2); }},
      {"S", "128 nodes x (8 cores, 2 GPUs): AUCSCHED small machine",
       [] { return uniform("S", 128, 8, 2); }},
      {"M", "256 nodes x (8 cores, 2 GPUs): AUCSCHED medium machine",
       [] { return uniform("M", 256, 8, 2); }},
      {"L", "1024 nodes x (8 cores, 2 GPUs): AUCSCHED large machine",
       [] { return uniform("L", 1024, 8, 2); }},
      {"tsubame2", "1408 nodes x (12 cores, 3 GPUs), tree 16 nodes/leaf, 8 leaves/level 2",
       [] {
         Cluster c = uniform("tsubame2", 1408, 12, 3);
         add_three_level_tree(c, 16, 8);
         return c;
       }},
      {"tree1024", "1024 nodes x (16 cores, 3 GPUs), tree 16 nodes/leaf, 8 leaves/level 2",
       [] {
         Cluster c = uniform("tree1024", 1024, 16, 3);
         add_three_level_tree(c, 16, 8);
         return c;
       }},
      {"eurora", "64 nodes x 16 cores: n01-n32 with 2 GPUs, n33-n64 with 2 MICs",
       [] {
         return make_cluster("eurora", {"gpu", "mic"},
                             {{32, 16, {2, 0}}, {32, 16, {0, 2}}});
       }},
      {"sdsc-sp2", "128 nodes x 1 core: IBM SP2 at SDSC, for SWF trace replay",
       [] { return uniform("sdsc-sp2", 128, 1, 0); }},
      {"kth-sp2", "100 nodes x 1 core: IBM SP2 at KTH, for SWF trace replay",
       [] { return uniform("kth-sp2", 100, 1, 0); }},
  };
  return list;
}

std::string builtin_names() {
  std::string names;
  for (const Builtin& b : builtins()) names += (names.empty() ? "" : ", ") + std::string(b.name);
  return names;
}

}  // namespace

std::optional<Cluster> builtin_cluster(std::string_view name) {
  for (const Builtin& b : builtins())
    if (iequals(name, b.name)) return b.build();
  return std::nullopt;
}

std::vector<std::pair<std::string, std::string>> builtin_cluster_list() {
  std::vector<std::pair<std::string, std::string>> list;
  for (const Builtin& b : builtins()) list.emplace_back(b.name, b.description);
  return list;
}

Cluster load_cluster_spec(const std::string& name_or_path, std::vector<std::string>* warnings,
                          std::vector<OptionDefault>* slurm_options) {
  if (auto cluster = builtin_cluster(name_or_path)) return std::move(*cluster);
  std::filesystem::path path(name_or_path);
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored)) path /= "slurm.conf";
  if (std::filesystem::is_regular_file(path, ignored)) {
    SlurmConfig conf = load_slurm_conf(path.string());
    SiteOptions site = slurm_model_options(conf);
    if (warnings) {
      warnings->insert(warnings->end(), conf.warnings.begin(), conf.warnings.end());
      warnings->insert(warnings->end(), site.warnings.begin(), site.warnings.end());
    }
    if (slurm_options) *slurm_options = std::move(site.options);
    return std::move(conf.cluster);
  }
  throw InputError({"<cluster>", 0}, "cluster", name_or_path,
                   "neither a built-in cluster (" + builtin_names() +
                       ") nor a readable slurm.conf path");
}

Cluster swf_trace_cluster(const std::string& swf_path, std::vector<std::string>* warnings) {
  std::string how;
  const SwfMachine machine = swf_machine(read_swf_header(swf_path), swf_path, &how);
  if (warnings != nullptr)
    warnings->push_back("cluster from the header of " + swf_path + " (" + how + "): " +
                        std::to_string(machine.nodes) + " nodes of " +
                        std::to_string(machine.cores_per_node) +
                        (machine.cores_per_node == 1 ? " core" : " cores") +
                        "; pass --cluster for the machine's real shape");
  return uniform("trace:" + swf_trace_name(swf_path), machine.nodes, machine.cores_per_node, 0);
}

}  // namespace hs
