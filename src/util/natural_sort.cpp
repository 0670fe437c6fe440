#include "util/natural_sort.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace hs {

namespace {
bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// Compares the digit runs starting at a[i] and b[j]; advances i and j past them.
int compare_numbers(std::string_view a, size_t& i, std::string_view b, size_t& j) {
  while (i < a.size() && a[i] == '0') ++i;
  while (j < b.size() && b[j] == '0') ++j;
  size_t start_a = i, start_b = j;
  while (i < a.size() && is_digit(a[i])) ++i;
  while (j < b.size() && is_digit(b[j])) ++j;
  const size_t len_a = i - start_a, len_b = j - start_b;
  if (len_a != len_b) return len_a < len_b ? -1 : 1;
  const int c = a.substr(start_a, len_a).compare(b.substr(start_b, len_b));
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

// Length of the leading text a and b share, backed off to the start of a digit run it ends
// in (that run must be compared as a whole number). Compared in blocks: node names of a large
// range share long prefixes, and comparing them character by character dominated sorting a
// 175,000-node slurm.conf (a fuzzer's find).
size_t shared_prefix(std::string_view a, std::string_view b) {
  const size_t n = std::min(a.size(), b.size());
  size_t same = 0;
  while (same + 16 <= n && std::memcmp(a.data() + same, b.data() + same, 16) == 0) same += 16;
  while (same < n && a[same] == b[same]) ++same;
  while (same > 0 && is_digit(a[same - 1])) --same;
  return same;
}
}  // namespace

bool natural_less(std::string_view a, std::string_view b) {
  size_t i = shared_prefix(a, b), j = i;
  while (i < a.size() && j < b.size()) {
    if (is_digit(a[i]) && is_digit(b[j])) {
      const int c = compare_numbers(a, i, b, j);
      if (c != 0) return c < 0;
      continue;
    }
    if (a[i] != b[j]) return a[i] < b[j];
    ++i;
    ++j;
  }
  if (i < a.size() || j < b.size()) return j < b.size() && i >= a.size();
  return a < b;
}

}  // namespace hs
