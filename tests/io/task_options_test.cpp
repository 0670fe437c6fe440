// sbatch's per-task options against Slurm 22.05's meaning: each maps onto the per-node
// request exactly, or is refused naming the option and value.
#include <gtest/gtest.h>

#include <sstream>

#include "io/job_options.hpp"
#include "test_helpers.hpp"

namespace hs {
namespace {

JobRequest parsed(const std::string& options) {
  std::istringstream in(options);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  const std::vector<std::string_view> tokens(words.begin(), words.end());
  JobRequest r;
  parse_job_options(tokens, r, {"t.jobs", 7});
  return r;
}

InputError refused(const std::string& options) {
  return testing::expect_input_error([&] { parsed(options); });
}

TEST(TaskOptions, CpusPerTaskMultipliesTasksOnKnownLayouts) {
  // 8 tasks of 4 cores, 2 tasks per node: 32 cores, 8 per node.
  const JobRequest a = parsed("-n 8 -c 4 --ntasks-per-node=2");
  EXPECT_EQ(a.ntasks, 32);
  EXPECT_EQ(a.ntasks_per_node, 8);
  const JobRequest b = parsed("-N 1 -n 3 --cpus-per-task=2");  // one node: 6 cores there
  EXPECT_EQ(b.ntasks, 6);
  EXPECT_EQ(b.nodes_max, 1);
  EXPECT_EQ(parsed("-n 5 -c 1").ntasks, 5);
  EXPECT_FALSE(parsed("-n 5 -c 1").units());
  EXPECT_FALSE(a.units());
  EXPECT_FALSE(b.units());
}

TEST(TaskOptions, TasksFreeToSpreadBecomeUnits) {
  // 8 tasks of 4 cores and 1 GPU each, any number per node.
  const JobRequest a = parsed("-n 8 -c 4 --gpus-per-task=1");
  EXPECT_TRUE(a.units());
  EXPECT_EQ(a.task_cores, 4);
  EXPECT_EQ(a.ntasks, 32);
  EXPECT_EQ(a.unit_count(), 8);
  ASSERT_EQ(a.gres.size(), 1u);
  EXPECT_EQ(a.gres[0].per_node_min, 1);  // per task
  const JobRequest b = parsed("-n 6 --gpus-per-task=a100:2");  // 1-core tasks
  EXPECT_EQ(b.task_cores, 1);
  EXPECT_EQ(b.unit_count(), 6);
  EXPECT_EQ(b.gres.at(0).kind, "a100");
  const JobRequest c = parsed("-n 4 -c 2 -N 2-4 --mem=1G");  // --mem stays per node
  EXPECT_EQ(c.unit_count(), 4);
  EXPECT_EQ(c.mem_per_node_mb, 1024);
  EXPECT_EQ(format_job_options(a), "-n 8 -c 4 --gpus-per-task=1");
  EXPECT_EQ(format_job_options(b), "-n 6 --gpus-per-task=a100:2");
}

TEST(TaskOptions, UnitsRefuseOptionsCountedPerNode) {
  const InputError e = refused("-n 8 -c 4 --gres=gpu:2");
  EXPECT_EQ(e.field(), "-c");
  EXPECT_EQ(e.value(), "4");
  EXPECT_EQ(e.where().line, 7);
  EXPECT_NE(std::string(e.what()).find("per node"), std::string::npos) << e.what();
  EXPECT_EQ(refused("-n 8 --gpus-per-task=1 --gres=mic:1").field(), "--gpus-per-task");
  EXPECT_EQ(refused("-n 8 -c 2 --mem-per-cpu=100").field(), "--mem-per-cpu");
  EXPECT_EQ(refused("-n 8 --gpus-per-task=1 --mem-per-gpu=100").field(), "--mem-per-gpu");
  EXPECT_EQ(refused("-n 8 -c 2 -G 4").field(), "-G");
}

TEST(TaskOptions, GpuOptionsBecomePerNodeGres) {
  const JobRequest a = parsed("-N 2 --ntasks-per-node=4 --gpus-per-node=a100:2");
  ASSERT_EQ(a.gres.size(), 1u);
  EXPECT_EQ(a.gres[0].name, "gpu");
  EXPECT_EQ(a.gres[0].kind, "a100");
  EXPECT_EQ(a.gres[0].per_node_min, 2);
  // 3 tasks per node with 1 GPU each: 3 GPUs per node.
  const JobRequest b = parsed("-n 6 --ntasks-per-node=3 -c 2 --gpus-per-task=1");
  EXPECT_EQ(b.gres.at(0).per_node_min, 3);
  EXPECT_EQ(b.ntasks, 12);
  EXPECT_EQ(parsed("-N 1 -n 2 -G 3").gres.at(0).per_node_min, 3);
  EXPECT_EQ(refused("-N 2 -n 2 --gpus=4").field(), "--gpus");
  EXPECT_EQ(refused("-n 2 --gres=gpu:1 --gpus-per-node=1").field(), "--gpus-per-node");
  EXPECT_EQ(refused("-n 2 --gpus-per-node=1 --gpus-per-task=1").field(), "--gpus-per-task");
  EXPECT_EQ(refused("-n 2 --gpus-per-node=!x:1").value(), "!x:1");
  EXPECT_EQ(refused("-n 2 --gpus-per-node=0").value(), "0");
}

TEST(TaskOptions, CpusPerGpuSetsCoresPerNode) {
  // 2 nodes, 4 GPUs each, 6 cores per GPU: 24 cores per node.
  const JobRequest a = parsed("-N 2 --gpus-per-node=4 --cpus-per-gpu=6");
  EXPECT_EQ(a.ntasks_per_node, 24);
  EXPECT_EQ(a.ntasks, 48);
  EXPECT_EQ(refused("-N 2 -n 4 --gpus-per-node=4 --cpus-per-gpu=6").field(), "--cpus-per-gpu");
  EXPECT_EQ(refused("-N 1-2 --gpus-per-node=4 --cpus-per-gpu=6").field(), "--cpus-per-gpu");
  EXPECT_EQ(refused("-N 2 --cpus-per-gpu=6").field(), "--cpus-per-gpu");
  EXPECT_EQ(refused("-N 1 -c 2 --gpus-per-node=1 --cpus-per-gpu=6").field(), "--cpus-per-gpu");
}

TEST(TaskOptions, MemoryPerCpuAndPerGpu) {
  EXPECT_EQ(parsed("-n 8 --ntasks-per-node=4 --mem-per-cpu=1G").mem_per_node_mb, 4096);
  EXPECT_EQ(parsed("-N 1 -n 2 -c 3 --mem-per-cpu=100").mem_per_node_mb, 600);
  EXPECT_EQ(parsed("-n 2 --gres=gpu:2 --mem-per-gpu=8G").mem_per_node_mb, 16384);
  EXPECT_EQ(refused("-n 8 --mem-per-cpu=1G").field(), "--mem-per-cpu");
  EXPECT_EQ(refused("-N 1 -n 2 --mem=4G --mem-per-cpu=1G").field(), "--mem-per-cpu");
  EXPECT_EQ(refused("-n 2 --mem-per-gpu=1G").field(), "--mem-per-gpu");
  EXPECT_EQ(refused("-N 1 -n 2 --mem-per-cpu=1X").value(), "1X");
}

}  // namespace
}  // namespace hs
