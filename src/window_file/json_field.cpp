#include "window_file/json_field.hpp"

#include <cmath>

#include "util/error.hpp"

namespace hs::window_file {

namespace {

// The value as it appears in the input, cut short when long. Arrays and objects are only
// summarised: dumping them recurses as deep as they nest, and an input can nest deeply.
std::string shown(const nlohmann::json& value) {
  constexpr std::size_t kMax = 60;
  if (value.is_array()) return "[... " + std::to_string(value.size()) + " elements]";
  if (value.is_object()) return "{... " + std::to_string(value.size()) + " fields}";
  std::string text = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (text.size() > kMax) text = text.substr(0, kMax) + "...";
  return text;
}

}  // namespace

void JsonField::fail(const std::string& problem) const {
  throw InputError({file_, 0}, path_, shown(value_), problem);
}

bool JsonField::has(std::string_view key) const {
  return value_.is_object() && value_.contains(key);
}

JsonField JsonField::member(std::string_view key) const {
  if (!has(key)) fail("missing field '" + std::string(key) + "'");
  return JsonField(value_.find(key).value(), path_ + "." + std::string(key), file_);
}

JsonField JsonField::element(std::size_t index) const {
  return JsonField(value_.at(index), path_ + "[" + std::to_string(index) + "]", file_);
}

void JsonField::expect_object(std::initializer_list<std::string_view> allowed_keys) const {
  if (!value_.is_object()) fail("expected an object");
  for (auto it = value_.begin(); it != value_.end(); ++it) {
    bool known = false;
    for (std::string_view key : allowed_keys) known = known || it.key() == key;
    if (!known) {
      std::string list;
      for (std::string_view key : allowed_keys) list += (list.empty() ? "" : ", ") + std::string(key);
      JsonField(it.value(), path_ + "." + it.key(), file_)
          .fail("unknown field (known: " + list + ")");
    }
  }
}

std::size_t JsonField::array_size(std::size_t min, std::size_t max) const {
  if (!value_.is_array()) fail("expected an array");
  const std::size_t n = value_.size();
  if (n < min || n > max)
    fail("expected " + std::to_string(min) + " to " + std::to_string(max) + " elements, got " +
         std::to_string(n));
  return n;
}

std::string JsonField::as_string() const {
  if (!value_.is_string()) fail("expected a string");
  return value_.get<std::string>();
}

std::int64_t JsonField::as_integer(std::int64_t min, std::int64_t max) const {
  if (!value_.is_number_integer()) fail("expected an integer");
  const bool too_big = value_.is_number_unsigned() &&
                       value_.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX);
  const std::int64_t v = too_big ? INT64_MAX : value_.get<std::int64_t>();
  if (too_big || v < min || v > max)
    fail("expected an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]");
  return v;
}

double JsonField::as_number() const {
  if (!value_.is_number()) fail("expected a number");
  const double v = value_.get<double>();
  if (!std::isfinite(v)) fail("expected a finite number");
  return v;
}

}  // namespace hs::window_file
