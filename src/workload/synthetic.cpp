#include "workload/synthetic.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

#include "util/error.hpp"

namespace hs {

namespace {

using workload_detail::ClusterShape;

enum Kind { kCores, kNodes, kGpu1, kGpu2 };

// Table 7.2: shares of (cores only, node request, 1 GPU/node, 2 GPUs/node).
std::array<double, 4> mix_shares(const std::string& mix) {
  if (mix == "I") return {1, 0, 0, 0};
  if (mix == "II") return {0, 1, 0, 0};
  if (mix == "III") return {0.5, 0.5, 0, 0};
  if (mix == "IV") return {0.4, 0.4, 0.2, 0};
  return {1.0 / 3, 1.0 / 3, 1.0 / 6, 1.0 / 6};  // V: 33.3/33.3/16.6/16.6
}

Kind draw_kind(const std::array<double, 4>& shares, Rng& rng) {
  double u = rng.uniform01();
  for (int k = 0; k < 3; ++k) {
    if (u < shares[k]) return static_cast<Kind>(k);
    u -= shares[k];
  }
  return shares[3] > 0 ? kGpu2 : kGpu1;
}

// -N y with `per_node` cores on each node, at most `usable` nodes; returns the cores.
std::int32_t set_nodes(JobRequest& r, std::int64_t cores, std::int32_t per_node,
                       std::int32_t usable) {
  const auto nodes = std::clamp<std::int64_t>(cores / per_node, 1, usable);
  r.nodes_min = r.nodes_max = static_cast<std::int32_t>(nodes);  // exactly -N y
  r.ntasks = static_cast<std::int32_t>(nodes * per_node);
  return r.ntasks;
}

void shape_job(Job& job, Kind kind, std::int64_t cores, const Cluster& cluster,
               const ClusterShape& shape, Rng& rng) {
  JobRequest& r = job.req;
  switch (kind) {
    case kCores:
      job.name = "core";
      r.ntasks = static_cast<std::int32_t>(cores);
      return;
    case kNodes: {  // 4 or 8 cores per node (the node's size if smaller)
      std::int32_t per_node = rng.bernoulli(0.5) ? 4 : 8;
      if (per_node > shape.cores_per_node) per_node = shape.cores_per_node;
      set_nodes(r, cores, per_node, shape.nodes);
      r.ntasks_per_node = per_node;
      job.name = "node" + std::to_string(per_node);
      return;
    }
    default: {  // 1 or 2 cores per GPU, g GPUs per node: -N R / (x g)
      const std::int32_t g = kind == kGpu1 ? 1 : 2;
      std::int32_t per_node = static_cast<std::int32_t>(rng.uniform_int(1, 2)) * g;
      if (per_node > shape.cores_per_node) per_node = g;
      set_nodes(r, cores, per_node, shape.nodes_with_gpus[g]);
      r.gres.push_back(workload_detail::gres_request(cluster, "gpu", g, g));
      job.name = "gpu" + std::to_string(g);
    }
  }
}

bool draw_contiguous(std::int32_t percent, Rng& rng) {
  if (percent == 0) return false;
  if (percent == 100) return true;
  return rng.bernoulli(0.5);  // the documents: "roughly half"
}

}  // namespace

SyntheticOptions read_synthetic_options(Params& p) {
  SyntheticOptions o;
  o.mix = p.get_choice("mix", "I", {"I", "II", "III", "IV", "V"}, "job mix of Table 7.2");
  o.contig = static_cast<std::int32_t>(
      std::stoi(p.get_choice("contig", "0", {"0", "50", "100"}, "percent of jobs --contiguous")));
  o.hours = p.get_double("hours", 4.0, 0.001, 1e5, "theoretical runtime to reach (h)");
  o.runtime_min = p.get_int("runtime_min", 60, 1, 100000000, "shortest run time (s)");
  o.runtime_max = p.get_int("runtime_max", 600, 1, 100000000, "longest run time (s)");
  if (o.runtime_max < o.runtime_min)
    throw InputError({"workload synthetic", 0}, "runtime_max", std::to_string(o.runtime_max),
                     "must be at least runtime_min=" + std::to_string(o.runtime_min));
  o.max_fraction =
      p.get_double("max_fraction", 0.125, 1e-6, 1.0, "largest job as a fraction of all cores");
  o.arrival_mean = p.get_double("arrival_mean", 0, 0, 1e7,
                                "mean exponential inter-arrival time (s); 0 = all at t=0");
  o.common = workload_detail::read_common_options(p);
  return o;
}

Workload generate_synthetic(const SyntheticOptions& o, const Cluster& cluster, std::uint64_t seed) {
  const ClusterShape shape = workload_detail::shape_of(cluster);
  const auto shares = mix_shares(o.mix);
  if (shares[2] > 0) workload_detail::require_gpus(shape, 1, "synthetic mix " + o.mix, "mix");
  if (shares[3] > 0) workload_detail::require_gpus(shape, 2, "synthetic mix " + o.mix, "mix");
  // Cores are a multiple of the node size, and of 8 so that R/4 and R/8 are whole nodes.
  const std::int64_t step = std::lcm<std::int64_t>(shape.cores_per_node, 8);
  const std::int64_t max_steps = std::max<std::int64_t>(
      1, static_cast<std::int64_t>(o.max_fraction * shape.total_cores) / step);
  const double target_area = o.hours * 3600.0 * static_cast<double>(shape.total_cores);
  Rng rng(seed);
  Workload w;
  double area = 0, t = 0;
  while (area < target_area) {
    Job job;
    job.run_time = rng.uniform_int(o.runtime_min, o.runtime_max);
    job.req.time_limit = workload_detail::time_limit_for(job.run_time, o.common.limit_factor);
    const Kind kind = draw_kind(shares, rng);
    shape_job(job, kind, step * rng.uniform_int(1, max_steps), cluster, shape, rng);
    job.req.contiguous = draw_contiguous(o.contig, rng);
    job.user =
        workload_detail::user_name(static_cast<std::int32_t>(rng.uniform_int(1, o.common.users)));
    if (o.arrival_mean > 0 && !w.jobs.empty()) t += rng.exponential(o.arrival_mean);
    job.submit = static_cast<Time>(std::llround(t));
    area += static_cast<double>(job.run_time) * job.req.ntasks;
    w.jobs.push_back(std::move(job));
  }
  workload_detail::finalize_workload(w);
  return w;
}

}  // namespace hs
