// Pins the schedules of every window scheduler on two small replays (the example lab
// workload on the small-tree example cluster, and an hour of the AUCSCHED synthetic mix I
// arriving every 10 s on average on the 128-node machine S) by their digest, so that a change meant only for speed cannot change a decision
// unnoticed. With `solver_enumerate_bids=0,fits_now=two_solves` the pinned values are those of the replays
// before the speed work of issue 19 (its schedule snapshots were identical byte for byte);
// the defaults' values are pinned since small windows are enumerated (session 18), which
// moved schedules on purpose: an enumerated window's answer is a proven optimum, no longer
// the Lagrangian search's first answer of that value; IPSCHED's two since its
// default became fits_now=must_start (session 27: a top job that fits now starts from one
// solve, docs/window-schedulers.md). A deliberate change of schedule updates them and says
// why in its commit.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "io/builtin_clusters.hpp"
#include "io/job_file.hpp"
#include "sim/schedule_digest.hpp"
#include "window_test_support.hpp"
#include "workload/registry.hpp"

namespace hs {
namespace {

struct Pinned {
  const char* scheduler;
  std::uint64_t lab_mix;
  std::uint64_t synthetic;
};

std::uint64_t digest_of(const Cluster& cluster, const Workload& workload, const std::string& name,
                        const std::string& options = "") {
  const test::RunOutcome run = test::run_window(cluster, workload, name, options);
  EXPECT_TRUE(run.check.ok()) << name;
  return schedule_digest(run.result);
}

// Replays both workloads under every pinned scheduler with `options` and compares digests.
void expect_pinned(const Pinned (&pinned)[4], const std::string& options) {
  const std::string root = HETSCHED_SOURCE_DIR;
  const Cluster tree = load_cluster_spec(root + "/examples/clusters/small-tree");
  const Workload lab = load_workload_file(root + "/examples/workloads/lab-mix-v-78.jobs");
  const Cluster s = load_cluster_spec("S");
  const Workload synthetic = generate_workload("synthetic:hours=1,arrival_mean=10", s, 1);
  for (const Pinned& p : pinned) {
    EXPECT_EQ(digest_of(tree, lab, p.scheduler, options), p.lab_mix) << p.scheduler << " lab-mix";
    EXPECT_EQ(digest_of(s, synthetic, p.scheduler, options), p.synthetic) << p.scheduler << " synthetic";
  }
}

TEST(ScheduleDigest, WindowSchedulersKeepTheirSchedulesWithoutEnumeration) {
  const Pinned pinned[] = {
      {"ipsched", 16733838975559984357ULL, 5533977145635405247ULL},
      {"aucsched1", 2166636637518042544ULL, 18000220680025519733ULL},
      {"aucsched2", 16491417866657729435ULL, 2112674846374878226ULL},
      {"aucsched3", 9841610318208698569ULL, 10276584667917027544ULL},
  };
  expect_pinned(pinned, "solver_enumerate_bids=0,fits_now=two_solves");
}

TEST(ScheduleDigest, WindowSchedulersKeepTheirDefaultSchedules) {
  const Pinned pinned[] = {
      {"ipsched", 5189715182122919478ULL, 3633170640688489138ULL},
      {"aucsched1", 2166636637518042544ULL, 12318316026683782439ULL},
      {"aucsched2", 16491417866657729435ULL, 2691662244157845096ULL},
      {"aucsched3", 7213609481741271245ULL, 10276584667917027544ULL},
  };
  expect_pinned(pinned, "");
}

}  // namespace
}  // namespace hs
