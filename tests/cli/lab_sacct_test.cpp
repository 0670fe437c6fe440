// A real Slurm accounting dump, captured from the project's Slurm lab with slurmdbd
// (scripts/slurm-lab/accounting-capture.sh; tests/data/lab-sacct/README.md), read as a
// workload with the lab's own slurm.conf and replayed under the Slurm model.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cli/exit_codes.hpp"
#include "cli_test_support.hpp"
#include "io/sacct_reader.hpp"

namespace hs::cli {
namespace {

using namespace test;

const std::string kLab = kSource + "/tests/data/lab-sacct";
const std::string kDump = kLab + "/sacct.txt";
const std::string kConf = kLab + "/slurm.conf";
// Model starts within 5 s of the real ones: 33 of 55 when the dump was captured (default
// clock=grid). A guard against regressions, not a fidelity target (docs/slurm-lab.md).
constexpr int kWithin5sGuard = 27;

std::vector<std::string> split(const std::string& line, char sep) {
  std::vector<std::string> out;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, sep)) out.push_back(field);
  if (!line.empty() && line.back() == sep) out.emplace_back();
  return out;
}

// "2026-11-25T21:42:36" as seconds since the epoch (no time zone, as the reader takes it).
std::int64_t seconds_of(const std::string& t) {
  using namespace std::chrono;
  const year_month_day day{year{std::stoi(t.substr(0, 4))}, month{unsigned(std::stoi(t.substr(5, 2)))},
                           std::chrono::day{unsigned(std::stoi(t.substr(8, 2)))}};
  return sys_days{day}.time_since_epoch() / 1s + std::stoll(t.substr(11, 2)) * 3600 +
         std::stoll(t.substr(14, 2)) * 60 + std::stoll(t.substr(17, 2));
}

// The real start of every job that ran, in seconds after the earliest Submit of a job kept,
// by JobIDRaw (the reader's job id).
std::map<std::int64_t, std::int64_t> real_starts() {
  std::istringstream in(read_file(kDump));
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> header = split(line, '|');
  auto col = [&](const std::string& name) {
    for (std::size_t i = 0; i < header.size(); ++i)
      if (header[i] == name) return i;
    ADD_FAILURE() << "no field " << name;
    return std::size_t{0};
  };
  const std::size_t id = col("JobIDRaw"), submit = col("Submit"), start = col("Start"),
                    nodes = col("NodeList");
  std::map<std::int64_t, std::int64_t> starts;
  std::int64_t first_submit = 0;
  while (std::getline(in, line)) {
    const std::vector<std::string> f = split(line, '|');
    if (f[id].find('.') != std::string::npos || f[nodes] == "None assigned") continue;
    const std::int64_t s = seconds_of(f[submit]);
    if (starts.empty() || s < first_submit) first_submit = s;
    starts[std::stoll(f[id])] = seconds_of(f[start]);
  }
  for (auto& [job, start_time] : starts) start_time -= first_submit;
  return starts;
}

TEST(LabSacct, DumpIsReadWithEveryDecisionCounted) {
  const SacctLoad load = read_sacct(kDump);
  EXPECT_EQ(load.workload.jobs.size(), 55u);  // 48 + 6 array tasks + the timeout
  EXPECT_EQ(load.never_started, 1);          // the job cancelled while pending
  EXPECT_EQ(load.steps, 55);                 // every job's batch step skipped
  EXPECT_EQ(load.timeouts, 1);
  EXPECT_EQ(load.renumbered, 0);             // array tasks keep Slurm's JobIDRaw
  int array_tasks = 0, gpu_jobs = 0;
  for (const Job& j : load.workload.jobs) {
    array_tasks += j.name == "array";
    gpu_jobs += !j.req.gres.empty();
    EXPECT_GT(j.req.mem_per_node_mb, 0) << j.id;
    if (j.name == "timeout") {
      EXPECT_EQ(j.run_time, j.req.time_limit) << "killed at its limit";
    }
  }
  EXPECT_EQ(array_tasks, 6);
  EXPECT_GE(gpu_jobs, 20);
}

TEST(LabSacct, ReplayUnderTheSlurmModelMatchesMostRealStarts) {
  const std::string dir = temp_dir("lab-sacct");
  const Outcome o = run({"simulate", "--cluster", kConf, "--workload", kDump, "--scheduler",
                         "backfill", "--out", dir});
  ASSERT_EQ(o.code, kExitOk) << o.err << o.out;
  EXPECT_NE(o.out.find("checker    OK"), std::string::npos) << o.out;
  const std::map<std::int64_t, std::int64_t> real = real_starts();
  std::istringstream jobs(read_file(dir + "/jobs.csv"));
  std::string line;
  std::getline(jobs, line);
  int compared = 0, within_5s = 0;
  while (std::getline(jobs, line)) {
    const std::vector<std::string> f = split(line, ',');
    const auto it = real.find(std::stoll(f[0]));
    ASSERT_NE(it, real.end()) << line;
    ASSERT_FALSE(f[5].empty()) << "did not run: " << line;
    ++compared;
    within_5s += std::llabs(std::stoll(f[5]) - it->second) <= 5;
  }
  EXPECT_EQ(compared, static_cast<int>(real.size()));
  std::cout << "lab sacct replay: " << within_5s << " of " << compared
            << " model starts within 5 s of the real ones\n";
  EXPECT_GE(within_5s, kWithin5sGuard);
}

}  // namespace
}  // namespace hs::cli
