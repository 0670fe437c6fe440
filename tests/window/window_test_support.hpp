#pragma once
// Small builders shared by the window-scheduler tests.
#include <string>
#include <vector>

#include "model/cluster.hpp"
#include "support/uniform_cluster.hpp"
#include "model/job.hpp"
#include "policy/window/window_schedulers.hpp"
#include "sim/bind.hpp"
#include "sim/invariant_checker.hpp"
#include "sim/simulator.hpp"
#include "util/params.hpp"

namespace hs::test {

struct JobSpec {
  std::int32_t ntasks = 1;
  std::int32_t nodes = 0;      // -N (0 = not given)
  std::int32_t gpus = 0;       // --gres=gpu:gpus
  std::int32_t gpus_max = 0;   // range upper end (0 = no range)
  std::int32_t cpn = 0;        // --ntasks-per-node
  bool contiguous = false;
  Time submit = 0;
  Time run = 100;
  Time limit = 0;              // 0 = run
};

inline Job make_job(std::int64_t id, const JobSpec& s) {
  Job j;
  j.id = id;
  j.name = "j" + std::to_string(id);
  j.user = "u";
  j.submit = s.submit;
  j.run_time = s.run;
  j.req.ntasks = s.ntasks;
  j.req.nodes_min = s.nodes;
  j.req.ntasks_per_node = s.cpn;
  j.req.contiguous = s.contiguous;
  j.req.time_limit = s.limit > 0 ? s.limit : s.run;
  if (s.gpus > 0 || s.gpus_max > 0) {
    GresRequest g;
    g.name = "gpu";
    g.per_node_min = s.gpus;
    g.per_node_max = s.gpus_max > 0 ? s.gpus_max : s.gpus;
    j.req.gres.push_back(g);
    j.moldable_runtime = s.gpus_max > s.gpus;
  }
  return j;
}

inline Workload make_workload(const std::vector<JobSpec>& specs) {
  Workload w;
  w.name = "test";
  for (std::size_t i = 0; i < specs.size(); ++i) w.jobs.push_back(make_job(i + 1, specs[i]));
  return w;
}

struct RunOutcome {
  SimResult result;
  CheckReport check;
  std::vector<window::PassStats> passes;
};

inline RunOutcome run_window(const Cluster& cluster, Workload workload, const std::string& name,
                             const std::string& options = "") {
  bind_workload(cluster, workload);
  Params params = Params::parse(options, "<test>");
  auto scheduler = make_window_scheduler(name, params);
  params.reject_unused(name);
  RunOutcome out;
  out.result = simulate(cluster, workload, *scheduler, SimConfig{});
  out.check = check_run(cluster, workload, out.result);
  out.passes = window::pass_stats(*scheduler);
  return out;
}

}  // namespace hs::test
