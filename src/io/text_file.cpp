#include "io/text_file.hpp"

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>

namespace hs::text {

namespace {

// Inputs beyond this size are refused rather than read whole into memory (a gzip bomb, a
// device such as /dev/zero); the largest archive traces are a few hundred MB.
constexpr std::size_t kMaxTextBytes = std::size_t{1} << 30;

void check_size(const std::string& path, std::size_t size) {
  if (size > kMaxTextBytes)
    throw InputError({path, 0}, "file", path, "larger than 1 GiB (decompressed); split the input");
}

std::string read_plain(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError({path, 0}, "file", path, "cannot open file");
  std::string text;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    text.append(buffer, static_cast<std::size_t>(in.gcount()));
    check_size(path, text.size());
  }
  if (in.bad()) throw InputError({path, 0}, "file", path, "read error");
  return text;
}

std::string read_gzip(const std::string& path) {
  gzFile raw = gzopen(path.c_str(), "rb");
  if (raw == nullptr) throw InputError({path, 0}, "file", path, "cannot open gzip file");
  std::unique_ptr<gzFile_s, int (*)(gzFile)> file(raw, gzclose);
  std::string text;
  char buffer[1 << 16];
  for (;;) {
    const int got = gzread(file.get(), buffer, sizeof buffer);
    if (got < 0) {
      int code = 0;
      const char* message = gzerror(file.get(), &code);
      throw InputError({path, 0}, "file", path,
                       std::string("corrupt gzip data: ") + (message ? message : "?"));
    }
    if (got == 0) break;
    text.append(buffer, static_cast<std::size_t>(got));
    check_size(path, text.size());
  }
  // gzread returns 0 at a truncated end as well; gzerror tells the two apart.
  int code = 0;
  gzerror(file.get(), &code);
  if (code != Z_OK && code != Z_STREAM_END)
    throw InputError({path, 0}, "file", path, "truncated or corrupt gzip data");
  return text;
}

}  // namespace

bool is_gzip_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  unsigned char magic[2] = {0, 0};
  if (!in.read(reinterpret_cast<char*>(magic), 2)) return false;
  return magic[0] == 0x1f && magic[1] == 0x8b;
}

void check_readable_file(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (status.type() == std::filesystem::file_type::not_found)
    throw InputError({path, 0}, "file", path, "no such file");
  if (ec) throw InputError({path, 0}, "file", path, "cannot access the file: " + ec.message());
  if (status.type() == std::filesystem::file_type::directory)
    throw InputError({path, 0}, "file", path, "is a directory, not a file");
}

std::string read_text_file(const std::string& path) {
  check_readable_file(path);
  return is_gzip_file(path) ? read_gzip(path) : read_plain(path);
}

std::string first_text_line(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return "";
  gzFile raw = gzopen(path.c_str(), "rb");  // reads plain files unchanged
  if (raw == nullptr) return "";
  std::unique_ptr<gzFile_s, int (*)(gzFile)> file(raw, gzclose);
  char buffer[1 << 16];
  for (int lines = 0; lines < 1000 && gzgets(file.get(), buffer, sizeof buffer) != nullptr; ++lines) {
    const std::string_view line = trim(buffer);
    if (!line.empty()) return std::string(line);
  }
  return "";
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

std::vector<std::string_view> split_whitespace(std::string_view text) {
  std::vector<std::string_view> tokens;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < text.size() && text[i] != ' ' && text[i] != '\t') ++i;
    if (i > start) tokens.push_back(text.substr(start, i - start));
  }
  return tokens;
}

std::string_view trim(std::string_view text) {
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!text.empty() && blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && blank(text.back())) text.remove_suffix(1);
  return text;
}

std::string to_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && to_lower(a) == to_lower(b);
}

std::int64_t parse_int(std::string_view text, const InputLocation& where,
                       const std::string& field) {
  std::string_view digits = text;
  if (digits.size() > 1 && digits.front() == '+' && digits[1] != '-') digits.remove_prefix(1);
  std::int64_t value = 0;
  const char* end = digits.data() + digits.size();
  const auto result = std::from_chars(digits.data(), end, value);
  if (digits.empty() || result.ec == std::errc::invalid_argument || result.ptr != end)
    throw InputError(where, field, std::string(text), "not an integer");
  if (result.ec == std::errc::result_out_of_range)
    throw InputError(where, field, std::string(text), "integer out of range");
  return value;
}

std::int64_t parse_int_in(std::string_view text, std::int64_t lo, std::int64_t hi,
                          const InputLocation& where, const std::string& field) {
  const std::int64_t value = parse_int(text, where, field);
  if (value < lo || value > hi)
    throw InputError(where, field, std::string(text),
                     "must be between " + std::to_string(lo) + " and " + std::to_string(hi));
  return value;
}

}  // namespace hs::text
