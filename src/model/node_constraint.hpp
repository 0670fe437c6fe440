#pragma once
// -C/--constraint: which node Features a job needs, as Slurm 22.05 writes them:
//   "a100"        nodes with feature a100
//   "a&b&c"       nodes with all of them (AND)
//   "a|b|c"       nodes with at least one of them (OR, decided node by node)
// Slurm's other forms — mixing & and | without parentheses, brackets [a|b] (one choice for
// every node), parentheses, counts a*2 and changeable (node_features) — are not modelled
// and refused with a reason.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace hs {

struct NodeConstraint {
  std::vector<std::string> features;  // empty = no constraint
  bool any = false;                   // true: OR of the features, false: AND

  bool empty() const { return features.empty(); }
  // Whether a node with `node_features` satisfies the constraint (always when empty).
  bool matches(std::span<const std::string> node_features) const;
  // The constraint as Slurm writes it ("a&b"), "" when empty.
  std::string text() const;
  bool operator==(const NodeConstraint&) const = default;
};

// Parses `text`; the reason it cannot be modelled or is malformed, or nullopt.
std::optional<std::string> parse_node_constraint(std::string_view text, NodeConstraint& out);

// Feature names: letters, digits and '_', '-', '.', ':' — what Slurm accepts in Features=.
bool is_feature_name(std::string_view name);

}  // namespace hs
