#include "io/topology_conf.hpp"

#include <map>

#include "io/conf_lines.hpp"
#include "io/hostlist.hpp"

namespace hs {

namespace {

std::string where_text(const InputLocation& where) {
  return where.file + ":" + std::to_string(where.line);
}

struct SwitchLine {
  const ConfLine* line;
  const ConfPair* children;  // Switches=, or nullptr
};

class TopologyBuilder {
 public:
  TopologyBuilder(const Cluster& cluster, std::vector<std::string>& warnings)
      : cluster_(cluster), warnings_(warnings) {
    for (int i = 0; i < cluster.node_count(); ++i) node_index_[cluster.nodes[i].name] = i;
  }

  SwitchTree build(const std::vector<ConfLine>& lines) {
    for (const ConfLine& line : lines) add_switch(line);
    for (std::size_t s = 0; s < pending_.size(); ++s) link_children(s);
    check_acyclic();
    warn_loose_ends();
    tree_.finalize(cluster_.nodes.size());
    return std::move(tree_);
  }

 private:
  void add_switch(const ConfLine& line) {
    const ConfPair& name = line.first();
    if (name.key != "switchname")
      throw InputError(line.where, name.written, name.value, "expected SwitchName=");
    if (name.value.empty() || switch_index_.count(name.value))
      throw InputError(line.where, name.written, name.value, "empty or duplicate switch name");
    const ConfPair* nodes = line.find("nodes");
    const ConfPair* children = line.find("switches");
    if (nodes && children)
      throw InputError(line.where, "Switches", children->value,
                       "a switch may list Nodes= or Switches=, not both");
    // LinkSpeed is accepted silently: Slurm 22.05 documents it as not used either.
    for (const ConfPair& p : line.pairs)
      if (p.key != "switchname" && p.key != "nodes" && p.key != "switches" && p.key != "linkspeed")
        warnings_.push_back(where_text(line.where) + ": topology.conf key '" + p.written +
                            "' ignored");
    const auto index = static_cast<std::int32_t>(tree_.switches.size());
    switch_index_[name.value] = index;
    tree_.switches.push_back(Switch{name.value, 1, -1, {}, {}});
    pending_.push_back({&line, children});
    if (nodes) add_nodes(line, *nodes, index);
  }

  void add_nodes(const ConfLine& line, const ConfPair& list, std::int32_t s) {
    for (const std::string& name : expand_hostlist(list.value, line.where)) {
      const auto found = node_index_.find(name);
      if (found == node_index_.end())
        throw InputError(line.where, list.written, name, "node not defined in slurm.conf");
      if (!leaf_of_.emplace(found->second, s).second)
        throw InputError(line.where, list.written, name, "node is under two switches");
      tree_.switches[s].nodes.push_back(found->second);
    }
  }

  void link_children(std::size_t s) {
    const SwitchLine& entry = pending_[s];
    if (entry.children == nullptr) return;
    for (const std::string& child : expand_hostlist(entry.children->value, entry.line->where)) {
      const auto found = switch_index_.find(child);
      if (found == switch_index_.end())
        throw InputError(entry.line->where, entry.children->written, child, "unknown switch");
      if (!parent_.emplace(found->second, static_cast<std::int32_t>(s)).second)
        throw InputError(entry.line->where, entry.children->written, child,
                         "switch has two parents (not a tree) or is listed twice");
      tree_.switches[s].children.push_back(found->second);
    }
  }

  // Every switch must reach a top switch by following parents without repeating.
  void check_acyclic() const {
    for (std::size_t s = 0; s < tree_.switches.size(); ++s) {
      auto at = static_cast<std::int32_t>(s);
      for (std::size_t steps = 0; parent_.count(at); ++steps) {
        if (steps > tree_.switches.size()) {
          const SwitchLine& entry = pending_[s];
          throw InputError(entry.line->where, "SwitchName", tree_.switches[s].name,
                           "switch is part of a cycle");
        }
        at = parent_.at(at);
      }
    }
  }

  void warn_loose_ends() {
    const std::string file = pending_.empty() ? "" : pending_.front().line->where.file;
    int tops = 0;
    for (std::size_t s = 0; s < tree_.switches.size(); ++s)
      if (!parent_.count(static_cast<std::int32_t>(s))) ++tops;
    if (tops > 1)
      warnings_.push_back(file + ": " + std::to_string(tops) +
                          " top-level switches: jobs cannot span them");
    const std::size_t loose = cluster_.nodes.size() - leaf_of_.size();
    if (loose > 0)
      warnings_.push_back(file + ": " + std::to_string(loose) +
                          " nodes are under no switch");
  }

  const Cluster& cluster_;
  std::vector<std::string>& warnings_;
  SwitchTree tree_;
  std::vector<SwitchLine> pending_;
  std::map<std::string, std::int32_t> switch_index_;
  std::map<std::string, std::int32_t> node_index_;
  std::map<std::int32_t, std::int32_t> leaf_of_;  // node -> leaf switch
  std::map<std::int32_t, std::int32_t> parent_;   // switch -> parent switch
};

}  // namespace

SwitchTree read_topology_conf(const std::string& path, const Cluster& cluster,
                              std::vector<std::string>& warnings) {
  const std::vector<ConfLine> lines = read_conf_lines(path, false);
  if (lines.empty()) throw InputError({path, 0}, "SwitchName", "", "topology.conf has no switches");
  return TopologyBuilder(cluster, warnings).build(lines);
}

}  // namespace hs
