#include "workload/gpu_rule.hpp"

#include <gtest/gtest.h>

#include "test_clusters.hpp"
#include "util/error.hpp"
#include "workload/registry.hpp"

namespace hs {
namespace {

Workload cpu_trace(int n) {
  Workload w;
  for (int i = 0; i < n; ++i) {
    Job j;
    j.id = i + 1;
    j.req.ntasks = 8;
    j.run_time = 100;
    j.req.time_limit = 200;
    w.jobs.push_back(j);
  }
  return w;
}

TEST(GpuRule, ParsesAndDescribes) {
  const GpuRule r = parse_gpu_rule("fraction=0.3,gpus=2");
  EXPECT_DOUBLE_EQ(r.fraction, 0.3);
  EXPECT_EQ(r.gpus, 2);
  EXPECT_EQ(r.gpus_max, 0);
  EXPECT_EQ(describe(r), "fraction=0.3,gpus=2,gpus_max=0,gres=gpu");
  EXPECT_THROW(parse_gpu_rule("fraction=1.5"), InputError);
  EXPECT_THROW(parse_gpu_rule("gpus=0"), InputError);
  EXPECT_THROW(parse_gpu_rule("share=0.5"), InputError);
  EXPECT_THROW(parse_gpu_rule("gpus=2,gpus_max=1"), InputError);
}

TEST(GpuRule, GivesTheFractionOfJobsGpusPerNode) {
  Workload w = cpu_trace(10000);
  add_gpu_requests(w, parse_gpu_rule("fraction=0.3,gpus=2"), 42);
  int with = 0;
  for (const auto& j : w.jobs) {
    if (j.req.gres.empty()) continue;
    ++with;
    EXPECT_EQ(j.req.gres[0].name, "gpu");
    EXPECT_EQ(j.req.gres[0].per_node_min, 2);
    EXPECT_EQ(j.req.gres[0].per_node_max, 2);
    EXPECT_FALSE(j.moldable_runtime);
  }
  EXPECT_NEAR(with / 10000.0, 0.3, 0.02);
}

TEST(GpuRule, DeterministicRangesAndExistingRequestsKept) {
  Workload a = cpu_trace(500), b = cpu_trace(500), d = cpu_trace(500);
  const GpuRule r = parse_gpu_rule("fraction=0.5,gpus=1,gpus_max=3");
  add_gpu_requests(a, r, 1);
  add_gpu_requests(b, r, 1);
  add_gpu_requests(d, r, 2);
  bool differs = false;
  for (std::size_t i = 0; i < a.jobs.size(); ++i) {
    EXPECT_EQ(a.jobs[i].req.gres.size(), b.jobs[i].req.gres.size());
    differs |= a.jobs[i].req.gres.size() != d.jobs[i].req.gres.size();
    if (!a.jobs[i].req.gres.empty()) {
      EXPECT_EQ(a.jobs[i].req.gres[0].per_node_max, 3);
      EXPECT_TRUE(a.jobs[i].moldable_runtime);
    }
  }
  EXPECT_TRUE(differs);
  // A job that already asks for GPUs is left as it was.
  Workload het = generate_workload("esp-het", test::paper1024(), 1);
  add_gpu_requests(het, parse_gpu_rule("fraction=1,gpus=1"), 3);
  for (const auto& j : het.jobs) {
    ASSERT_EQ(j.req.gres.size(), 1u);
    const bool copy = j.name.find("_gpu") != std::string::npos;
    EXPECT_EQ(j.req.gres[0].per_node_min, copy ? 2 : 1);
  }
}

}  // namespace
}  // namespace hs
