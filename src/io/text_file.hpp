#pragma once
// Whole-file reading for the input readers: plain text or gzip (recognised by its magic
// bytes 1f 8b, not by the file name), plus small helpers for line-oriented parsing. In
// their own namespace so that generic names (trim, parse_int) cannot clash across areas.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "util/error.hpp"

namespace hs::text {

bool is_gzip_file(const std::string& path);
// InputError naming `path` when it does not exist, cannot be looked at, or is a directory.
void check_readable_file(const std::string& path);
// The file's text, decompressed when it is gzip. InputError when unreadable or corrupt.
std::string read_text_file(const std::string& path);
// The first non-blank line (trimmed; plain or gzip), read without loading the whole file;
// "" when the file has none or cannot be read. For telling input formats apart.
std::string first_text_line(const std::string& path);

// Splits text into lines (without '\n'; a trailing '\r' is removed).
std::vector<std::string_view> split_lines(std::string_view text);
// Splits on runs of spaces and tabs.
std::vector<std::string_view> split_whitespace(std::string_view text);
std::string_view trim(std::string_view text);
std::string to_lower(std::string_view text);
bool iequals(std::string_view a, std::string_view b);

// Strict decimal integer (optional sign, digits only, no overflow); InputError otherwise.
std::int64_t parse_int(std::string_view text, const InputLocation& where,
                       const std::string& field);
// As parse_int, and the value must lie in [lo, hi].
std::int64_t parse_int_in(std::string_view text, std::int64_t lo, std::int64_t hi,
                          const InputLocation& where, const std::string& field);

}  // namespace hs::text
