#include "cli/bridge_command.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <fstream>
#include <optional>
#include <cstdlib>
#include <filesystem>
#include <ctime>
#include <iostream>
#include <thread>

#include "bridge/bridge_lock.hpp"
#include "bridge/bridge_status.hpp"
#include "bridge/scontrol_process.hpp"
#include "bridge/shadow_report.hpp"
#include "bridge/slurm_bridge.hpp"
#include "cli/args.hpp"
#include "cli/exit_codes.hpp"
#include "cli/run_setup.hpp"
#include "cli/version.hpp"
#include "io/slurm_conf.hpp"
#include "io/text_file.hpp"
#include "policy/registry.hpp"
#include "util/error.hpp"

namespace hs::cli {

namespace {

constexpr const char* kBridgeScheduler = "aucsched2";

std::string default_conf() {
  const char* conf = std::getenv("SLURM_CONF");
  return conf ? conf : "/etc/slurm/slurm.conf";
}

Args bridge_args() {
  Args args("bridge",
            "Schedules the jobs of a live Slurm with a hetsched scheduler. Jobs of the managed\n"
            "partition are held (sbatch -H, or scripts/bridge/job_submit.lua); every --interval\n"
            "seconds the bridge reads Slurm (jobs, nodes, reservations), repairs what a crash or\n"
            "an outside change left behind, lets the scheduler decide, checks each proposed\n"
            "allocation and starts the job on exactly those nodes. Its state lives in Slurm (each\n"
            "managed job's AdminComment): a restarted bridge resumes where the last one stopped.\n"
            "A comment 'hetsched:gpu=MIN-MAX' gives a job a per-node GPU range (AUCSCHED2).\n"
            "'hetsched bridge status' prints what the bridge holds, has in flight and why.");
  args.declare({"cluster", "FILE|NAME", "the live cluster's slurm.conf", default_conf()});
  args.declare({"scheduler", "SPEC", "scheduler name[:k=v,...] (hetsched list schedulers)", kBridgeScheduler});
  args.declare({"opt", "KEY=VALUE", "scheduler option", "", true});
  args.declare({"partition", "NAME", "manage only this partition's jobs (default: every partition)", ""});
  args.declare({"interval", "SECONDS", "seconds between cycles", "5"});
  args.declare({"start-grace", "SECONDS", "a released job not running after this is held again", "30"});
  args.declare({"cycles", "N", "stop after N cycles (0 = run until stopped)", "0"});
  args.declare({"until-idle", "", "stop after a cycle with nothing queued, in flight or running", ""});
  args.declare({"policy-time-limit", "SECONDS",
                "a Python policy's pass running longer is cut off, nothing of it applied (0 = no limit)", "60"});
  args.declare({"scontrol-time-limit", "SECONDS",
                "an scontrol call running longer is killed (a listing: Slurm unavailable; a command: failed)", "60"});
  args.declare({"dry-run", "", "print the scontrol commands instead of running them", ""});
  args.declare({"shadow", "", "hold nothing, start nothing: predict the policy's starts on live traffic", ""});
  args.declare({"shadow-report", "FILE", "with --shadow: the report written when the bridge stops", "shadow-report.md"});
  args.declare({"log-json", "FILE", "append one JSON line per cycle to FILE", ""});
  args.declare({"lock", "FILE", "the lock that keeps a second bridge off the partition (default under $XDG_RUNTIME_DIR or /tmp)", ""});
  args.declare({"jobs-from", "FILE", "read the job table from FILE (scontrol show job -d -o output); one dry-run cycle", ""});
  args.declare({"nodes-from", "FILE", "with --jobs-from: node states (scontrol show node -o output)", ""});
  args.declare({"now", "EPOCH", "with --jobs-from: the time of the listing (default: now)", ""});
  return args;
}

// The listing from a file, and the scontrol commands only printed.
class RecordedListing : public bridge::SlurmCommands {
 public:
  RecordedListing(std::string path, const std::string& nodes_path)
      : path_(std::move(path)), text_(text::read_text_file(path_)),
        nodes_(nodes_path.empty() ? "" : text::read_text_file(nodes_path)) {}
  std::string list_jobs() override { return text_; }
  std::string list_nodes() override { return nodes_; }
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
  std::string nodes_;
};

std::string clock_text(Time epoch) {
  const std::time_t t = static_cast<std::time_t>(epoch);
  char text[32];
  std::strftime(text, sizeof text, "%H:%M:%S", std::localtime(&t));
  return text;
}

void print_cycle(const bridge::CycleReport& r) {
  std::cout << clock_text(r.now) << "  queued " << r.pending << ", in flight " << r.in_flight
            << ", running " << r.running - r.in_flight << ", started " << r.started;
  if (r.predicted) std::cout << ", predicted " << r.predicted;
  if (r.reheld) std::cout << ", held again " << r.reheld;
  if (r.repaired) std::cout << ", repaired " << r.repaired;
  if (r.refused) std::cout << ", never runnable " << r.refused;
  if (r.waiting) std::cout << ", waiting " << r.waiting;
  if (r.unmanaged_pending) std::cout << ", pending outside the bridge " << r.unmanaged_pending;
  if (r.blocked_nodes) std::cout << ", unusable nodes " << r.blocked_nodes;
  if (r.proposals_refused) std::cout << ", proposals refused " << r.proposals_refused;
  if (r.command_failures) std::cout << ", failed commands " << r.command_failures;
  if (r.policy_failed) std::cout << ", policy failed (nothing proposed applied)";
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


// Lock-free, so the signal handler may set it, and read by a policy's pass watchdog thread.
std::atomic<bool> g_stop{false};
static_assert(std::atomic<bool>::is_always_lock_free);
void request_stop(int) { g_stop = true; }

// Sleeps `seconds`, waking early when a stop was requested.
void pause_for(std::int64_t seconds) {
  for (std::int64_t tenth = 0; tenth < seconds * 10 && !g_stop; ++tenth)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
}

int run_status(int argc, char** argv) {
  Args args("bridge status", "What the bridge holds, has in flight and why, read from Slurm.");
  args.declare({"partition", "NAME", "the managed partition (default: every partition)", ""});
  args.declare({"start-grace", "SECONDS", "the bridge's start grace", "30"});
  args.declare({"jobs-from", "FILE", "read the job table from FILE instead of scontrol", ""});
  args.declare({"nodes-from", "FILE", "with --jobs-from: node states from FILE", ""});
  args.declare({"now", "EPOCH", "with --jobs-from: the time of the listing (default: now)", ""});
  args.parse(argc, argv, 3);
  if (args.help_requested()) {
    std::cout << args.usage();
    return kExitOk;
  }
  const std::string listing_file = args.get("jobs-from", "");
  std::unique_ptr<bridge::SlurmCommands> slurm;
  if (listing_file.empty()) slurm = std::make_unique<bridge::ScontrolProcess>(true, std::cout);
  else slurm = std::make_unique<RecordedListing>(listing_file, args.get("nodes-from", ""));
  bridge::SlurmView view;
  try {
    view.jobs = bridge::parse_scontrol_jobs(slurm->list_jobs(), slurm->listing_name());
    view.nodes = bridge::parse_scontrol_nodes(slurm->list_nodes(), slurm->listing_name());
  } catch (const bridge::SlurmUnavailable& e) {
    std::cerr << "hetsched bridge status: " << e.what() << "\n";
    return kExitInternal;
  }
  const Time now = args.has("now") ? args.get_int("now", 0, 0, std::int64_t{1} << 40) : epoch_now();
  std::cout << bridge::status_text(view, args.get("partition", ""), now,
                                   args.get_int("start-grace", 30, 0, 86400));
  return kExitOk;
}

// On stop, every released job not yet running is held again with its request restored.
void hand_back(bridge::SlurmBridge& bridge) {
  try {
    print_cycle(bridge.hand_back(epoch_now()));
  } catch (const std::exception& e) {
    std::cout << "could not hand back released jobs (" << e.what()
              << "); a restarted bridge or 'hetsched bridge status' finds them\n";
  }
}

struct LiveRun {
  bridge::SlurmBridge& bridge;
  std::int64_t interval;
  std::int64_t cycles;
  bool until_idle;
  std::ofstream json;
};

// Cycles until stopped. Slurm being unreachable or a listing that cannot be read is waited
// out with back-off (interval, doubling up to 60 s), never an exit.
void run_cycles(LiveRun& run) {
  std::int64_t backoff = 0;
  for (std::int64_t c = 0; (run.cycles == 0 || c < run.cycles) && !g_stop; ++c) {
    if (c > 0) pause_for(backoff > 0 ? backoff : run.interval);
    if (g_stop) break;
    try {
      const bridge::CycleReport report = run.bridge.cycle(epoch_now());
      backoff = 0;
      print_cycle(report);
      if (run.json.is_open()) run.json << report.json() << std::endl;
      if (run.until_idle && report.pending == 0 && report.running == 0) break;
    } catch (const bridge::SlurmUnavailable& e) {
      backoff = std::min<std::int64_t>(60, backoff > 0 ? backoff * 2 : run.interval);
      std::cout << clock_text(epoch_now()) << "  Slurm unreachable, retrying in " << backoff
                << " s: " << e.what() << std::endl;
    } catch (const InputError& e) {
      backoff = std::min<std::int64_t>(60, backoff > 0 ? backoff * 2 : run.interval);
      std::cout << clock_text(epoch_now()) << "  unreadable listing, retrying in " << backoff
                << " s: " << e.what() << std::endl;
    }
  }
}

}  // namespace

int run_bridge_command(int argc, char** argv) {
  if (argc > 2 && std::string(argv[2]) == "status") return run_status(argc, argv);
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
  bridge::BridgeOptions options;
  options.partition = args.get("partition", "");
  options.memory_consumable = text::to_lower(select_params).find("memory") != std::string::npos;
  options.start_grace = args.get_int("start-grace", 30, 1, 86400);
  options.shadow = args.has("shadow");
  BuiltScheduler built = make_scheduler(args.get("scheduler", kBridgeScheduler), args.get_all("opt"), site_options);
  built.scheduler->limit_pass_time(
      {std::chrono::seconds(args.get_int("policy-time-limit", 60, 0, 86400)), [] { return g_stop.load(); }});
  const std::string listing_file = args.get("jobs-from", "");
  const bool dry_run = args.has("dry-run") || !listing_file.empty();
  std::cout << "hetsched " << version_string() << " bridge\n"
            << "cluster    " << describe_cluster(cluster) << "\n"
            << "scheduler  " << built.scheduler->name() << " [" << built.effective_options << "]\n"
            << "partition  " << (options.partition.empty() ? "(all)" : options.partition) << "\n"
            << "memory     " << (options.memory_consumable ? "counted" : "not counted")
            << (select_params.empty() ? "" : " (SelectTypeParameters=" + select_params + ")") << "\n"
            << "mode       "
            << (options.shadow ? "shadow (nothing held or started; predictions only)"
                : dry_run      ? "dry run (commands printed, not run)"
                               : "live")
            << "\n\n";
  if (!listing_file.empty()) {
    RecordedListing slurm(listing_file, args.get("nodes-from", ""));
    bridge::SlurmBridge bridge(cluster, *built.scheduler, slurm, options);
    const Time now = args.has("now") ? args.get_int("now", 0, 0, std::int64_t{1} << 40) : epoch_now();
    print_cycle(bridge.cycle(now));
    return kExitOk;
  }
  std::optional<bridge::BridgeLock> lock;
  if (!dry_run && !options.shadow) {
    const std::string lock_path = args.get("lock", bridge::default_lock_path(cluster.name, options.partition));
    try {
      lock.emplace(lock_path);
    } catch (const std::runtime_error& e) {
      std::cerr << "hetsched bridge: " << e.what() << "\n";
      return kExitBadInput;
    }
  }
  bridge::ScontrolProcess slurm(dry_run, std::cout,
                                std::chrono::seconds(args.get_int("scontrol-time-limit", 60, 1, 86400)));
  bridge::SlurmBridge bridge(cluster, *built.scheduler, slurm, options);
  std::signal(SIGINT, request_stop);
  std::signal(SIGTERM, request_stop);
  LiveRun run{bridge, args.get_int("interval", 5, 1, 86400), args.get_int("cycles", 0, 0, std::int64_t{1} << 40),
              args.has("until-idle"), {}};
  if (const std::string log = args.get("log-json", ""); !log.empty()) {
    run.json.open(log, std::ios::app);
    if (!run.json) throw InputError({log, 0}, "--log-json", log, "cannot open for appending");
  }
  try {
    run_cycles(run);
  } catch (...) {
    hand_back(bridge);  // a failure nobody foresaw still leaves no job released on a stale plan
    throw;
  }
  hand_back(bridge);
  if (options.shadow) {
    const std::string path = args.get("shadow-report", "shadow-report.md");
    std::ofstream(path) << bridge::shadow_report(bridge.predictions(), built.scheduler->name());
    std::cout << "shadow report: " << path << "\n";
  }
  return kExitOk;
}

}  // namespace hs::cli
