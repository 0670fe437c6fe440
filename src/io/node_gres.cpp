#include "io/node_gres.hpp"

#include <cctype>
#include <vector>

#include "io/text_file.hpp"

namespace hs {

using namespace text;  // io's parsing helpers

namespace {

constexpr std::int64_t kMaxGresPerNode = 1'000'000;

std::vector<std::string_view> split_outside_parens(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    const char c = i < text.size() ? text[i] : sep;
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c != sep || depth > 0) continue;
    parts.push_back(text.substr(start, i - start));
    start = i + 1;
  }
  return parts;
}

bool parentheses_balanced(std::string_view text) {
  int depth = 0;
  for (char c : text) {
    depth += (c == '(') - (c == ')');
    if (depth < 0) return false;
  }
  return depth == 0;
}

bool is_count(std::string_view text) {
  if (text.empty()) return false;
  if (text.back() == 'K' || text.back() == 'M' || text.back() == 'G' || text.back() == 'k' ||
      text.back() == 'm' || text.back() == 'g')
    text.remove_suffix(1);
  if (text.empty()) return false;
  for (char c : text)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

void add_count(std::map<std::string, std::int64_t>& counts, const std::string& key,
               std::int64_t count, std::string_view text, const InputLocation& where) {
  std::int64_t& total = counts[key];
  total += count;
  if (total > kMaxGresPerNode)
    throw InputError(where, "Gres", std::string(text), "count too large");
}

std::int64_t parse_count(std::string_view text, const InputLocation& where) {
  std::int64_t scale = 1;
  switch (std::tolower(static_cast<unsigned char>(text.back()))) {
    case 'k': scale = 1024; break;
    case 'm': scale = 1024 * 1024; break;
    case 'g': scale = 1024 * 1024 * 1024; break;
    default: break;
  }
  if (scale > 1) text.remove_suffix(1);
  const std::int64_t count = parse_int_in(text, 0, kMaxGresPerNode, where, "Gres") * scale;
  if (count > kMaxGresPerNode)
    throw InputError(where, "Gres", std::string(text), "count too large");
  return count;
}

}  // namespace

bool is_gres_type(std::string_view type) {
  if (type.empty() || !std::isalnum(static_cast<unsigned char>(type.front()))) return false;
  for (char c : type)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '.')
      return false;
  return true;
}

bool is_gres_name(std::string_view name) {
  if (name.empty() || !std::isalpha(static_cast<unsigned char>(name.front()))) return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') return false;
  return true;
}

std::map<std::string, std::int64_t> parse_node_gres(std::string_view text,
                                                    const InputLocation& where) {
  std::map<std::string, std::int64_t> counts;
  const std::string_view all = trim(text);
  if (all.empty() || iequals(all, "(null)") || iequals(all, "none")) return counts;
  if (!parentheses_balanced(all))
    throw InputError(where, "Gres", std::string(all), "unbalanced parentheses");
  for (std::string_view item : split_outside_parens(all, ',')) {
    const std::string_view spec = trim(item.substr(0, item.find('(')));
    if (item.find('(') != std::string_view::npos && item.back() != ')')
      throw InputError(where, "Gres", std::string(item), "text after ')'");
    const auto parts = split_outside_parens(spec, ':');
    if (parts.size() > 3 || !is_gres_name(parts[0]))
      throw InputError(where, "Gres", std::string(item), "expected name[:type][:count]");
    std::int64_t count = 1;
    const bool counted = parts.size() > 1 && is_count(parts.back());
    if (counted) count = parse_count(parts.back(), where);
    else if (parts.size() == 3)
      throw InputError(where, "Gres", std::string(item), "bad count");
    const bool typed = parts.size() == 3 || (parts.size() == 2 && !counted);
    if (typed && !is_gres_type(parts[1]))
      throw InputError(where, "Gres", std::string(item), "bad gres type");
    add_count(counts, std::string(parts[0]), count, text, where);
    if (typed)
      add_count(counts, std::string(parts[0]) + ":" + std::string(parts[1]), count, text, where);
  }
  return counts;
}

}  // namespace hs
