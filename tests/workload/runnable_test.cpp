// Every generated job must bind to the cluster it was drawn for and be runnable on the empty
// machine: a generator must never emit a request the simulator would reject.
#include <gtest/gtest.h>

#include "model/request_fit.hpp"
#include "test_clusters.hpp"
#include "workload/registry.hpp"

namespace hs {
namespace {

void expect_all_runnable(const std::string& spec, const Cluster& cluster) {
  Workload w = generate_workload(spec, cluster, 17);
  ASSERT_FALSE(w.jobs.empty()) << spec;
  for (auto& job : w.jobs) {
    const auto bind = bind_to_cluster(cluster, job);
    ASSERT_FALSE(bind.has_value()) << spec << " job " << job.id << ": " << *bind;
    const auto never = never_runnable_reason(cluster, job);
    ASSERT_FALSE(never.has_value())
        << spec << " job " << job.id << " (" << job.name << "): " << *never;
  }
}

TEST(Runnable, EspFamilyOnPaper1024) {
  for (const char* spec : {"esp", "esp-het", "esp-het-random"})
    expect_all_runnable(spec, test::paper1024());
}

TEST(Runnable, TsubameAndTreeWorkloads) {
  const Cluster tsubame = test::uniform_cluster(1408, 12, 3);
  for (int wl = 1; wl <= 9; ++wl) expect_all_runnable("tsubame:wl=" + std::to_string(wl), tsubame);
  expect_all_runnable("tsubame:kinds=ABC'D'E,contig=1", tsubame);
  const Cluster tree = test::uniform_cluster(1024, 16, 3);
  for (const char* wl : {"1", "2", "3", "4", "5", "6", "5'", "6'"})
    expect_all_runnable(std::string("tree1024:wl=") + wl, tree);
}

TEST(Runnable, SyntheticMixesOnSmallMediumLarge) {
  for (int nodes : {128, 256, 1024})
    for (const char* mix : {"I", "II", "III", "IV", "V"})
      expect_all_runnable(std::string("synthetic:contig=100,mix=") + mix,
                          test::uniform_cluster(nodes, 8, 2));
}

TEST(Runnable, EuroraOnEurora) { expect_all_runnable("eurora:days=3", test::eurora_like()); }

}  // namespace
}  // namespace hs
