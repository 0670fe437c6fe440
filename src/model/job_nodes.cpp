#include "model/job_nodes.hpp"

#include <algorithm>
#include <unordered_map>

namespace hs {

namespace {

bool listed(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

bool some_node_has(const Cluster& cluster, const std::string& feature) {
  return std::any_of(cluster.nodes.begin(), cluster.nodes.end(),
                     [&](const Node& n) { return listed(n.features, feature); });
}

std::optional<std::string> unknown_feature(const Cluster& cluster, const NodeConstraint& c) {
  for (const std::string& f : c.features)
    if (!some_node_has(cluster, f)) return "no node has feature '" + f + "' (-C " + c.text() + ")";
  return std::nullopt;
}

// Node indices of `names`, or the reason (an unknown name) in `why`.
std::vector<NodeIndex> indices_of(const Cluster& cluster, const std::vector<std::string>& names,
                                  const char* option, std::string& why) {
  if (names.empty()) return {};
  std::unordered_map<std::string, NodeIndex> index;
  for (NodeIndex n = 0; n < cluster.node_count(); ++n) index.emplace(cluster.nodes[n].name, n);
  std::vector<NodeIndex> out;
  for (const std::string& name : names) {
    const auto it = index.find(name);
    if (it == index.end()) {
      why = std::string(option) + ": no node named '" + name + "'";
      return {};
    }
    out.push_back(it->second);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::optional<std::string> required_problem(const Cluster& cluster, const Partition* partition,
                                            const JobRequest& req, const NodeRules& rules) {
  const std::int64_t count = static_cast<std::int64_t>(rules.required.size());
  const std::int32_t max_nodes = req.nodes_max > 0 ? req.nodes_max : req.nodes_min;
  if (max_nodes > 0 && count > max_nodes)
    return "-w names " + std::to_string(count) + " nodes, -N allows at most " +
           std::to_string(max_nodes);
  if (count > req.ntasks)
    return "-w names " + std::to_string(count) + " nodes for " + std::to_string(req.ntasks) +
           " tasks";
  for (NodeIndex n : rules.required) {
    const std::string& name = cluster.nodes[n].name;
    if (rules.allowed && !(*rules.allowed)[n])
      return "-w node " + name + " is ruled out by -C or -x";
    if (partition && !std::binary_search(partition->nodes.begin(), partition->nodes.end(), n))
      return "-w node " + name + " is outside partition " + partition->name;
  }
  return std::nullopt;
}

// The bound form of `rules` (allowed, required), or the reason in `why`.
NodeRules bound_rules(const Cluster& cluster, const NodeRules& rules, std::string& why) {
  NodeRules bound = rules;
  bound.allowed.reset();
  bound.required.clear();
  if (auto bad = unknown_feature(cluster, rules.constraint)) {
    why = *bad;
    return bound;
  }
  const std::vector<NodeIndex> excluded = indices_of(cluster, rules.exclude, "-x", why);
  if (!why.empty()) return bound;
  bound.required = indices_of(cluster, rules.nodelist, "-w", why);
  if (!why.empty()) return bound;
  if (!rules.constraint.empty() || !excluded.empty()) {
    auto allowed = std::make_shared<std::vector<char>>(cluster.nodes.size(), 0);
    for (NodeIndex n = 0; n < cluster.node_count(); ++n)
      (*allowed)[n] = rules.constraint.matches(cluster.nodes[n].features);
    for (NodeIndex n : excluded) (*allowed)[n] = 0;
    bound.allowed = std::move(allowed);
  }
  return bound;
}

}  // namespace

std::optional<std::string> bind_job_nodes(const Cluster& cluster, const Partition* partition,
                                          JobRequest& req) {
  if (!req.rules) return std::nullopt;
  std::string why;
  auto bound = std::make_shared<NodeRules>(bound_rules(cluster, *req.rules, why));
  if (why.empty())
    if (auto bad = required_problem(cluster, partition, req, *bound)) why = *bad;
  if (!why.empty()) {  // left unbound
    bound->allowed.reset();
    bound->required.clear();
  }
  req.rules = std::move(bound);
  if (!why.empty()) return why;
  return std::nullopt;
}

std::vector<char> job_node_mask(const Cluster& cluster, const Job& job) {
  std::vector<char> mask(cluster.nodes.size(), 1);
  if (!cluster.partitions.empty()) {
    std::fill(mask.begin(), mask.end(), 0);
    if (const Partition* p = cluster.find_partition(job.partition))
      for (NodeIndex n : p->nodes) mask[n] = 1;
  }
  if (const auto& allowed = job.req.node_rules().allowed)
    for (std::size_t n = 0; n < mask.size(); ++n) mask[n] &= (*allowed)[n];
  return mask;
}

bool has_node_rules(const JobRequest& req) {
  const NodeRules& r = req.node_rules();
  return !r.constraint.empty() || !r.exclude.empty() || !r.nodelist.empty();
}

std::optional<std::string> node_rules_violation(const Cluster& cluster, const JobRequest& req,
                                                const Allocation& alloc) {
  if (!has_node_rules(req)) return std::nullopt;
  const NodeRules& rules = req.node_rules();
  std::vector<std::string> used;
  for (const NodeShare& s : alloc.shares) {
    const Node& node = cluster.nodes[s.node];
    if (!rules.constraint.matches(node.features))
      return "node " + node.name + " lacks the features -C " + rules.constraint.text();
    if (listed(rules.exclude, node.name)) return "node " + node.name + " is excluded by -x";
    used.push_back(node.name);
  }
  for (const std::string& name : rules.nodelist)
    if (!listed(used, name)) return "-w node " + name + " is not in the allocation";
  return std::nullopt;
}

}  // namespace hs
