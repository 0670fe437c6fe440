#pragma once
// A small command-line parser shared by every subcommand: declared options with help text,
// `--key value` and `--key=value`, repeatable options, flags. Unknown options and missing
// values are InputErrors naming the option.
#include <map>
#include <string>
#include <vector>

namespace hs::cli {

struct OptionDecl {
  std::string name;         // without leading dashes
  std::string value_name;   // empty = flag
  std::string help;
  std::string default_text;
  bool repeatable = false;
};

class Args {
 public:
  Args(std::string command, std::string summary);
  void declare(OptionDecl decl);
  // Parses argv[first..argc). Throws InputError on unknown options or missing values.
  void parse(int argc, char** argv, int first);
  bool help_requested() const { return help_; }
  bool has(const std::string& name) const;
  std::string get(const std::string& name, const std::string& fallback) const;
  std::vector<std::string> get_all(const std::string& name) const;
  std::int64_t get_int(const std::string& name, std::int64_t fallback, std::int64_t lo,
                       std::int64_t hi) const;
  std::string usage() const;

 private:
  const OptionDecl* find(const std::string& name) const;
  std::string command_;
  std::string summary_;
  std::vector<OptionDecl> decls_;
  std::map<std::string, std::vector<std::string>> values_;
  bool help_ = false;
};

}  // namespace hs::cli
