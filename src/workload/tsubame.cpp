#include "workload/tsubame.hpp"

#include <algorithm>
#include <cmath>

#include "util/error.hpp"

namespace hs {

namespace {

using workload_detail::ClusterShape;

KindSpec kind_from(char letter, bool prime) {
  switch (letter) {
    case 'A':
      return {"A", false, 0, 0};
    case 'B':
      return {"B", true, 0, 0};
    case 'C':
      return prime ? KindSpec{"C'", true, 1, 3} : KindSpec{"C", true, 1, 1};
    case 'D':
      return prime ? KindSpec{"D'", true, 2, 3} : KindSpec{"D", true, 2, 2};
    default:
      return {"E", true, 3, 3};
  }
}

// Table 8.6: (jobs, kinds, contiguity ratio) of TSUBAME workloads 1-9.
struct Table86Row {
  std::int32_t jobs;
  const char* kinds;
  double contig;
};
constexpr Table86Row kTable86[] = {{3491, "A", 0.0}, {2095, "B", 0.0}, {3491, "ABCDE", 0.0},
                                   {3491, "A", 0.5}, {2095, "B", 0.5}, {3491, "ABCDE", 0.5},
                                   {3491, "A", 1.0}, {2095, "B", 1.0}, {3491, "ABCDE", 1.0}};

// Every non-empty kind set written in canonical order (A B C|C' D|D' E): Params only reads
// strings from a fixed list, which also makes the check complete.
std::vector<std::string> all_kind_sets() {
  std::vector<std::string> sets;
  for (const char* a : {"", "A"})
    for (const char* b : {"", "B"})
      for (const char* c : {"", "C", "C'"})
        for (const char* d : {"", "D", "D'"})
          for (const char* e : {"", "E"}) {
            const std::string set = std::string(a) + b + c + d + e;
            if (!set.empty()) sets.push_back(set);
          }
  return sets;
}

void read_shared(Params& p, KindsOptions& o, const std::string& origin) {
  o.kinds_text = p.get_choice("kinds", o.kinds_text, all_kind_sets(),
                              "job kinds in equal shares, e.g. ABCDE or ABC'D'E");
  o.kinds = parse_kinds(o.kinds_text, origin);
  o.jobs = static_cast<std::int32_t>(p.get_int("jobs", o.jobs, 1, 10000000, "number of jobs"));
  o.hours = p.get_double("hours", 0, 0, 1e6,
                         "target theoretical runtime in hours; 0 = jobs x 5 / 3491 (Table 8.6)");
  o.contig = p.get_double("contig", o.contig, 0, 1, "share of jobs asking --contiguous");
  o.runtime_min = p.get_int("runtime_min", 60, 1, 100000000, "shortest run time (s)");
  o.runtime_max = p.get_int("runtime_max", 600, 1, 100000000, "longest run time (s)");
  if (o.runtime_max < o.runtime_min)
    throw InputError({origin, 0}, "runtime_max", std::to_string(o.runtime_max),
                     "must be at least runtime_min=" + std::to_string(o.runtime_min));
  o.arrival_mean = p.get_double("arrival_mean", 0, 0, 1e7,
                                "mean exponential inter-arrival time (s); 0 = all at t=0");
  o.cores_per_gpu_max = static_cast<std::int32_t>(p.get_int(
      "cores_per_gpu_max", 2, 1, 64, "GPU kinds take U{1..this} cores per GPU on each node"));
  o.common = workload_detail::read_common_options(p);
}

// Largest size step count so that the expected theoretical runtime matches the target:
// cores are cpn x U[1, kmax], so E[cores] = cpn (kmax + 1) / 2.
std::int64_t max_size_steps(const KindsOptions& o, const ClusterShape& shape) {
  const double hours = o.hours > 0 ? o.hours : o.jobs * 5.0 / 3491.0;
  const double mean_time = 0.5 * static_cast<double>(o.runtime_min + o.runtime_max);
  const double mean_cores =
      hours * 3600.0 * static_cast<double>(shape.total_cores) / (o.jobs * mean_time);
  const auto kmax = std::llround(2.0 * mean_cores / shape.cores_per_node - 1.0);
  return std::clamp<std::int64_t>(kmax, 1, shape.nodes);
}

// Fills -n, -N and gres of one job of `kind` aiming at `target` cores.
void shape_request(Job& job, const KindSpec& kind, std::int64_t target, std::int32_t cores_per_gpu_max,
                   const Cluster& cluster, const ClusterShape& shape, Rng& rng) {
  JobRequest& r = job.req;
  if (!kind.nodes_given) {
    r.ntasks = static_cast<std::int32_t>(target);
    return;
  }
  // Cores per node: half or all of a node (B), or 1..cores_per_gpu_max cores per GPU.
  std::int32_t per_node;
  if (kind.gpus_min == 0) {
    per_node = rng.bernoulli(0.5) ? std::max(1, shape.cores_per_node / 2) : shape.cores_per_node;
  } else {
    per_node = static_cast<std::int32_t>(rng.uniform_int(1, cores_per_gpu_max)) * kind.gpus_min;
    if (per_node > shape.cores_per_node) per_node = kind.gpus_min;
  }
  const std::int32_t usable = shape.nodes_with_gpus[kind.gpus_min];
  const auto nodes =
      std::clamp<std::int64_t>(std::llround(static_cast<double>(target) / per_node), 1, usable);
  r.nodes_min = r.nodes_max = static_cast<std::int32_t>(nodes);  // exactly -N y
  r.ntasks = static_cast<std::int32_t>(nodes * per_node);
  if (kind.gpus_min > 0)
    r.gres.push_back(workload_detail::gres_request(cluster, "gpu", kind.gpus_min, kind.gpus_max));
}

// Eq. 7.1: the run time at the minimum GPU count carries a N(1, 0.5) factor, clamped to
// [0.1, 1.9] so it stays positive and keeps mean 1; the time limit covers it.
void make_moldable(Job& job, Time nominal, double limit_factor, Rng& rng) {
  const double factor = std::clamp(rng.normal(1.0, 0.5), 0.1, 1.9);
  job.moldable_runtime = true;
  job.run_time = std::max<Time>(1, std::llround(static_cast<double>(nominal) * factor));
  job.req.time_limit =
      workload_detail::time_limit_for(std::max(nominal, job.run_time), limit_factor);
}

std::vector<std::size_t> kind_per_job(const KindsOptions& o, Rng& rng) {
  std::vector<std::size_t> kinds(static_cast<std::size_t>(o.jobs));
  for (std::size_t i = 0; i < kinds.size(); ++i) kinds[i] = i % o.kinds.size();
  workload_detail::shuffle(kinds, rng);
  return kinds;
}

std::vector<char> contiguous_flags(const KindsOptions& o, Rng& rng) {
  std::vector<char> flags(static_cast<std::size_t>(o.jobs), 0);
  const auto count = static_cast<std::size_t>(std::llround(o.contig * o.jobs));
  std::fill(flags.begin(), flags.begin() + static_cast<std::ptrdiff_t>(count), 1);
  workload_detail::shuffle(flags, rng);
  return flags;
}

}  // namespace

std::vector<KindSpec> parse_kinds(const std::string& text, const std::string& origin) {
  std::vector<KindSpec> kinds;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const bool prime = i + 1 < text.size() && text[i + 1] == '\'';
    if (c < 'A' || c > 'E' || (prime && c != 'C' && c != 'D'))
      throw InputError({origin, 0}, "kinds", text,
                       "expected letters A-E, C and D optionally primed (C', D')");
    kinds.push_back(kind_from(c, prime));
    if (prime) ++i;
  }
  if (kinds.empty()) throw InputError({origin, 0}, "kinds", text, "no job kind given");
  return kinds;
}

KindsOptions read_tsubame_options(Params& p) {
  KindsOptions o;
  o.kinds_text = "ABCDE";
  const auto wl = p.get_int("wl", 0, 0, 9, "Table 8.6 workload 1-9 (0 = use the options)");
  if (wl > 0) {
    const Table86Row& row = kTable86[wl - 1];
    o.jobs = row.jobs;
    o.kinds_text = row.kinds;
    o.contig = row.contig;
  }
  const auto wl84 = p.get_int(
      "wl84", 0, 0, 12, "Table 8.4 workload 1-12 (0 = none): A or A-E, 5 or 10 h, contiguity");
  const bool ranges = p.get_bool("ranges", false, "with wl84 7-12: C', D' instead of C, D");
  if (wl84 > 0 && wl > 0)
    throw InputError({"workload tsubame", 0}, "wl84", std::to_string(wl84),
                     "give either wl (Table 8.6) or wl84 (Table 8.4)");
  if (wl84 > 0) {  // 1-3, 7-9: 5 h; 4-6, 10-12: 10 h; contiguity 0, 0.5, 1 in turn
    const auto row = wl84 - 1;
    o.kinds_text = row < 6 ? "A" : ranges ? "ABC'D'E" : "ABCDE";
    o.jobs = (row % 6) < 3 ? 3491 : 6982;
    o.contig = 0.5 * static_cast<double>(row % 3);
  }
  read_shared(p, o, "workload tsubame");
  return o;
}

KindsOptions read_tree1024_options(Params& p) {
  KindsOptions o;
  const std::string wl =
      p.get_choice("wl", "5", {"1", "2", "3", "4", "5", "6", "5'", "6'"}, "Table 8.5 workload");
  const int number = wl[0] - '0';
  o.jobs = number % 2 == 1 ? 350 : 2095;
  o.kinds_text = number <= 2 ? "A" : number <= 4 ? "B" : wl.size() == 2 ? "ABC'D'E" : "ABCDE";
  read_shared(p, o, "workload tree1024");
  return o;
}

Workload generate_kinds_workload(const KindsOptions& o, const Cluster& cluster,
                                 std::uint64_t seed) {
  const ClusterShape shape = workload_detail::shape_of(cluster);
  for (const auto& k : o.kinds)
    workload_detail::require_gpus(shape, k.gpus_max, "kinds " + o.kinds_text, "kind " + k.name);
  Rng rng(seed);
  const std::int64_t kmax = max_size_steps(o, shape);
  const auto kinds = kind_per_job(o, rng);
  const auto contiguous = contiguous_flags(o, rng);
  Workload w;
  double t = 0;
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    const KindSpec& kind = o.kinds[kinds[i]];
    Job job;
    job.name = kind.name;
    job.user =
        workload_detail::user_name(static_cast<std::int32_t>(rng.uniform_int(1, o.common.users)));
    const Time nominal = rng.uniform_int(o.runtime_min, o.runtime_max);
    job.run_time = nominal;
    job.req.time_limit = workload_detail::time_limit_for(nominal, o.common.limit_factor);
    shape_request(job, kind, shape.cores_per_node * rng.uniform_int(1, kmax), o.cores_per_gpu_max,
                  cluster, shape, rng);
    job.req.contiguous = contiguous[i] != 0;
    if (kind.gpus_max > kind.gpus_min) make_moldable(job, nominal, o.common.limit_factor, rng);
    if (o.arrival_mean > 0 && i > 0) t += rng.exponential(o.arrival_mean);
    job.submit = static_cast<Time>(std::llround(t));
    w.jobs.push_back(std::move(job));
  }
  workload_detail::finalize_workload(w);
  return w;
}

}  // namespace hs
