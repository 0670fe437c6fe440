#include "model/job.hpp"

namespace hs {

std::int32_t JobRequest::gres_min(int type) const {
  for (const auto& g : gres)
    if (g.type == type || g.kind_type == type) return g.per_node_min;
  return 0;
}

std::int32_t JobRequest::gres_max(int type) const {
  for (const auto& g : gres)
    if (g.type == type || g.kind_type == type) return g.per_node_max;
  return 0;
}

const NodeRules& JobRequest::node_rules() const {
  static const NodeRules none;
  return rules ? *rules : none;
}

NodeRules& JobRequest::edit_node_rules() {
  auto copy = rules ? std::make_shared<NodeRules>(*rules) : std::make_shared<NodeRules>();
  rules = copy;
  return *copy;
}

bool JobRequest::has_gres_range() const {
  for (const auto& g : gres)
    if (g.per_node_max > g.per_node_min) return true;
  return false;
}

}  // namespace hs
