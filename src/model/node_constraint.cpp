#include "model/node_constraint.hpp"

#include <algorithm>
#include <cctype>

namespace hs {

bool is_feature_name(std::string_view name) {
  if (name.empty()) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' ||
           c == ':';
  });
}

bool NodeConstraint::matches(std::span<const std::string> node_features) const {
  auto has = [&](const std::string& f) {
    return std::find(node_features.begin(), node_features.end(), f) != node_features.end();
  };
  if (features.empty()) return true;
  return any ? std::any_of(features.begin(), features.end(), has)
             : std::all_of(features.begin(), features.end(), has);
}

std::string NodeConstraint::text() const {
  std::string out;
  for (const std::string& f : features) out += (out.empty() ? "" : (any ? "|" : "&")) + f;
  return out;
}

std::optional<std::string> parse_node_constraint(std::string_view text, NodeConstraint& out) {
  out = {};
  if (text.empty()) return "empty constraint";
  for (char c : std::string_view("[]()*,")) {
    if (text.find(c) == std::string_view::npos) continue;
    return std::string("'") + c +
           "': brackets, parentheses, counts and ',' are not modelled (use a, a&b or a|b)";
  }
  const bool has_and = text.find('&') != std::string_view::npos;
  const bool has_or = text.find('|') != std::string_view::npos;
  if (has_and && has_or) return "mixing '&' and '|' is not modelled";
  out.any = has_or;
  const char sep = has_or ? '|' : '&';
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != sep) continue;
    const std::string_view name = text.substr(start, i - start);
    if (!is_feature_name(name)) return "bad feature name '" + std::string(name) + "'";
    if (std::find(out.features.begin(), out.features.end(), name) == out.features.end())
      out.features.emplace_back(name);
    start = i + 1;
  }
  return std::nullopt;
}

}  // namespace hs
