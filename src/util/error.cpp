#include "util/error.hpp"

namespace hs {

namespace {
std::string format_input_error(const InputLocation& where, const std::string& field,
                               const std::string& value, const std::string& problem) {
  std::string text = where.file;
  if (where.line > 0) text += ":" + std::to_string(where.line);
  text += ": field '" + field + "'";
  text += " value '" + value + "': " + problem;
  return text;
}
}  // namespace

InputError::InputError(InputLocation where, std::string field, std::string value,
                       std::string problem)
    : std::runtime_error(format_input_error(where, field, value, problem)),
      where_(std::move(where)),
      field_(std::move(field)),
      value_(std::move(value)),
      problem_(std::move(problem)) {}

}  // namespace hs
