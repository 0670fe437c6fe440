#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "util/error.hpp"
#include "util/memory_usage.hpp"
#include "util/natural_sort.hpp"
#include "util/params.hpp"
#include "util/rng.hpp"

namespace hs {
namespace {

TEST(Rng, SameSeedSameSequence) {
  Rng a(42), b(42), c(43);
  bool differs = false;
  for (int i = 0; i < 100; ++i) {
    const auto x = a.next_u64();
    EXPECT_EQ(x, b.next_u64());
    differs |= x != c.next_u64();
  }
  EXPECT_TRUE(differs);
}

TEST(Rng, UniformIntStaysInRangeAndHitsBothEnds) {
  Rng r(7);
  bool lo = false, hi = false;
  for (int i = 0; i < 10000; ++i) {
    const auto v = r.uniform_int(-4, 4);
    ASSERT_GE(v, -4);
    ASSERT_LE(v, 4);
    lo |= v == -4;
    hi |= v == 4;
  }
  EXPECT_TRUE(lo && hi);
}

TEST(Rng, NormalHasRoughlyTheAskedMoments) {
  Rng r(3);
  double sum = 0, sq = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) {
    const double x = r.normal(1.0, 0.5);
    sum += x;
    sq += x * x;
  }
  const double mean = sum / n;
  EXPECT_NEAR(mean, 1.0, 0.01);
  EXPECT_NEAR(std::sqrt(sq / n - mean * mean), 0.5, 0.01);
}

TEST(NaturalSort, NumbersCompareByValue) {
  std::vector<std::string> names = {"n10", "n2", "n1", "gpu3", "n002x", "n100"};
  std::sort(names.begin(), names.end(), [](const auto& a, const auto& b) { return natural_less(a, b); });
  EXPECT_EQ(names, (std::vector<std::string>{"gpu3", "n1", "n2", "n002x", "n10", "n100"}));
  EXPECT_FALSE(natural_less("n2", "n2"));
  EXPECT_TRUE(natural_less("n", "n1"));
  EXPECT_FALSE(natural_less("n1", "n"));
}

// The comparison as first written (character by character from the start), against which the
// shared-prefix skip must agree on every pair.
int plain_digit_run(std::string_view s, size_t& i, size_t& start) {
  while (i < s.size() && s[i] == '0') ++i;
  start = i;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
  return static_cast<int>(i - start);
}

bool plain_natural_less(std::string_view a, std::string_view b) {
  size_t i = 0, j = 0;
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  while (i < a.size() && j < b.size()) {
    if (digit(a[i]) && digit(b[j])) {
      size_t sa = 0, sb = 0;
      const int la = plain_digit_run(a, i, sa), lb = plain_digit_run(b, j, sb);
      if (la != lb) return la < lb;
      const int c = a.substr(sa, la).compare(b.substr(sb, lb));
      if (c != 0) return c < 0;
      continue;
    }
    if (a[i] != b[j]) return a[i] < b[j];
    ++i, ++j;
  }
  if (i < a.size() || j < b.size()) return j < b.size() && i >= a.size();
  return a < b;
}

TEST(NaturalSort, SharedPrefixSkipAgreesWithThePlainComparison) {
  Rng rng(7);
  const std::string alphabet = "n0019-a";
  const std::string long_prefix(40, 'x');
  auto name = [&] {
    std::string s = rng.uniform_int(0, 1) ? long_prefix : "";
    for (int k = rng.uniform_int(0, 8); k > 0; --k) s += alphabet[rng.uniform_int(0, 6)];
    return s;
  };
  for (int round = 0; round < 50000; ++round) {
    const std::string a = name();
    std::string b = rng.uniform_int(0, 1) ? a.substr(0, rng.uniform_int(0, static_cast<int>(a.size()))) + name() : name();
    ASSERT_EQ(natural_less(a, b), plain_natural_less(a, b)) << a << " vs " << b;
  }
}

TEST(Params, TypedGettersCheckBoundsAndNameTheKey) {
  Params p = Params::parse("window=50, mode=easy,flag=yes", "<test>");
  EXPECT_EQ(p.get_int("window", 200, 1, 1000, "window size"), 50);
  EXPECT_EQ(p.get_choice("mode", "conservative", {"conservative", "easy"}, "mode"), "easy");
  EXPECT_TRUE(p.get_bool("flag", false, "a flag"));
  EXPECT_EQ(p.get_double("alpha", 0.5, 0, 1, "alpha"), 0.5);
  EXPECT_EQ(p.effective(), "alpha=0.5,flag=yes,mode=easy,window=50");
  p.reject_unused("test");

  Params bad = Params::parse("window=5000", "<test>");
  try {
    bad.get_int("window", 200, 1, 1000, "window size");
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "window");
    EXPECT_EQ(e.value(), "5000");
  }
}

TEST(Params, UnknownKeysAreRejected) {
  Params p = Params::parse("windw=5", "<test>");
  p.get_int("window", 200, 1, 1000, "window size");
  EXPECT_THROW(p.reject_unused("ipsched"), InputError);
  EXPECT_THROW(Params::parse("novalue", "<test>"), InputError);
}

// Issue 22 (5): bytes from a bad input never reach the terminal raw.
TEST(InputErrorMessage, EscapesControlAndInvalidBytes) {
  const std::string value = std::string("a\x01\x1b[2Jb\n\r\t") + "\xff\xc3" + std::string(1, '\0');
  const InputError e({"f\nx.jobs", 3}, "na\tme", value, "bad 'q\x07'");
  EXPECT_STREQ(e.what(),
               "f\\nx.jobs:3: field 'na\\tme' value 'a\\x01\\x1b[2Jb\\n\\r\\t\\xff\\xc3\\x00': "
               "bad 'q\\x07'");
  EXPECT_EQ(e.value(), value);  // the accessors keep the raw bytes
}

TEST(InputErrorMessage, KeepsPrintableTextAndWellFormedUtf8) {
  EXPECT_EQ(escape_for_message("J\xc3\xb6rg \xe2\x82\xac \xf0\x9f\x98\x80 ~"),
            "J\xc3\xb6rg \xe2\x82\xac \xf0\x9f\x98\x80 ~");
  // Overlong, surrogate and truncated sequences are escaped byte by byte.
  EXPECT_EQ(escape_for_message("\xc0\xaf"), "\\xc0\\xaf");
  EXPECT_EQ(escape_for_message("\xed\xa0\x80"), "\\xed\\xa0\\x80");
  EXPECT_EQ(escape_for_message("x\xe2\x82"), "x\\xe2\\x82");
  EXPECT_EQ(escape_for_message("\x7f"), "\\x7f");
}

TEST(MemoryUsage, PeakGrowsWhenMemoryIsTouched) {
  const double before = peak_resident_mib();
  EXPECT_GT(before, 0.0);
  std::vector<char> block(static_cast<std::size_t>(before + 64) * 1024 * 1024);
  for (std::size_t i = 0; i < block.size(); i += 4096) block[i] = static_cast<char>(i);
  EXPECT_GE(peak_resident_mib(), before + 32.0);
  EXPECT_EQ(block[4096], static_cast<char>(4096));
}

}  // namespace
}  // namespace hs
