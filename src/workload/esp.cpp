#include "workload/esp.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace hs {

namespace {

using workload_detail::ClusterShape;

struct EspKind {
  const char* name;
  double size;  // fraction of all cores
  int count;
  Time run_time;  // seconds
};

// Thesis Table 7.1 / 002 Fig. 3(a).
constexpr EspKind kEspKinds[] = {
    {"A", 0.03125, 75, 257}, {"B", 0.06250, 9, 341},  {"C", 0.50000, 3, 536},
    {"D", 0.25000, 3, 601},  {"E", 0.50000, 3, 312},  {"F", 0.06250, 9, 1846},
    {"G", 0.12500, 6, 1321}, {"H", 0.15820, 6, 1078}, {"I", 0.03125, 24, 1438},
    {"J", 0.06250, 24, 715}, {"K", 0.09570, 15, 495}, {"L", 0.12500, 36, 369},
    {"M", 0.25000, 15, 192}, {"Z", 1.00000, 2, 100}};

std::int32_t cores_for(double fraction, std::int64_t total_cores) {
  const auto cores = static_cast<std::int64_t>(std::llround(fraction * total_cores));
  return static_cast<std::int32_t>(std::clamp<std::int64_t>(cores, 1, total_cores));
}

Job make_job(const EspKind& kind, std::int32_t cores, const EspOptions& o) {
  Job job;
  job.name = kind.name;
  job.run_time = kind.run_time;
  job.req.ntasks = cores;
  job.req.time_limit = workload_detail::time_limit_for(kind.run_time, o.common.limit_factor);
  return job;
}

// The non-Z jobs: one CPU-only job per count, plus (heterogeneous variant) a copy asking
// `gpus` per node with the same -n and no -N, as the documents' ESP jobs give no node count.
std::vector<Job> ordinary_jobs(const EspOptions& o, const Cluster& cluster,
                               const ClusterShape& shape, Rng& rng) {
  std::vector<Job> jobs;
  const bool het = o.variant == EspVariant::Heterogeneous;
  for (const auto& kind : kEspKinds) {
    if (std::string(kind.name) == "Z") continue;
    for (int i = 0; i < kind.count; ++i) {
      for (int copy = 0; copy < (het ? 2 : 1); ++copy) {
        std::int32_t cores = cores_for(kind.size, shape.total_cores);
        if (o.size_jitter > 0) {
          cores += static_cast<std::int32_t>(rng.uniform_int(-o.size_jitter, o.size_jitter));
          cores = std::clamp<std::int32_t>(cores, 1, static_cast<std::int32_t>(shape.total_cores));
        }
        Job job = make_job(kind, cores, o);
        if (copy == 1) {
          job.name += "_gpu";
          job.req.gres.push_back(workload_detail::gres_request(cluster, "gpu", o.gpus, o.gpus));
        }
        jobs.push_back(std::move(job));
      }
    }
  }
  return jobs;
}

// The first `initial` jobs at t = 0, then Gaussian gaps (negative draws become 0).
void assign_arrivals(std::vector<Job>& jobs, const EspOptions& o, Rng& rng) {
  double t = 0;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    if (i >= static_cast<std::size_t>(o.initial))
      t += std::max(0.0, rng.normal(o.arrival_mean, o.arrival_sd));
    jobs[i].submit = static_cast<Time>(std::llround(t));
  }
}

}  // namespace

EspOptions read_esp_options(Params& params, EspVariant variant, std::int32_t default_jitter) {
  EspOptions o;
  o.variant = variant;
  const bool het = variant == EspVariant::Heterogeneous;
  o.initial =
      static_cast<std::int32_t>(params.get_int("initial", 50, 0, 1000000, "jobs released at t=0"));
  o.arrival_mean = params.get_double("arrival_mean", 30, 0, 1e6,
                                     "mean Gaussian inter-arrival time of the rest (s)");
  o.arrival_sd = params.get_double("arrival_sd", 10, 0, 1e6,
                                   "standard deviation of the inter-arrival time (s)");
  o.z_first = params.get_int("z_first", het ? 4800 : 2400, 0, 100000000,
                             "submit time of the first full-machine Z job (s)");
  o.z_second = params.get_int("z_second", het ? 14400 : 7200, 0, 100000000,
                              "submit time of the second Z job (s)");
  o.size_jitter = static_cast<std::int32_t>(
      params.get_int("size_jitter", default_jitter, 0, 1000000,
                     "each non-Z size += uniform integer in [-j, j] cores"));
  if (het)
    o.gpus = static_cast<std::int32_t>(
        params.get_int("gpus", 2, 1, 64, "GPUs per node asked by the GPU copies"));
  o.common = workload_detail::read_common_options(params);
  return o;
}

Workload generate_esp(const EspOptions& o, const Cluster& cluster, std::uint64_t seed) {
  const ClusterShape shape = workload_detail::shape_of(cluster);
  if (o.variant == EspVariant::Heterogeneous)
    workload_detail::require_gpus(shape, o.gpus, "esp-het", "gpus");
  Rng rng(seed);
  std::vector<Job> jobs = ordinary_jobs(o, cluster, shape, rng);
  workload_detail::shuffle(jobs, rng);
  assign_arrivals(jobs, o, rng);
  const EspKind& z = kEspKinds[std::size(kEspKinds) - 1];
  for (Time at : {o.z_first, o.z_second}) {
    Job job = make_job(z, static_cast<std::int32_t>(shape.total_cores), o);
    job.submit = at;
    jobs.push_back(std::move(job));
  }
  for (auto& job : jobs)
    job.user =
        workload_detail::user_name(static_cast<std::int32_t>(rng.uniform_int(1, o.common.users)));
  Workload w;
  w.jobs = std::move(jobs);
  workload_detail::finalize_workload(w);
  return w;
}

}  // namespace hs
