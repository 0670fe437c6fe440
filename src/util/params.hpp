#pragma once
// One option registry for every policy: `--opt key=value` on the command line (or a
// scheduler spec "name:key=value,key=value") lands here; each policy reads its own keys
// with typed getters that declare the description, default and bounds. Unknown keys and
// out-of-range values are InputErrors naming the key and value.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "util/error.hpp"

namespace hs {

struct ParamDoc {
  std::string key;
  std::string description;
  std::string default_value;
  std::string allowed;  // e.g. "[1, 1000]" or "conservative|easy"
};

// An option value from a configuration file (e.g. a site's slurm.conf), with where it
// was written so a bad value is reported there.
struct OptionDefault {
  std::string key;
  std::string value;
  InputLocation where;
  std::string field;  // as written there (e.g. "PriorityWeightAge"); empty = the key
};

class Params {
 public:
  Params() = default;
  // Parses "k=v,k=v" (empty string allowed). `origin` labels errors.
  static Params parse(const std::string& text, const std::string& origin);
  void set(const std::string& key, const std::string& value);
  // Sets `key` unless it is already set (options given explicitly win over defaults);
  // true if it was set.
  bool set_default(const OptionDefault& d);
  bool has(const std::string& key) const { return values_.count(key) != 0; }
  const std::map<std::string, std::string>& values() const { return values_; }

  std::int64_t get_int(const std::string& key, std::int64_t def, std::int64_t lo,
                       std::int64_t hi, const std::string& description);
  double get_double(const std::string& key, double def, double lo, double hi,
                    const std::string& description);
  bool get_bool(const std::string& key, bool def, const std::string& description);
  std::string get_choice(const std::string& key, const std::string& def,
                         const std::vector<std::string>& allowed,
                         const std::string& description);
  // Any text; for options a policy outside C++ (a Python class) checks itself.
  std::string get_text(const std::string& key, const std::string& def,
                       const std::string& description);

  // Throws InputError for any key set but never read by the policy.
  void reject_unused(const std::string& owner) const;
  // Keys set but never read, sorted.
  std::vector<std::string> unused_keys() const;
  const std::vector<ParamDoc>& docs() const { return docs_; }
  // The effective configuration, "key=value" sorted by key, for run headers.
  std::string effective() const;

 private:
  const std::string* lookup(const std::string& key, const std::string& def_text,
                            const std::string& allowed, const std::string& description);
  InputLocation where_of(const std::string& key) const;
  std::string field_of(const std::string& key) const;
  std::map<std::string, std::string> values_;
  std::map<std::string, InputLocation> default_where_;  // keys set by set_default
  std::map<std::string, std::string> default_field_;
  std::map<std::string, std::string> effective_;
  std::vector<ParamDoc> docs_;
  std::string origin_ = "<options>";
};

}  // namespace hs
