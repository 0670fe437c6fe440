#include "workload/gpu_rule.hpp"

#include <sstream>

#include "util/error.hpp"
#include "util/params.hpp"
#include "util/rng.hpp"

namespace hs {

GpuRule parse_gpu_rule(const std::string& text) {
  Params p = Params::parse(text, "GPU rule '" + text + "'");
  GpuRule rule;
  rule.fraction = p.get_double("fraction", 0.5, 0.0, 1.0, "share of jobs given a GPU request");
  rule.gpus = static_cast<std::int32_t>(p.get_int("gpus", 1, 1, 64, "GPUs per node"));
  rule.gpus_max = static_cast<std::int32_t>(
      p.get_int("gpus_max", 0, 0, 64, "upper end of a GPU range per node (0 = exact)"));
  rule.gres = p.get_choice("gres", "gpu", {"gpu", "mic"}, "gres name of the request");
  p.reject_unused("GPU rule");
  if (rule.gpus_max != 0 && rule.gpus_max < rule.gpus)
    throw InputError({"GPU rule '" + text + "'", 0}, "gpus_max", std::to_string(rule.gpus_max),
                     "must be 0 or at least gpus=" + std::to_string(rule.gpus));
  return rule;
}

std::string describe(const GpuRule& rule) {
  std::ostringstream os;
  os << "fraction=" << rule.fraction << ",gpus=" << rule.gpus << ",gpus_max=" << rule.gpus_max
     << ",gres=" << rule.gres;
  return os.str();
}

void add_gpu_requests(Workload& workload, const GpuRule& rule, std::uint64_t seed) {
  Rng rng(seed ^ 0x6770755f72756c65ULL);  // decorrelated from generators using the same seed
  const std::int32_t max = rule.gpus_max > rule.gpus ? rule.gpus_max : rule.gpus;
  for (auto& job : workload.jobs) {
    const bool chosen = rng.bernoulli(rule.fraction);
    bool has = false;
    for (const auto& g : job.req.gres) has |= g.name == rule.gres;
    if (!chosen || has) continue;
    job.req.gres.push_back({rule.gres, -1, rule.gpus, max});
    if (max > rule.gpus) job.moldable_runtime = true;
  }
}

}  // namespace hs
