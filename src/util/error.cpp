#include "util/error.hpp"

#include <cstdio>

namespace hs {

namespace {

// Length of the well-formed UTF-8 sequence starting at text[i] (2-4 bytes: no overlong
// forms, no surrogates, nothing above U+10FFFF), or 0 when the byte does not start one.
std::size_t utf8_sequence_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  std::size_t length = 0;
  unsigned char lo = 0x80, hi = 0xbf;  // allowed range of the second byte
  if (lead >= 0xc2 && lead <= 0xdf) length = 2;
  else if (lead >= 0xe0 && lead <= 0xef) length = 3;
  else if (lead >= 0xf0 && lead <= 0xf4) length = 4;
  if (lead == 0xe0) lo = 0xa0;
  if (lead == 0xed) hi = 0x9f;
  if (lead == 0xf0) lo = 0x90;
  if (lead == 0xf4) hi = 0x8f;
  if (length == 0 || i + length > text.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < length; ++k)
    if (byte(i + k) < 0x80 || byte(i + k) > 0xbf) return 0;
  return length;
}

std::string escape_byte(unsigned char c) {
  switch (c) {
    case '\n': return "\\n";
    case '\r': return "\\r";
    case '\t': return "\\t";
    default: {
      char buffer[5];
      std::snprintf(buffer, sizeof buffer, "\\x%02x", c);
      return buffer;
    }
  }
}

std::string format_input_error(const InputLocation& where, const std::string& field,
                               const std::string& value, const std::string& problem) {
  std::string text = escape_for_message(where.file);
  if (where.line > 0) text += ":" + std::to_string(where.line);
  text += ": field '" + escape_for_message(field) + "'";
  text += " value '" + escape_for_message(value) + "': " + escape_for_message(problem);
  return text;
}

}  // namespace

std::string escape_for_message(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += text[i++];
    } else if (const std::size_t n = c >= 0x80 ? utf8_sequence_length(text, i) : 0; n > 0) {
      out.append(text.substr(i, n));
      i += n;
    } else {
      out += escape_byte(c);
      ++i;
    }
  }
  return out;
}

InputError::InputError(InputLocation where, std::string field, std::string value,
                       std::string problem)
    : std::runtime_error(format_input_error(where, field, value, problem)),
      where_(std::move(where)),
      field_(std::move(field)),
      value_(std::move(value)),
      problem_(std::move(problem)) {}

}  // namespace hs
