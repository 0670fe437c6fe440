#include "io/hostlist.hpp"

#include "test_helpers.hpp"

namespace hs {
namespace {

using testing::expect_input_error;
using Names = std::vector<std::string>;

const InputLocation kWhere{"test.conf", 3};

Names expand(std::string_view text) { return expand_hostlist(text, kWhere); }

TEST(Hostlist, PlainNamesAndLists) {
  EXPECT_EQ(expand("node7"), (Names{"node7"}));
  EXPECT_EQ(expand("a,b , c"), (Names{"a", "b", "c"}));
}

TEST(Hostlist, RangesKeepPaddingOfLo) {
  EXPECT_EQ(expand("n[1-3]"), (Names{"n1", "n2", "n3"}));
  EXPECT_EQ(expand("n[8-11]"), (Names{"n8", "n9", "n10", "n11"}));
  EXPECT_EQ(expand("n[098-101]"), (Names{"n098", "n099", "n100", "n101"}));
  const Names big = expand("n[001-128]");
  ASSERT_EQ(big.size(), 128u);
  EXPECT_EQ(big.front(), "n001");
  EXPECT_EQ(big.back(), "n128");
  EXPECT_EQ(expand("n[5-5]"), (Names{"n5"}));
}

TEST(Hostlist, MixedItemsPrefixAndSuffix) {
  EXPECT_EQ(expand("pre[1,3,5-6]suf"),
            (Names{"pre1suf", "pre3suf", "pre5suf", "pre6suf"}));
  EXPECT_EQ(expand("[1-2]x"), (Names{"1x", "2x"}));
}

TEST(Hostlist, SeveralGroupsGiveEveryCombination) {
  EXPECT_EQ(expand("r[1-2]n[01-02]"), (Names{"r1n01", "r1n02", "r2n01", "r2n02"}));
  const Names three = expand("c[0-1]r[1-3]n[1-4]");
  ASSERT_EQ(three.size(), 24u);
  EXPECT_EQ(three[0], "c0r1n1");
  EXPECT_EQ(three[1], "c0r1n2");
  EXPECT_EQ(three[4], "c0r2n1");
  EXPECT_EQ(three[23], "c1r3n4");
}

TEST(Hostlist, TopLevelCommaListsOfExpressions) {
  EXPECT_EQ(expand("n[1-2],gpu[1-2],login"),
            (Names{"n1", "n2", "gpu1", "gpu2", "login"}));
}

TEST(Hostlist, ErrorsNameTheExpression) {
  for (const char* bad :
       {"n[3-1]", "n[1-2", "n1-2]", "n[[1-2]]", "n[]", "n[1,,2]", "n[a-b]", "n[1-2-3]",
        "a,,b", ",a", "n[-1]", "n[1-1000001]", "a[1-1000]b[1-1001]", "n[1-9999999999999999999]",
        "bad name"}) {
    const InputError e = expect_input_error([&] { expand(bad); });
    EXPECT_EQ(e.field(), "hostlist") << bad;
    EXPECT_EQ(e.value(), bad);
    EXPECT_EQ(e.where().line, 3);
  }
}

TEST(Hostlist, SizeLimitCountsTheWholeList) {
  EXPECT_EQ(expand("a[1-500000],b[1-500000]").size(), 1'000'000u);
  expect_input_error([&] { expand("a[1-500000],b[1-500000],c"); });
}

TEST(HostlistCompress, RangesAsSlurmPrintsThem) {
  EXPECT_EQ(compress_hostlist({}), "");
  EXPECT_EQ(compress_hostlist({"n1"}), "n1");
  EXPECT_EQ(compress_hostlist({"head"}), "head");
  EXPECT_EQ(compress_hostlist({"n1", "n2", "n3", "n7"}), "n[1-3,7]");
  EXPECT_EQ(compress_hostlist({"n9", "n10", "n11"}), "n[9-11]");
  EXPECT_EQ(compress_hostlist({"gn01", "gn02", "gn07", "gn08", "cn01"}), "gn[01-02,07-08],cn01");
  EXPECT_EQ(compress_hostlist({"n099", "n100", "n1"}), "n[099-100,1]");
  EXPECT_EQ(compress_hostlist({"n01", "n2"}), "n[01,2]");  // "n[01-02]" would name n02
  EXPECT_EQ(compress_hostlist({"a", "n1", "n2", "b", "n3"}), "a,n[1-2],b,n3");
  EXPECT_EQ(compress_hostlist({"n1", "n1"}), "n[1,1]");
  EXPECT_EQ(compress_hostlist({"r1n05", "r1n06", "r2n01"}), "r1n[05-06],r2n01");
  Names big;
  for (int i = 1; i <= 512; ++i) big.push_back("n" + std::to_string(i));
  big.push_back("n600");
  EXPECT_EQ(compress_hostlist(big), "n[1-512,600]");
}

// expand(compress(names)) == names for random lists of plausible node names.
TEST(HostlistCompress, RoundTripsThroughExpand) {
  std::uint64_t state = 12345;
  auto next = [&](std::uint64_t n) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (state >> 33) % n;
  };
  const char* prefixes[] = {"n", "gpu", "r1n", "", "node-"};
  for (int round = 0; round < 2000; ++round) {
    Names names;
    const std::uint64_t count = next(40);
    for (std::uint64_t i = 0; i < count; ++i) {
      const std::string prefix = prefixes[next(5)];
      std::string digits = std::to_string(next(6) == 0 ? next(1000) : 90 + next(20));
      if (next(3) == 0) digits.insert(0, next(3), '0');
      if (prefix.empty() && digits.empty()) digits = "1";
      names.push_back(next(20) == 0 ? "login" : prefix + digits);
      if (next(2) == 0 && !names.empty()) names.push_back(names.back());
    }
    const std::string text = compress_hostlist(names);
    EXPECT_EQ(text.empty() ? Names{} : expand(text), names) << text;
  }
}

TEST(Hostlist, OverlongNamesAreRefused) {
  const std::string long_prefix(250, 'n');
  EXPECT_EQ(expand(long_prefix + "[1-99]").size(), 99u);  // 252 characters
  EXPECT_THROW(expand(long_prefix + "[1-999999]"), InputError);
  EXPECT_THROW(expand(std::string(256, 'x')), InputError);
}

TEST(Hostlist, BudgetCapsWhatSeveralListsNameTogether) {
  HostlistBudget budget(10);
  EXPECT_EQ(expand_hostlist("n[1-6]", {"f", 1}, budget).size(), 6u);
  EXPECT_EQ(budget.remaining(), 4u);
  EXPECT_EQ(expand_hostlist("n[7-10]", {"f", 2}, budget).size(), 4u);
  try {
    expand_hostlist("n11", {"f", 3}, budget);
    FAIL() << "an exhausted budget must refuse more hosts";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().line, 3);
    EXPECT_NE(e.problem().find("together"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace hs
