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

}  // namespace
}  // namespace hs
