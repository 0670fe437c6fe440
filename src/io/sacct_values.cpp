#include "io/sacct_values.hpp"

#include <cctype>
#include <charconv>
#include <cmath>

#include "io/text_file.hpp"

namespace hs::sacct {

using namespace text;  // io's parsing helpers

namespace {

constexpr std::int64_t kMaxCount = 1'000'000'000;
constexpr double kMaxMb = 1e12;  // an exabyte: certainly corrupt beyond

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).
std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

unsigned days_in_month(std::int64_t y, unsigned m) {
  static constexpr unsigned kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return m == 2 && leap ? 29 : kDays[m - 1];
}

// The digits at [at, at + n) of a timestamp, or -1 when they are not all digits.
int digits_at(std::string_view text, std::size_t at, std::size_t n) {
  int value = 0;
  for (std::size_t i = at; i < at + n; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return -1;
    value = value * 10 + (text[i] - '0');
  }
  return value;
}

bool separators_ok(std::string_view t) {
  return t.size() == 19 && t[4] == '-' && t[7] == '-' && t[10] == 'T' && t[13] == ':' &&
         t[16] == ':';
}

// "1.5" or "4000": a non-negative decimal number.
double parse_decimal(std::string_view digits, std::string_view whole, const InputLocation& where,
                     const std::string& field) {
  double value = 0;
  const char* end = digits.data() + digits.size();
  const auto result = std::from_chars(digits.data(), end, value, std::chars_format::fixed);
  if (digits.empty() || result.ec != std::errc() || result.ptr != end || value < 0 ||
      digits.front() == '-')
    throw InputError(where, field, std::string(whole), "'" + std::string(digits) +
                                                           "' is not a size such as 4000M or 32G");
  return value;
}

std::int64_t parse_count(std::string_view text, std::string_view whole, const InputLocation& where,
                         const std::string& field, std::string_view key) {
  try {
    return parse_int_in(text, 0, kMaxCount, where, field);
  } catch (const InputError& e) {
    throw InputError(where, field, std::string(whole), std::string(key) + ": " + e.problem());
  }
}

void add_to(std::vector<std::pair<std::string, std::int64_t>>& list, const std::string& key,
            std::int64_t count) {
  for (auto& [k, c] : list)
    if (k == key) return void(c += count);
  list.emplace_back(key, count);
}

void add_gres(Tres& tres, std::vector<std::pair<std::string, std::int64_t>>& typed,
              std::string_view key, std::int64_t count) {
  const std::string_view spec = key.substr(5);  // after "gres/"
  const std::size_t colon = spec.find(':');
  const std::string name(spec.substr(0, colon));
  auto& list = colon == std::string_view::npos ? tres.gres : typed;
  if (colon != std::string_view::npos) {
    tres.typed = true;
    add_to(tres.kinds, std::string(spec), count);
  }
  add_to(list, name, count);
}

// Gres given only by type: their typed sum stands for the total.
void merge_typed(Tres& tres, const std::vector<std::pair<std::string, std::int64_t>>& typed) {
  for (const auto& [name, count] : typed) {
    bool untyped = false;
    for (const auto& entry : tres.gres) untyped = untyped || entry.first == name;
    if (!untyped) tres.gres.emplace_back(name, count);
  }
}

}  // namespace

std::optional<std::int64_t> parse_timestamp(std::string_view text, const InputLocation& where,
                                            const std::string& field) {
  const std::string_view t = trim(text);
  if (t.empty() || iequals(t, "None") || iequals(t, "Unknown")) return std::nullopt;
  auto fail = [&](const std::string& problem) -> std::int64_t {
    throw InputError(where, field, std::string(text), problem);
  };
  if (!separators_ok(t)) fail("not a timestamp YYYY-MM-DDTHH:MM:SS (set no SLURM_TIME_FORMAT)");
  const int y = digits_at(t, 0, 4), mo = digits_at(t, 5, 2), d = digits_at(t, 8, 2);
  const int h = digits_at(t, 11, 2), mi = digits_at(t, 14, 2), s = digits_at(t, 17, 2);
  if (y < 0 || mo < 0 || d < 0 || h < 0 || mi < 0 || s < 0)
    fail("not a timestamp YYYY-MM-DDTHH:MM:SS");
  if (mo < 1 || mo > 12 || d < 1 || static_cast<unsigned>(d) > days_in_month(y, mo))
    fail("no such date");
  if (h > 23 || mi > 59 || s > 59) fail("no such time of day");
  return days_from_civil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d)) * 86400 +
         h * 3600 + mi * 60 + s;
}

std::int64_t parse_size_mb(std::string_view text, std::string_view whole,
                           const InputLocation& where, const std::string& field) {
  std::string_view digits = trim(text);
  double mb_per_unit = 1;
  if (!digits.empty() && std::isalpha(static_cast<unsigned char>(digits.back()))) {
    switch (std::toupper(static_cast<unsigned char>(digits.back()))) {
      case 'K': mb_per_unit = 1.0 / 1024; break;
      case 'M': mb_per_unit = 1; break;
      case 'G': mb_per_unit = 1024; break;
      case 'T': mb_per_unit = 1024.0 * 1024; break;
      case 'P': mb_per_unit = 1024.0 * 1024 * 1024; break;
      default:
        throw InputError(where, field, std::string(whole),
                         "size unit must be K, M, G, T or P in '" + std::string(text) + "'");
    }
    digits.remove_suffix(1);
  }
  const double mb = parse_decimal(digits, whole, where, field) * mb_per_unit;
  if (mb > kMaxMb) throw InputError(where, field, std::string(whole), "size too large");
  return static_cast<std::int64_t>(std::ceil(mb - 1e-9));
}

Tres parse_tres(std::string_view text, const InputLocation& where, const std::string& field) {
  Tres tres;
  std::vector<std::pair<std::string, std::int64_t>> typed;
  std::size_t start = 0;
  const std::string_view all = trim(text);
  for (std::size_t i = 0; i <= all.size() && !all.empty(); ++i) {
    if (i < all.size() && all[i] != ',') continue;
    const std::string_view item = all.substr(start, i - start);
    start = i + 1;
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0)
      throw InputError(where, field, std::string(text),
                       "'" + std::string(item) + "' is not key=value");
    const std::string_view key = item.substr(0, eq), value = item.substr(eq + 1);
    if (key == "cpu") tres.cpu = parse_count(value, text, where, field, key);
    else if (key == "node") tres.node = parse_count(value, text, where, field, key);
    else if (key == "mem") tres.mem_mb = parse_size_mb(value, text, where, field);
    else if (key.starts_with("gres/") && key.size() > 5)
      add_gres(tres, typed, key, parse_count(value, text, where, field, key));
  }
  merge_typed(tres, typed);
  return tres;
}

std::optional<ReqMem> parse_req_mem(std::string_view text, const InputLocation& where,
                                    const std::string& field) {
  std::string_view value = trim(text);
  if (value.empty()) return std::nullopt;
  ReqMem mem;
  if (value.back() == 'n' || value.back() == 'c') {
    mem.per = value.back() == 'c' ? ReqMem::Per::Cpu : ReqMem::Per::Node;
    value.remove_suffix(1);
  }
  mem.mb = parse_size_mb(value, text, where, field);
  if (mem.mb == 0) return std::nullopt;
  return mem;
}

}  // namespace hs::sacct
