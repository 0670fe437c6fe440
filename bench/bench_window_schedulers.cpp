// Replays heterogeneous ESP (1024 x (8 cores, 2 GPUs)) and a TSUBAME-like workload (TSUBAME
// 2.0 model with its switch tree) under each window scheduler and prints wall time, per-pass
// solve time (p50/p99) and the run's main metrics.
//
//   bench_window_schedulers [scheduler-filter] [tsubame-jobs] [extra options k=v,...]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "io/builtin_clusters.hpp"
#include "metrics/summary.hpp"
#include "policy/window/pass_summary.hpp"
#include "policy/window/window_schedulers.hpp"
#include "sim/bind.hpp"
#include "sim/invariant_checker.hpp"
#include "sim/simulator.hpp"
#include "util/memory_usage.hpp"
#include "util/params.hpp"
#include "workload/registry.hpp"

namespace {

struct Case {
  std::string label;
  std::string cluster;
  std::string workload;
};

void run_case(const Case& c, const std::string& scheduler, const std::string& extra) {
  hs::Cluster cluster = *hs::builtin_cluster(c.cluster);
  hs::Workload w = hs::generate_workload(c.workload, cluster, 1);
  hs::bind_workload(cluster, w);
  hs::Params params = hs::Params::parse(extra, "<bench>");
  auto s = hs::make_window_scheduler(scheduler, params);
  const auto t0 = std::chrono::steady_clock::now();
  const hs::SimResult r = hs::simulate(cluster, w, *s, hs::SimConfig{});
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const auto check = hs::check_run(cluster, w, r);
  const hs::Summary sum = hs::summarize(cluster, w, r);
  const hs::window::PassSummary passes = hs::window::summarize_passes(hs::window::pass_stats(*s));
  std::vector<double> pass;  // whole-pass time over passes that called the solver
  for (const auto& p : hs::window::pass_stats(*s))
    if (p.solves > 0) pass.push_back(p.pass_seconds);
  const double gpu_util = sum.gres_utilization.empty() ? 0.0 : sum.gres_utilization[0];
  std::printf(
      "%-8s %-10s jobs=%zu wall=%.2fs solved_passes=%zu solve_p50=%.4fs solve_p99=%.4fs "
      "pass_p99=%.4fs pass_max=%.4fs bids/pass=%.0f "
      "timeouts=%ld fallbacks=%ld bad_proposals=%ld | span=%lds util=%.3f gpu_util=%.3f "
      "wait=%.0fs wait_max=%.0fs slowdown=%.2f spread=%.2f%s rejected=%ld stalled=%ld audit=%s\n",
      c.label.c_str(), scheduler.c_str(), w.jobs.size(), wall,
      static_cast<std::size_t>(passes.solved), passes.solve_p50_s, passes.solve_p99_s,
      hs::window::percentile(pass, 0.99), hs::window::percentile(pass, 1.0), passes.mean_bids,
      static_cast<long>(passes.timeouts), static_cast<long>(passes.fallbacks),
      static_cast<long>(passes.rejected_proposals), static_cast<long>(sum.span), sum.utilization, gpu_util,
      sum.wait.mean, sum.wait.max, sum.slowdown.mean, sum.spread.mean,
      sum.switch_level ? (" switch_level=" + std::to_string(sum.switch_level->mean)).c_str() : "",
      static_cast<long>(sum.rejected), static_cast<long>(sum.stalled), check.ok() ? "ok" : "FAIL");
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string filter = argc > 1 ? argv[1] : "";
  const std::string tsubame_jobs = argc > 2 ? argv[2] : "600";
  const std::string extra = argc > 3 ? argv[3] : "";
  const std::vector<Case> cases = {
      {"esp-het", "paper1024", "esp-het"},
      {"tsubame", "tsubame2", "tsubame:jobs=" + tsubame_jobs},
  };
  for (const Case& c : cases)
    for (const auto& name : hs::window_scheduler_names())
      if (filter.empty() || filter == name || filter == c.label) run_case(c, name, extra);
  std::printf("peak resident %.0f MiB (whole bench)\n", hs::peak_resident_mib());
  return 0;
}
