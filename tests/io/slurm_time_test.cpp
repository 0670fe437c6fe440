#include "io/slurm_time.hpp"

#include "test_helpers.hpp"

namespace hs {
namespace {

using testing::expect_input_error;

const InputLocation kWhere{"t.conf", 1};

Time parse(const char* text, bool unlimited = true) {
  return parse_slurm_time(text, kWhere, "MaxTime", unlimited);
}

TEST(SlurmTime, EveryFormat) {
  EXPECT_EQ(parse("90"), 90 * 60);                            // minutes
  EXPECT_EQ(parse("5:30"), 5 * 60 + 30);                      // minutes:seconds
  EXPECT_EQ(parse("2:03:04"), 2 * 3600 + 3 * 60 + 4);         // hours:minutes:seconds
  EXPECT_EQ(parse("3-4"), 3 * 86400 + 4 * 3600);              // days-hours
  EXPECT_EQ(parse("1-02:30"), 86400 + 2 * 3600 + 30 * 60);    // days-hours:minutes
  EXPECT_EQ(parse("1-00:00:01"), 86400 + 1);                  // days-hours:minutes:seconds
  EXPECT_EQ(parse("0"), 0);
  EXPECT_EQ(parse("UNLIMITED"), kNoTime);
  EXPECT_EQ(parse("infinite"), kNoTime);
  EXPECT_EQ(parse(" 10 "), 600);
}

TEST(SlurmTime, Errors) {
  for (const char* bad : {"", "x", "1:2:3:4", "-5", "1-", "1-2:3:4:5", "5:60", "1:60:00",
                          "1.5", "1--2", "99999999999", "1:", ":1", "1 2"}) {
    const InputError e = expect_input_error([&] { parse(bad); });
    EXPECT_EQ(e.field(), "MaxTime") << bad;
    EXPECT_EQ(e.value(), bad);
  }
  expect_input_error([&] { parse("UNLIMITED", false); });
}

TEST(SlurmTime, FormatIsAnExactInverse) {
  for (Time t : {Time{0}, Time{1}, Time{59}, Time{60}, Time{3599}, Time{3600}, Time{86399},
                 Time{86400}, Time{86401}, Time{10 * 86400 + 3 * 3600 + 7}, kNoTime}) {
    EXPECT_EQ(parse(format_slurm_time(t).c_str()), t) << format_slurm_time(t);
  }
  EXPECT_EQ(format_slurm_time(3661), "01:01:01");
  EXPECT_EQ(format_slurm_time(90061), "1-01:01:01");
}

}  // namespace
}  // namespace hs
