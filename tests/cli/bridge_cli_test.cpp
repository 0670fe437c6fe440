// `hetsched bridge --jobs-from`: one dry-run cycle on a job table captured from the lab.
#include "cli/cli_test_support.hpp"

namespace hs::cli::test {
namespace {

const std::string kBridgeData = kSource + "/tests/bridge/data/";

TEST(BridgeCommand, DryRunCycleOnACapturedTable) {
  const Outcome o = run({"bridge", "--cluster", kBridgeData + "slurm.conf", "--jobs-from",
                         kBridgeData + "listing.txt", "--scheduler", "aucsched1"});
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("scheduler  aucsched1"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("(dry run) scontrol release 15"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("(dry run) scontrol release 16"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("job 17: "), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("queued 2, in flight 0, running 1, started 2"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("memory     not counted (SelectTypeParameters=CR_Core)"), std::string::npos)
      << o.out;
}

// The lab with CR_Core_Memory: the slurm.conf says memory counts, and the cycle honours it.
TEST(BridgeCommand, MemoryCountsWhereSlurmCountsIt) {
  const Outcome o = run({"bridge", "--cluster", kBridgeData + "memory/slurm.conf", "--jobs-from",
                         kBridgeData + "memory/listing.txt", "--now", "1795000000"});
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("memory     counted (SelectTypeParameters=CR_Core_Memory)"), std::string::npos)
      << o.out;
  EXPECT_NE(o.out.find("queued 4, in flight 0, running 3, started 4"), std::string::npos) << o.out;
}

TEST(BridgeCommand, StatusListsTheManagedJobsAndUnusableNodes) {
  const Outcome o = run({"bridge", "status", "--jobs-from", kBridgeData + "listing.txt", "--nodes-from",
                         kBridgeData + "nodes.txt"});
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("queued 3, released 0"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("15  queued  held at submission"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("n4 (down)"), std::string::npos) << o.out;
}

TEST(BridgeCommand, BadTableNamesLineAndField) {
  const std::string dir = temp_dir("bridge-bad");
  const std::string table = dir + "/table.txt";
  std::ofstream(table) << "JobId=5 JobState=PENDING Reason=JobHeldUser NumCPUs=four\n";
  const Outcome o = run({"bridge", "--cluster", kBridgeData + "slurm.conf", "--jobs-from", table});
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find(table + ":1: field 'NumCPUs' value 'four'"), std::string::npos) << o.err;
}

}  // namespace
}  // namespace hs::cli::test
