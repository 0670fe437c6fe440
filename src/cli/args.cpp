#include "cli/args.hpp"

#include <charconv>

#include "util/error.hpp"

namespace hs::cli {

namespace {
const InputLocation kCommandLine{"<command line>", 0};
}

Args::Args(std::string command, std::string summary)
    : command_(std::move(command)), summary_(std::move(summary)) {}

void Args::declare(OptionDecl decl) { decls_.push_back(std::move(decl)); }

const OptionDecl* Args::find(const std::string& name) const {
  for (const auto& d : decls_)
    if (d.name == name) return &d;
  return nullptr;
}

void Args::parse(int argc, char** argv, int first) {
  for (int i = first; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      help_ = true;
      continue;
    }
    if (arg.rfind("--", 0) != 0)
      throw InputError(kCommandLine, "argument", arg, "unexpected argument (options start with --)");
    std::string name = arg.substr(2), value;
    const auto eq = name.find('=');
    const bool inline_value = eq != std::string::npos;
    if (inline_value) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
    }
    const OptionDecl* decl = find(name);
    if (!decl) throw InputError(kCommandLine, "--" + name, arg, "unknown option of '" + command_ + "' (see --help)");
    if (decl->value_name.empty()) {
      if (inline_value) throw InputError(kCommandLine, "--" + name, value, "this flag takes no value");
      values_[name].push_back("true");
      continue;
    }
    if (!inline_value) {
      if (i + 1 >= argc) throw InputError(kCommandLine, "--" + name, "", "missing value " + decl->value_name);
      value = argv[++i];
    }
    if (!decl->repeatable && values_.count(name))
      throw InputError(kCommandLine, "--" + name, value, "given more than once");
    values_[name].push_back(value);
  }
}

bool Args::has(const std::string& name) const { return values_.count(name) != 0; }

std::string Args::get(const std::string& name, const std::string& fallback) const {
  const auto it = values_.find(name);
  return it == values_.end() ? fallback : it->second.back();
}

std::vector<std::string> Args::get_all(const std::string& name) const {
  const auto it = values_.find(name);
  return it == values_.end() ? std::vector<std::string>{} : it->second;
}

std::int64_t Args::get_int(const std::string& name, std::int64_t fallback, std::int64_t lo,
                           std::int64_t hi) const {
  if (!has(name)) return fallback;
  const std::string text = get(name, "");
  std::int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size())
    throw InputError(kCommandLine, "--" + name, text, "expected an integer");
  if (v < lo || v > hi)
    throw InputError(kCommandLine, "--" + name, text,
                     "must be in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return v;
}

std::string Args::usage() const {
  std::string out = "usage: hetsched " + command_ + " [options]\n\n" + summary_ + "\n\noptions:\n";
  for (const auto& d : decls_) {
    std::string left = "  --" + d.name + (d.value_name.empty() ? "" : " " + d.value_name);
    if (left.size() < 28) left.resize(28, ' ');
    else left += "\n" + std::string(28, ' ');
    out += left + d.help;
    if (!d.default_text.empty()) out += " (default: " + d.default_text + ")";
    if (d.repeatable) out += " [repeatable]";
    out += "\n";
  }
  out += "  -h, --help                show this help\n";
  return out;
}

}  // namespace hs::cli
