// A site's slurm.conf configures the Slurm model (SchedulerParameters, PriorityType, ...)
// exactly as the same values given with --opt would; explicit options win over it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "cli/exit_codes.hpp"
#include "cli_test_support.hpp"

namespace hs::cli {
namespace {

using namespace test;

const std::string kNodes =
    "NodeName=n[1-8] CPUs=8 Gres=gpu:2\nGresTypes=gpu\nPartitionName=all Nodes=ALL Default=YES\n";

std::string write_conf(const std::string& dir, const std::string& settings) {
  const std::string path = dir + "/slurm.conf";
  std::ofstream(path) << settings << kNodes;
  return path;
}

Outcome simulate(const std::string& conf, const std::string& out,
                 std::vector<std::string> extra = {}) {
  std::vector<std::string> args{"simulate", "--cluster", conf, "--workload", "esp",
                                "--out", out};
  args.insert(args.end(), extra.begin(), extra.end());
  return run(args);
}

TEST(SiteOptions, SlurmConfSettingsActLikeTheSameOptions) {
  const std::string dir = temp_dir("site-same");
  const std::string settings =
      "SchedulerParameters=bf_window=30,bf_interval=7,sched_interval=11\n"
      "PriorityType=priority/multifactor\nPriorityWeightJobSize=5000\n"
      "AccountingStorageType=accounting_storage/slurmdbd\n";
  const Outcome site = simulate(write_conf(dir, settings), dir + "/site");
  ASSERT_EQ(site.code, kExitOk) << site.err;
  EXPECT_NE(site.out.find("slurm.conf bf_window=30,bf_interval=7,sched_interval=11,"
                          "priority=multifactor,priority_weight_job_size=5000"),
            std::string::npos)
      << site.out;
  const std::string plain_dir = temp_dir("site-plain");
  const Outcome plain = simulate(write_conf(plain_dir, ""), plain_dir + "/out",
                                 {"--opt", "bf_window=30,bf_interval=7,sched_interval=11",
                                  "--opt", "priority=multifactor,priority_weight_job_size=5000"});
  ASSERT_EQ(plain.code, kExitOk) << plain.err;
  EXPECT_EQ(read_file(dir + "/site/jobs.csv"), read_file(plain_dir + "/out/jobs.csv"));
  const Outcome defaults = simulate(write_conf(plain_dir, ""), plain_dir + "/defaults");
  EXPECT_NE(read_file(dir + "/site/jobs.csv"), read_file(plain_dir + "/defaults/jobs.csv"));
  EXPECT_NE(read_file(dir + "/site/run.json").find("\"options_from_slurm_conf\": [\"bf_window=30\""),
            std::string::npos);
}

TEST(SiteOptions, ExplicitOptionsWinAndOtherSchedulersIgnoreThem) {
  const std::string dir = temp_dir("site-win");
  const std::string conf = write_conf(dir, "SchedulerParameters=bf_window=30\n");
  const Outcome o = simulate(conf, dir + "/a", {"--opt", "bf_window=90"});
  ASSERT_EQ(o.code, kExitOk) << o.err;
  EXPECT_NE(o.out.find("bf_window=90"), std::string::npos);
  EXPECT_EQ(o.out.find("slurm.conf bf_window"), std::string::npos);
  const Outcome spec = simulate(conf, dir + "/b", {"--scheduler", "backfill:bf_window=45"});
  ASSERT_EQ(spec.code, kExitOk) << spec.err;
  EXPECT_NE(spec.out.find("bf_window=45"), std::string::npos);
  const Outcome window = simulate(conf, dir + "/c", {"--scheduler", "aucsched2"});
  ASSERT_EQ(window.code, kExitOk) << window.err;
  EXPECT_EQ(window.out.find("slurm.conf "), std::string::npos);
}

TEST(SiteOptions, BadValuesNameTheSlurmConfLine) {
  const std::string dir = temp_dir("site-bad");
  const Outcome range = simulate(write_conf(dir, "\nSchedulerParameters=bf_window=0\n"), dir + "/o");
  EXPECT_EQ(range.code, kExitBadInput);
  EXPECT_NE(range.err.find(dir + "/slurm.conf:2: field 'SchedulerParameters bf_window' value '0'"), std::string::npos)
      << range.err;
  const Outcome unmodelled =
      simulate(write_conf(dir, "SchedulerParameters=bf_continue,bf_max_job_user=4\n"), dir + "/o");
  EXPECT_EQ(unmodelled.code, kExitOk) << unmodelled.err;
  EXPECT_NE(unmodelled.err.find("item 'bf_max_job_user=4' is not modelled"), std::string::npos)
      << unmodelled.err;
}

}  // namespace
}  // namespace hs::cli
