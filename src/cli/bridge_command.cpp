#include "cli/bridge_command.hpp"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <ctime>
#include <iostream>
#include <thread>

#include "bridge/scontrol_process.hpp"
#include "bridge/slurm_bridge.hpp"
#include "cli/args.hpp"
#include "cli/exit_codes.hpp"
#include "cli/run_setup.hpp"
#include "cli/version.hpp"
#include "io/slurm_conf.hpp"
#include "io/text_file.hpp"
#include "policy/registry.hpp"

namespace hs::cli {

namespace {

constexpr const char* kBridgeScheduler = "aucsched2";

std::string default_conf() {
  const char* conf = std::getenv("SLURM_CONF");
  return conf ? conf : "/etc/slurm/slurm.conf";
}

Args bridge_args() {
  Args args("bridge",
            "Schedules the jobs of a live Slurm with a hetsched scheduler. Submit jobs held\n"
            "(sbatch -H); every --interval seconds the bridge reads the job table, lets the\n"
            "scheduler decide, checks each proposed allocation and starts the job on exactly\n"
            "those nodes (scontrol update ReqNodeList/NumNodes/MinCPUsNode, scontrol release).\n"
            "A comment 'hetsched:gpu=MIN-MAX' gives a job a per-node GPU range (AUCSCHED2).");
  args.declare({"cluster", "FILE|NAME", "the live cluster's slurm.conf", default_conf()});
  args.declare({"scheduler", "SPEC", "scheduler name[:k=v,...] (hetsched list schedulers)", kBridgeScheduler});
  args.declare({"opt", "KEY=VALUE", "scheduler option", "", true});
  args.declare({"partition", "NAME", "only held jobs of this partition (default: all held jobs)", ""});
  args.declare({"interval", "SECONDS", "seconds between cycles", "5"});
  args.declare({"cycles", "N", "stop after N cycles (0 = run until stopped)", "0"});
  args.declare({"until-idle", "", "stop after a cycle with no held job waiting and none running", ""});
  args.declare({"dry-run", "", "print the scontrol commands instead of running them", ""});
  args.declare({"jobs-from", "FILE", "read the job table from FILE (scontrol show job -d -o output); one dry-run cycle", ""});
  args.declare({"now", "EPOCH", "with --jobs-from: the time of the listing (default: now)", ""});
  return args;
}

// The listing from a file, and the scontrol commands only printed.
class RecordedListing : public bridge::SlurmCommands {
 public:
  explicit RecordedListing(std::string path) : path_(std::move(path)), text_(text::read_text_file(path_)) {}
  std::string list_jobs() override { return text_; }
  std::string listing_name() const override { return path_; }
  bool run(const std::vector<std::string>& argv, std::string&) override {
    std::cout << "  (dry run)";
    for (const std::string& a : argv) std::cout << " " << a;
    std::cout << "\n";
    return true;
  }

 private:
  std::string path_;
  std::string text_;
};

std::string clock_text(Time epoch) {
  const std::time_t t = static_cast<std::time_t>(epoch);
  char text[32];
  std::strftime(text, sizeof text, "%H:%M:%S", std::localtime(&t));
  return text;
}

void print_cycle(const bridge::CycleReport& r) {
  std::cout << clock_text(r.now) << "  waiting " << r.pending << ", running " << r.running
            << ", started " << r.started;
  if (r.refused) std::cout << ", refused " << r.refused;
  if (r.command_failures) std::cout << ", failed commands " << r.command_failures;
  std::cout << "\n";
  for (const std::string& line : r.log) std::cout << "          " << line << "\n";
  std::cout.flush();
}

Time epoch_now() { return static_cast<Time>(std::time(nullptr)); }

// Slurm consumes memory only when SelectTypeParameters says so (CR_Core_Memory, ...).
std::string memory_setting(const std::string& cluster_spec) {
  if (!std::filesystem::is_regular_file(cluster_spec)) return "";
  const SlurmConfig conf = load_slurm_conf(cluster_spec);
  const auto it = conf.settings.find("selecttypeparameters");
  return it == conf.settings.end() ? "" : it->second;
}

}  // namespace

int run_bridge_command(int argc, char** argv) {
  Args args = bridge_args();
  args.parse(argc, argv, 2);
  if (args.help_requested()) {
    std::cout << args.usage();
    return kExitOk;
  }
  std::vector<OptionDefault> site_options;
  const std::string cluster_spec = args.get("cluster", default_conf());
  const Cluster cluster = load_cluster(cluster_spec, &site_options);
  const std::string select_params = memory_setting(cluster_spec);
  const bool memory_counted = text::to_lower(select_params).find("memory") != std::string::npos;
  BuiltScheduler built = make_scheduler(args.get("scheduler", kBridgeScheduler), args.get_all("opt"), site_options);
  const std::string listing_file = args.get("jobs-from", "");
  const bool dry_run = args.has("dry-run") || !listing_file.empty();
  std::cout << "hetsched " << version_string() << " bridge\n"
            << "cluster    " << describe_cluster(cluster) << "\n"
            << "scheduler  " << built.scheduler->name() << " [" << built.effective_options << "]\n"
            << "memory     " << (memory_counted ? "counted" : "not counted")
            << (select_params.empty() ? "" : " (SelectTypeParameters=" + select_params + ")") << "\n"
            << "mode       " << (dry_run ? "dry run (commands printed, not run)" : "live") << "\n\n";
  std::unique_ptr<bridge::SlurmCommands> slurm;
  if (listing_file.empty()) {
    slurm = std::make_unique<bridge::ScontrolProcess>(dry_run, std::cout);
  } else {
    slurm = std::make_unique<RecordedListing>(listing_file);
  }
  bridge::SlurmBridge bridge(cluster, *built.scheduler, *slurm, args.get("partition", ""),
                             memory_counted);
  if (!listing_file.empty()) {
    const Time now = args.has("now") ? args.get_int("now", 0, 0, std::int64_t{1} << 40) : epoch_now();
    print_cycle(bridge.cycle(now));
    return kExitOk;
  }
  const std::int64_t interval = args.get_int("interval", 5, 1, 86400);
  const std::int64_t cycles = args.get_int("cycles", 0, 0, std::int64_t{1} << 40);
  for (std::int64_t c = 0; cycles == 0 || c < cycles; ++c) {
    if (c > 0) std::this_thread::sleep_for(std::chrono::seconds(interval));
    const bridge::CycleReport report = bridge.cycle(epoch_now());
    print_cycle(report);
    if (args.has("until-idle") && report.pending == 0 && report.running == 0) break;
  }
  return kExitOk;
}

}  // namespace hs::cli
