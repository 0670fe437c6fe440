#include "util/params.hpp"

#include <charconv>
#include <sstream>

#include "util/error.hpp"

namespace hs {

namespace {
std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}
template <typename T>
std::string num_text(T v) {
  std::ostringstream os;
  os << v;
  return os.str();
}
}  // namespace

Params Params::parse(const std::string& text, const std::string& origin) {
  Params p;
  p.origin_ = origin;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    item = trim(item);
    if (item.empty()) continue;
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw InputError({origin, 0}, "option", item, "expected key=value");
    p.set(trim(item.substr(0, eq)), trim(item.substr(eq + 1)));
  }
  return p;
}

void Params::set(const std::string& key, const std::string& value) {
  values_[key] = value;
  default_where_.erase(key);
  default_field_.erase(key);
}

bool Params::set_default(const OptionDefault& d) {
  if (values_.count(d.key)) return false;
  values_[d.key] = d.value;
  default_where_[d.key] = d.where;
  if (!d.field.empty()) default_field_[d.key] = d.field;
  return true;
}

std::string Params::field_of(const std::string& key) const {
  const auto it = default_field_.find(key);
  return it == default_field_.end() ? key : it->second;
}

InputLocation Params::where_of(const std::string& key) const {
  const auto it = default_where_.find(key);
  return it == default_where_.end() ? InputLocation{origin_, 0} : it->second;
}

const std::string* Params::lookup(const std::string& key, const std::string& def_text,
                                  const std::string& allowed,
                                  const std::string& description) {
  bool documented = false;
  for (const auto& d : docs_) documented |= d.key == key;
  if (!documented) docs_.push_back({key, description, def_text, allowed});
  const auto it = values_.find(key);
  effective_[key] = it == values_.end() ? def_text : it->second;
  return it == values_.end() ? nullptr : &it->second;
}

std::int64_t Params::get_int(const std::string& key, std::int64_t def, std::int64_t lo,
                             std::int64_t hi, const std::string& description) {
  const std::string allowed = "[" + num_text(lo) + ", " + num_text(hi) + "]";
  const std::string* text = lookup(key, num_text(def), allowed, description);
  if (!text) return def;
  std::int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(text->data(), text->data() + text->size(), v);
  if (ec != std::errc() || ptr != text->data() + text->size())
    throw InputError(where_of(key), field_of(key), *text, "expected an integer");
  if (v < lo || v > hi) throw InputError(where_of(key), field_of(key), *text, "must be in " + allowed);
  return v;
}

double Params::get_double(const std::string& key, double def, double lo, double hi,
                          const std::string& description) {
  const std::string allowed = "[" + num_text(lo) + ", " + num_text(hi) + "]";
  const std::string* text = lookup(key, num_text(def), allowed, description);
  if (!text) return def;
  double v = 0;
  try {
    size_t used = 0;
    v = std::stod(*text, &used);
    if (used != text->size()) throw std::invalid_argument("trailing");
  } catch (const std::exception&) {
    throw InputError(where_of(key), field_of(key), *text, "expected a number");
  }
  if (!(v >= lo && v <= hi)) throw InputError(where_of(key), field_of(key), *text, "must be in " + allowed);
  return v;
}

bool Params::get_bool(const std::string& key, bool def, const std::string& description) {
  const std::string* text = lookup(key, def ? "true" : "false", "true|false", description);
  if (!text) return def;
  if (*text == "true" || *text == "1" || *text == "yes") return true;
  if (*text == "false" || *text == "0" || *text == "no") return false;
  throw InputError(where_of(key), field_of(key), *text, "expected true or false");
}

std::string Params::get_choice(const std::string& key, const std::string& def,
                               const std::vector<std::string>& allowed,
                               const std::string& description) {
  std::string list;
  for (const auto& a : allowed) list += (list.empty() ? "" : "|") + a;
  const std::string* text = lookup(key, def, list, description);
  if (!text) return def;
  for (const auto& a : allowed)
    if (*text == a) return a;
  throw InputError(where_of(key), field_of(key), *text, "must be one of " + list);
}

std::string Params::get_text(const std::string& key, const std::string& def,
                             const std::string& description) {
  const std::string* text = lookup(key, def, "text", description);
  return text ? *text : def;
}

void Params::reject_unused(const std::string& owner) const {
  for (const auto& [key, value] : values_) {
    if (effective_.count(key) == 0)
      throw InputError(where_of(key), field_of(key), value, "unknown option for " + owner);
  }
}

std::vector<std::string> Params::unused_keys() const {
  std::vector<std::string> keys;
  for (const auto& [key, value] : values_)
    if (effective_.count(key) == 0) keys.push_back(key);
  return keys;
}

std::string Params::effective() const {
  std::string out;
  for (const auto& [k, v] : effective_) out += (out.empty() ? "" : ",") + k + "=" + v;
  return out;
}

}  // namespace hs
