#include "bridge/scontrol_fields.hpp"

namespace hs::bridge {

std::vector<Field> split_fields(std::string_view line) {
  std::vector<Field> fields;
  std::size_t pos = 0;
  while (pos < line.size()) {
    while (pos < line.size() && line[pos] == ' ') ++pos;
    std::size_t end = line.find(' ', pos);
    if (end == std::string_view::npos) end = line.size();
    const std::string_view token = line.substr(pos, end - pos);
    pos = end;
    if (token.empty()) continue;
    const std::size_t eq = token.find('=');
    if (eq == std::string_view::npos || eq == 0) {
      if (!fields.empty()) fields.back().value += " " + std::string(token);
      continue;
    }
    fields.push_back({std::string(token.substr(0, eq)), std::string(token.substr(eq + 1))});
  }
  return fields;
}

void for_each_record(std::string_view text,
                     const std::function<void(long, const std::vector<Field>&)>& record) {
  long line_number = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_number;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
    if (line.rfind("No ", 0) == 0 && line.find(" in the system") != std::string_view::npos)
      continue;
    record(line_number, split_fields(line));
  }
}

}  // namespace hs::bridge
