// The live bridge's cycle at a site's scale, without a Slurm: a generated `scontrol show job`
// listing of QUEUED held jobs and RUNNING running ones on NODES nodes (16 cores, 4 GPUs;
// each running job holds half a node), served by a stand-in that accepts every command and
// applies none, so that every cycle plans the whole queue again (the worst steady state).
// Prints the listing's size, the time to read it, each cycle's wall time and commands, and
// the peak RSS. The scontrol processes a real cycle spawns (4 per start) are not counted.
// Usage: bench_bridge_cycle [queued [nodes [cycles [scheduler]]]]
//        (defaults 10000 queued, 1000 nodes, 4 cycles, aucsched2)
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "bridge/scontrol_jobs.hpp"
#include "bridge/slurm_bridge.hpp"
#include "io/builtin_clusters.hpp"
#include "policy/registry.hpp"
#include "util/memory_usage.hpp"

namespace {

using Clock = std::chrono::steady_clock;
constexpr std::int64_t kNow = 1'796'000'000;  // the cycles' clock (epoch seconds)
constexpr int kCores = 16, kGpus = 4;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// Slurm's local time text for an epoch.
std::string stamp(std::int64_t epoch) {
  const std::time_t t = static_cast<std::time_t>(epoch);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", std::localtime(&t));
  return text;
}

std::string write_slurm_conf(int nodes) {
  const auto path = std::filesystem::temp_directory_path() / "hetsched-bench-bridge-slurm.conf";
  std::ofstream out(path);
  out << "ClusterName=bench\nSelectType=select/cons_tres\nSelectTypeParameters=CR_Core\nGresTypes=gpu\n"
      << "NodeName=n[1-" << nodes << "] Sockets=2 CoresPerSocket=" << kCores / 2
      << " ThreadsPerCore=1 RealMemory=64000 Gres=gpu:" << kGpus << "\n"
      << "PartitionName=lab Nodes=n[1-" << nodes << "] Default=YES MaxTime=INFINITE State=UP\n";
  return path.string();
}

// The fields every line carries as Slurm prints them, around the job's own.
std::string common_fields(std::int64_t id, std::int64_t submit) {
  return "JobId=" + std::to_string(id) + " JobName=job" + std::to_string(id) +
         " UserId=u" + std::to_string(id % 50) + "(" + std::to_string(1000 + id % 50) +
         ") GroupId=g(1000) MCS_label=N/A Nice=0 Account=(null) QOS=(null) Dependency=(null) "
         "Requeue=1 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=0:0 DerivedExitCode=0:0 TimeMin=N/A "
         "SubmitTime=" + stamp(submit) + " Deadline=N/A SuspendTime=None SecsPreSuspend=0 "
         "Scheduler=Main Partition=lab AllocNode:Sid=login:1 ExcNodeList=(null) CPUs/Task=1 "
         "ReqB:S:C:T=0:0:*:* Socks/Node=* NtasksPerN:B:S:C=0:0:*:* CoreSpec=* MinCPUsNode=1 "
         "MinMemoryNode=0 MinTmpDiskNode=0 Features=(null) DelayBoot=00:00:00 OverSubscribe=OK "
         "Contiguous=0 Licenses=(null) Network=(null) Command=/home/u/run.sh WorkDir=/home/u "
         "StdErr=/home/u/out StdIn=/dev/null StdOut=/home/u/out Power= ";
}

std::string running_line(std::int64_t id, int node) {
  const std::string name = "n" + std::to_string(node + 1);
  const int cores = kCores / 2, gpus = kGpus / 2;
  return common_fields(id, kNow - 7200) + "Priority=4294901000 JobState=RUNNING Reason=None "
         "RunTime=01:00:00 TimeLimit=04:00:00 EligibleTime=" + stamp(kNow - 7200) +
         " StartTime=" + stamp(kNow - 3600) + " EndTime=" + stamp(kNow + 10800) +
         " ReqNodeList=(null) NodeList=" + name + " BatchHost=" + name + " NumNodes=1 NumCPUs=" +
         std::to_string(cores) + " NumTasks=" + std::to_string(cores) + " TRES=cpu=" +
         std::to_string(cores) + ",node=1 JOB_GRES=gpu:" + std::to_string(gpus) + " Nodes=" + name +
         " CPU_IDs=0-" + std::to_string(cores - 1) + " Mem=0 GRES=gpu:" + std::to_string(gpus) +
         "(IDX:0-1) TresPerNode=gres:gpu:" + std::to_string(gpus) + "\n";
}

// Held for the bridge: 1-64 cores on 1-4 nodes, a third with GPUs, limits of 10 min to 12 h.
std::string held_line(std::int64_t id, std::uint64_t& rng) {
  auto next = [&rng](std::uint64_t n) {
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return (rng >> 33) % n;
  };
  const int nodes = 1 + static_cast<int>(next(4));
  const int cores = nodes * (1 + static_cast<int>(next(kCores)));
  const int gpus = next(3) == 0 ? 1 + static_cast<int>(next(kGpus)) : 0;
  const int limit_min = 10 + static_cast<int>(next(710));
  char limit[16];
  std::snprintf(limit, sizeof limit, "%02d:%02d:00", limit_min / 60, limit_min % 60);
  std::string line = common_fields(id, kNow - 600 + id % 600) +
                     "Priority=0 JobState=PENDING Reason=JobHeldUser RunTime=00:00:00 TimeLimit=" + limit +
                     " EligibleTime=Unknown StartTime=Unknown EndTime=Unknown ReqNodeList=(null) NodeList= "
                     "NumNodes=" + std::to_string(nodes) + "-" + std::to_string(nodes) + " NumCPUs=" +
                     std::to_string(cores) + " NumTasks=" + std::to_string(cores) + " TRES=cpu=" +
                     std::to_string(cores) + ",node=" + std::to_string(nodes);
  if (gpus > 0) line += " TresPerNode=gres:gpu:" + std::to_string(gpus);
  return line + "\n";
}

// Serves the listing; accepts every command and applies none.
class StillSlurm : public hs::bridge::SlurmCommands {
 public:
  explicit StillSlurm(std::string jobs) : jobs_(std::move(jobs)) {}
  std::string list_jobs() override { return jobs_; }
  bool run(const std::vector<std::string>&, std::string&) override {
    ++commands;
    return true;
  }
  std::size_t commands = 0;

 private:
  std::string jobs_;
};

}  // namespace

int main(int argc, char** argv) {
  const int queued = argc > 1 ? std::stoi(argv[1]) : 10'000;
  const int nodes = argc > 2 ? std::stoi(argv[2]) : 1'000;
  const int cycles = argc > 3 ? std::stoi(argv[3]) : 4;
  const std::string scheduler_spec = argc > 4 ? argv[4] : "aucsched2";
  try {
    const hs::Cluster cluster = hs::load_cluster_spec(write_slurm_conf(nodes));
    std::string listing;
    std::int64_t id = 1;
    for (int n = 0; n < nodes; ++n) listing += running_line(id++, n);
    std::uint64_t rng = 42;
    for (int q = 0; q < queued; ++q) listing += held_line(id++, rng);

    const auto t_parse = Clock::now();
    const std::size_t listed = hs::bridge::parse_scontrol_jobs(listing, "bench").size();
    const double parse_ms = ms_since(t_parse);
    std::printf("bench_bridge_cycle: %d queued + %d running jobs on %d nodes (%d cores, %d GPUs each), %s\n",
                queued, nodes, nodes, kCores, kGpus, scheduler_spec.c_str());
    std::printf("  listing %.1f MiB, %zu jobs, read in %.1f ms\n",
                static_cast<double>(listing.size()) / (1024.0 * 1024.0), listed, parse_ms);

    hs::BuiltScheduler built = hs::make_scheduler(scheduler_spec, {});
    StillSlurm slurm(std::move(listing));
    hs::bridge::BridgeOptions options;
    options.partition = "lab";
    hs::bridge::SlurmBridge bridge(cluster, *built.scheduler, slurm, options);
    for (int c = 0; c < cycles; ++c) {
      const std::size_t before = slurm.commands;
      const auto t0 = Clock::now();
      const hs::bridge::CycleReport report = bridge.cycle(kNow + c * 5);
      std::printf("  cycle %d: %.1f ms, queued %zu, started %zu, refused %zu, %zu commands\n", c + 1,
                  ms_since(t0), report.pending, report.started, report.refused, slurm.commands - before);
    }
    std::printf("  peak RSS %.1f MiB\n", hs::peak_resident_mib());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_bridge_cycle: %s\n", e.what());
    return 1;
  }
  return 0;
}
