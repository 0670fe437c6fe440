#include "io/conf_lines.hpp"

#include <filesystem>

#include "io/text_file.hpp"

namespace hs {

using namespace text;  // io's parsing helpers

namespace {

constexpr int kMaxIncludeDepth = 16;

// Text before an unquoted '#'.
std::string_view strip_comment(std::string_view line) {
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '"') quoted = !quoted;
    if (line[i] == '#' && !quoted) return line.substr(0, i);
  }
  return line;
}

std::vector<std::string> split_tokens(std::string_view text, const InputLocation& where) {
  std::vector<std::string> tokens;
  std::string current;
  bool quoted = false;
  for (char c : text) {
    if (c == '"') {
      quoted = !quoted;
      current += c;
    } else if ((c == ' ' || c == '\t') && !quoted) {
      if (!current.empty()) tokens.push_back(std::move(current));
      current.clear();
    } else {
      current += c;
    }
  }
  if (quoted) throw InputError(where, "line", std::string(trim(text)), "unterminated quote");
  if (!current.empty()) tokens.push_back(std::move(current));
  return tokens;
}

ConfPair make_pair(const std::string& token, const InputLocation& where) {
  const std::size_t eq = token.find('=');
  if (eq == std::string::npos || eq == 0)
    throw InputError(where, "token", token, "expected Key=Value");
  ConfPair pair{to_lower(token.substr(0, eq)), token.substr(0, eq), token.substr(eq + 1)};
  std::string& v = pair.value;
  if (v.size() >= 2 && v.front() == '"' && v.back() == '"') v = v.substr(1, v.size() - 2);
  if (v.find('"') != std::string::npos)
    throw InputError(where, pair.written, pair.value, "misplaced quote");
  return pair;
}

class ConfReader {
 public:
  explicit ConfReader(bool allow_include) : allow_include_(allow_include) {}

  void read(const std::string& path, int depth, const InputLocation& from) {
    if (depth > kMaxIncludeDepth)
      throw InputError(from, "Include", path, "includes nested too deeply (a cycle?)");
    const std::string text = read_text_file(path);
    const auto physical = split_lines(text);
    for (std::size_t i = 0; i < physical.size(); ++i) {
      const InputLocation where{path, static_cast<long>(i + 1)};
      std::string logical;
      std::string_view part = trim(strip_comment(physical[i]));
      while (part.ends_with('\\')) {
        logical.append(part.substr(0, part.size() - 1)).append(" ");
        if (++i >= physical.size())
          throw InputError({path, static_cast<long>(i)}, "line", std::string(part),
                           "continued by a trailing '\\' but the file ends there");
        part = trim(strip_comment(physical[i]));
      }
      logical.append(part);
      handle(logical, where, depth);
    }
  }

  std::vector<ConfLine> lines;

 private:
  void handle(const std::string& logical, const InputLocation& where, int depth) {
    std::vector<std::string> tokens = split_tokens(logical, where);
    if (tokens.empty()) return;
    if (iequals(tokens[0], "include")) {
      if (!allow_include_) throw InputError(where, "Include", logical, "not allowed in this file");
      if (tokens.size() != 2) throw InputError(where, "Include", logical, "expected one file name");
      const std::string target = resolve(tokens[1], where.file);
      std::error_code ec;
      if (!std::filesystem::exists(target, ec))
        throw InputError(where, "Include", tokens[1], "no such file");
      if (std::filesystem::is_directory(target, ec))
        throw InputError(where, "Include", tokens[1], "is a directory, not a file");
      read(target, depth + 1, where);
      return;
    }
    ConfLine line{where, {}};
    for (const std::string& token : tokens) line.pairs.push_back(make_pair(token, where));
    lines.push_back(std::move(line));
  }

  static std::string resolve(const std::string& target, const std::string& including) {
    const std::filesystem::path p(target);
    if (p.is_absolute()) return target;
    return (std::filesystem::path(including).parent_path() / p).string();
  }

  bool allow_include_;
};

}  // namespace

const ConfPair* ConfLine::find(const std::string& lower_key) const {
  const ConfPair* found = nullptr;
  for (const ConfPair& p : pairs)
    if (p.key == lower_key) found = &p;  // the last occurrence wins, as in Slurm
  return found;
}

std::vector<ConfLine> read_conf_lines(const std::string& path, bool allow_include) {
  ConfReader reader(allow_include);
  reader.read(path, 0, InputLocation{path, 0});
  return std::move(reader.lines);
}

}  // namespace hs
