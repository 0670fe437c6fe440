#pragma once
// A JSON value together with its path from the document root ("$.bids[3].uses[0].node"),
// and typed getters that throw hs::InputError naming the file, that path and the value.
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace hs::window_file {

class JsonField {
 public:
  JsonField(const nlohmann::json& value, std::string path, const std::string& file)
      : value_(value), path_(std::move(path)), file_(file) {}

  const nlohmann::json& value() const { return value_; }
  const std::string& path() const { return path_; }

  // Member `key` of this object; required or (optional_member) absent -> nullptr-like.
  JsonField member(std::string_view key) const;
  bool has(std::string_view key) const;
  JsonField element(std::size_t index) const;

  // Type checks; each throws naming this field unless the value has the type.
  void expect_object(std::initializer_list<std::string_view> allowed_keys) const;
  std::size_t array_size(std::size_t min, std::size_t max) const;
  std::string as_string() const;
  std::int64_t as_integer(std::int64_t min, std::int64_t max) const;
  double as_number() const;

  [[noreturn]] void fail(const std::string& problem) const;

 private:
  const nlohmann::json& value_;
  std::string path_;
  const std::string& file_;
};

}  // namespace hs::window_file
