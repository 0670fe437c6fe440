#include "io/slurm_time.hpp"

#include <cctype>
#include <cstdio>
#include <vector>

#include "io/text_file.hpp"

namespace hs {

using namespace text;  // io's parsing helpers

namespace {

// Any field above this is certainly a typo and would overflow when multiplied.
constexpr std::int64_t kMaxTimePart = 100'000'000;

std::vector<std::string_view> split_on(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != sep) continue;
    parts.push_back(text.substr(start, i - start));
    start = i + 1;
  }
  return parts;
}

class TimeParser {
 public:
  TimeParser(std::string_view text, const InputLocation& where, const std::string& field)
      : text_(text), where_(where), field_(field) {}

  Time parse() const {
    const std::size_t dash = text_.find('-');
    if (dash == std::string_view::npos) return parse_without_days();
    const Time days = part(text_.substr(0, dash));
    const auto clock = split_on(text_.substr(dash + 1), ':');
    if (clock.size() > 3) fail("too many ':' fields");
    Time seconds = days * 86400 + part(clock[0]) * 3600;
    if (clock.size() > 1) seconds += part(clock[1], 59) * 60;
    if (clock.size() > 2) seconds += part(clock[2], 59);
    return seconds;
  }

 private:
  // "m", "m:s", "h:m:s"
  Time parse_without_days() const {
    const auto clock = split_on(text_, ':');
    switch (clock.size()) {
      case 1: return part(clock[0]) * 60;
      case 2: return part(clock[0]) * 60 + part(clock[1], 59);
      case 3: return part(clock[0]) * 3600 + part(clock[1], 59) * 60 + part(clock[2], 59);
      default: fail("too many ':' fields");
    }
  }

  Time part(std::string_view digits, std::int64_t max = kMaxTimePart) const {
    if (digits.empty()) fail("empty time field");
    for (char c : digits)
      if (!std::isdigit(static_cast<unsigned char>(c))) fail("not a Slurm time");
    if (digits.size() > 9) fail("time field too large");
    const Time value = std::stoll(std::string(digits));
    if (value > max) fail("time field '" + std::string(digits) + "' out of range");
    return value;
  }

  [[noreturn]] void fail(const std::string& problem) const {
    throw InputError(where_, field_, std::string(text_),
                     problem + " (formats: min, min:sec, h:min:sec, d-h, d-h:min, d-h:min:sec,"
                               " UNLIMITED)");
  }

  std::string_view text_;
  const InputLocation& where_;
  const std::string& field_;
};

}  // namespace

Time parse_slurm_time(std::string_view text, const InputLocation& where,
                      const std::string& field, bool allow_unlimited) {
  const std::string_view trimmed = trim(text);
  if (iequals(trimmed, "unlimited") || iequals(trimmed, "infinite")) {
    if (!allow_unlimited)
      throw InputError(where, field, std::string(text), "an unlimited time is not allowed here");
    return kNoTime;
  }
  return TimeParser(trimmed, where, field).parse();
}

std::string format_slurm_time(Time seconds) {
  if (seconds == kNoTime) return "UNLIMITED";
  const Time days = seconds / 86400;
  const Time rest = seconds % 86400;
  char buffer[64];
  if (days > 0)
    std::snprintf(buffer, sizeof buffer, "%lld-%02lld:%02lld:%02lld",
                  static_cast<long long>(days), static_cast<long long>(rest / 3600),
                  static_cast<long long>(rest % 3600 / 60), static_cast<long long>(rest % 60));
  else
    std::snprintf(buffer, sizeof buffer, "%02lld:%02lld:%02lld",
                  static_cast<long long>(rest / 3600), static_cast<long long>(rest % 3600 / 60),
                  static_cast<long long>(rest % 60));
  return buffer;
}

}  // namespace hs
