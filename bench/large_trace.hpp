#pragma once
// Generated traces of large machines shared by the replay benchmarks (bench_large_machine,
// bench_replay_year): nodes of 32 cores, the last fifth with 4 GPUs each; 60 % one-node jobs
// of 1-32 cores, 30 % whole-node jobs of 2..max_job_nodes nodes, 10 % GPU jobs of 1-8 nodes
// with 1-4 GPUs each; run times log-uniform from a minute to a day, limits 1-3x (rounded up
// to a minute); Poisson arrivals. And a Blue Gene-like machine (`blocks`: ANL Intrepid's 4
// cores a node, jobs of 512-node blocks up to the whole machine), the widest shape of the
// archive's traces.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "model/cluster.hpp"
#include "model/job.hpp"
#include "util/rng.hpp"

namespace hs::bench {

inline Cluster make_large_cluster(int nodes) {
  Cluster c;
  c.name = "large" + std::to_string(nodes);
  c.gres_types = {"gpu"};
  for (int i = 0; i < nodes; ++i) {
    Node n;
    n.name = "n" + std::to_string(i + 1);
    n.cores = 32;
    n.gres = {i >= nodes - nodes / 5 ? 4 : 0, 0, 0, 0};
    c.nodes.push_back(n);
  }
  return c;
}

inline std::int32_t log_uniform(Rng& rng, double lo, double hi) {
  return static_cast<std::int32_t>(std::exp(std::log(lo) + rng.uniform01() * (std::log(hi) - std::log(lo))));
}

inline Job make_large_job(Rng& rng, std::int64_t id, double max_job_nodes) {
  Job j;
  j.id = id;
  j.user = "u" + std::to_string(rng.uniform_int(1, 200));
  const double kind = rng.uniform01();
  if (kind < 0.6) {
    j.req.ntasks = static_cast<std::int32_t>(rng.uniform_int(1, 32));
  } else if (kind < 0.9) {
    j.req.nodes_min = log_uniform(rng, 2, max_job_nodes);
    j.req.ntasks = 32 * j.req.nodes_min;
  } else {
    j.req.nodes_min = static_cast<std::int32_t>(rng.uniform_int(1, 8));
    j.req.ntasks = 8 * j.req.nodes_min;
    const auto gpus = static_cast<std::int32_t>(rng.uniform_int(1, 4));
    j.req.gres.push_back({"gpu", -1, gpus, gpus});
  }
  j.run_time = log_uniform(rng, 60, 86400);
  j.req.time_limit = ((static_cast<Time>(j.run_time * (1 + 2 * rng.uniform01())) + 59) / 60) * 60;
  return j;
}

// The shape of a trace: jobs of at most `max_job_nodes` nodes. span_s == 0: arrivals at an
// offered load of `load` of the machine's cores with the run times as drawn (bench_large_
// machine). span_s > 0: arrivals over span_s seconds and run times (and limits) scaled so that
// the offered load is `load` (the year-long traces of bench_replay_year).
struct TraceShape {
  double max_job_nodes = 256;
  double load = 0.95;
  double span_s = 0;
  bool blocks = false;  // make_block_job instead of make_large_job
};

inline Cluster make_block_cluster(int nodes) {
  Cluster c;
  c.name = "blocks" + std::to_string(nodes);
  for (int i = 0; i < nodes; ++i) {
    Node n;
    n.name = "n" + std::to_string(i + 1);
    n.cores = 4;
    c.nodes.push_back(n);
  }
  return c;
}

// Whole-node jobs of 512 nodes times a power of two (half of them one or two blocks), or of
// the whole machine; run times log-uniform from a minute to a day, limits 1-3x.
inline Job make_block_job(Rng& rng, std::int64_t id, std::int32_t machine_nodes) {
  Job j;
  j.id = id;
  j.user = "u" + std::to_string(rng.uniform_int(1, 200));
  std::int32_t nodes = std::min(512, machine_nodes);
  if (rng.uniform01() < 0.95)
    while (nodes * 2 <= machine_nodes && rng.uniform01() < 0.5) nodes *= 2;
  else
    nodes = machine_nodes;
  j.req.nodes_min = j.req.nodes_max = nodes;
  j.req.ntasks = 4 * nodes;
  j.run_time = log_uniform(rng, 60, 86400);
  j.req.time_limit = ((static_cast<Time>(j.run_time * (1 + 2 * rng.uniform01())) + 59) / 60) * 60;
  return j;
}

inline void scale_run_times(Workload& w, double factor) {
  for (Job& j : w.jobs) {
    j.run_time = std::max<Time>(1, static_cast<Time>(std::llround(static_cast<double>(j.run_time) * factor)));
    const auto limit = static_cast<Time>(std::ceil(static_cast<double>(j.req.time_limit) * factor / 60.0)) * 60;
    j.req.time_limit = std::max(limit, ((j.run_time + 59) / 60) * 60);
  }
}

inline Workload make_large_workload(std::int64_t jobs, const Cluster& cluster, const TraceShape& shape) {
  Rng rng(2026);
  Workload w;
  w.name = "large-trace";
  w.jobs.reserve(static_cast<std::size_t>(jobs));
  double work = 0;
  for (std::int64_t i = 1; i <= jobs; ++i) {
    w.jobs.push_back(shape.blocks ? make_block_job(rng, i, cluster.node_count())
                                  : make_large_job(rng, i, shape.max_job_nodes));
    work += static_cast<double>(w.jobs.back().req.ntasks) * static_cast<double>(w.jobs.back().run_time);
  }
  const double cores = static_cast<double>(cluster.total_cores());
  double gap = work / static_cast<double>(jobs) / (shape.load * cores);
  if (shape.span_s > 0) {
    scale_run_times(w, shape.load * cores * shape.span_s / work);
    gap = shape.span_s / static_cast<double>(jobs);
  }
  double t = 0;
  for (Job& j : w.jobs) {
    j.submit = static_cast<Time>(t);
    t += rng.exponential(gap);
  }
  return w;
}

}  // namespace hs::bench
