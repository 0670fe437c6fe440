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
                                            const JobRequest& req) {
  const std::int64_t count = static_cast<std::int64_t>(req.required.size());
  const std::int32_t max_nodes = req.nodes_max > 0 ? req.nodes_max : req.nodes_min;
  if (max_nodes > 0 && count > max_nodes)
    return "-w names " + std::to_string(count) + " nodes, -N allows at most " +
           std::to_string(max_nodes);
  if (count > req.ntasks)
    return "-w names " + std::to_string(count) + " nodes for " + std::to_string(req.ntasks) +
           " tasks";
  for (NodeIndex n : req.required) {
    const std::string& name = cluster.nodes[n].name;
    if (!node_allowed(req, n)) return "-w node " + name + " is ruled out by -C or -x";
    if (partition && !std::binary_search(partition->nodes.begin(), partition->nodes.end(), n))
      return "-w node " + name + " is outside partition " + partition->name;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> bind_job_nodes(const Cluster& cluster, const Partition* partition,
                                          JobRequest& req) {
  req.allowed.reset();
  req.required.clear();
  if (auto bad = unknown_feature(cluster, req.constraint)) return bad;
  std::string why;
  const std::vector<NodeIndex> excluded = indices_of(cluster, req.exclude, "-x", why);
  if (!why.empty()) return why;
  JobRequest bound = req;  // filled, then kept only when every rule can be met
  bound.required = indices_of(cluster, req.nodelist, "-w", why);
  if (!why.empty()) return why;
  if (!req.constraint.empty() || !excluded.empty()) {
    auto allowed = std::make_shared<std::vector<char>>(cluster.nodes.size(), 0);
    for (NodeIndex n = 0; n < cluster.node_count(); ++n)
      (*allowed)[n] = req.constraint.matches(cluster.nodes[n].features);
    for (NodeIndex n : excluded) (*allowed)[n] = 0;
    bound.allowed = std::move(allowed);
  }
  if (auto bad = required_problem(cluster, partition, bound)) return bad;
  req.allowed = std::move(bound.allowed);
  req.required = std::move(bound.required);
  return std::nullopt;
}

std::vector<char> job_node_mask(const Cluster& cluster, const Job& job) {
  std::vector<char> mask(cluster.nodes.size(), 1);
  if (!cluster.partitions.empty()) {
    std::fill(mask.begin(), mask.end(), 0);
    if (const Partition* p = cluster.find_partition(job.partition))
      for (NodeIndex n : p->nodes) mask[n] = 1;
  }
  if (job.req.allowed)
    for (std::size_t n = 0; n < mask.size(); ++n) mask[n] &= (*job.req.allowed)[n];
  return mask;
}

bool has_node_rules(const JobRequest& req) {
  return !req.constraint.empty() || !req.exclude.empty() || !req.nodelist.empty();
}

std::optional<std::string> node_rules_violation(const Cluster& cluster, const JobRequest& req,
                                                const Allocation& alloc) {
  if (!has_node_rules(req)) return std::nullopt;
  std::vector<std::string> used;
  for (const NodeShare& s : alloc.shares) {
    const Node& node = cluster.nodes[s.node];
    if (!req.constraint.matches(node.features))
      return "node " + node.name + " lacks the features -C " + req.constraint.text();
    if (listed(req.exclude, node.name)) return "node " + node.name + " is excluded by -x";
    used.push_back(node.name);
  }
  for (const std::string& name : req.nodelist)
    if (!listed(used, name)) return "-w node " + name + " is not in the allocation";
  return std::nullopt;
}

}  // namespace hs
