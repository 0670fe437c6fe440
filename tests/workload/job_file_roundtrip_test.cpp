// Generated workloads survive `hetsched generate` (write_job_file) and reading back: names
// such as C' and every request field are representable in the job file format.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "io/job_file.hpp"
#include "test_clusters.hpp"
#include "workload/registry.hpp"

namespace hs {
namespace {

void expect_round_trip(const std::string& spec, const Cluster& cluster) {
  const Workload w = generate_workload(spec, cluster, 23);
  const auto path = std::filesystem::temp_directory_path() /
                    ("hs_workload_rt_" + std::to_string(::getpid()) + ".jobs");
  {
    std::ofstream out(path);
    write_job_file(w, out);
  }
  const Workload back = read_job_file(path.string());
  std::filesystem::remove(path);
  ASSERT_EQ(back.jobs.size(), w.jobs.size()) << spec;
  for (std::size_t i = 0; i < w.jobs.size(); ++i) {
    const Job& a = w.jobs[i];
    const Job& b = back.jobs[i];
    ASSERT_EQ(a.id, b.id);
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.user, b.user);
    EXPECT_EQ(a.submit, b.submit);
    EXPECT_EQ(a.run_time, b.run_time);
    EXPECT_EQ(a.moldable_runtime, b.moldable_runtime);
    EXPECT_EQ(a.req.ntasks, b.req.ntasks);
    EXPECT_EQ(a.req.nodes_min, b.req.nodes_min);
    EXPECT_EQ(a.req.ntasks_per_node, b.req.ntasks_per_node);
    EXPECT_EQ(a.req.contiguous, b.req.contiguous);
    EXPECT_EQ(a.req.time_limit, b.req.time_limit);
    ASSERT_EQ(a.req.gres.size(), b.req.gres.size());
    for (std::size_t g = 0; g < a.req.gres.size(); ++g) {
      EXPECT_EQ(a.req.gres[g].name, b.req.gres[g].name);
      EXPECT_EQ(a.req.gres[g].per_node_min, b.req.gres[g].per_node_min);
      EXPECT_EQ(a.req.gres[g].per_node_max, b.req.gres[g].per_node_max);
    }
  }
}

TEST(JobFileRoundTrip, EveryGenerator) {
  expect_round_trip("esp-het", test::paper1024());
  expect_round_trip("tsubame:kinds=ABC'D'E,jobs=400,contig=0.5",
                    test::uniform_cluster(1408, 12, 3));
  expect_round_trip("synthetic:mix=V,contig=50", test::uniform_cluster(128, 8, 2));
  expect_round_trip("eurora:days=1", test::eurora_like());
}

}  // namespace
}  // namespace hs
