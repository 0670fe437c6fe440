#include "workload/registry.hpp"

#include <functional>

#include "util/error.hpp"
#include "util/params.hpp"
#include "workload/esp.hpp"
#include "workload/eurora.hpp"
#include "workload/synthetic.hpp"
#include "workload/tsubame.hpp"

namespace hs {

namespace {

// Reads a generator's options from `params` (documenting them there) and returns the
// generator bound to them.
using Generator = std::function<Workload(const Cluster&, std::uint64_t)>;
using Reader = std::function<Generator(Params&)>;

struct Entry {
  const char* name;
  const char* description;
  Reader read;
};

Reader esp_reader(EspVariant variant, std::int32_t jitter) {
  return [variant, jitter](Params& p) -> Generator {
    EspOptions o = read_esp_options(p, variant, jitter);
    return [o](const Cluster& c, std::uint64_t seed) { return generate_esp(o, c, seed); };
  };
}

Reader kinds_reader(KindsOptions (*read)(Params&)) {
  return [read](Params& p) -> Generator {
    KindsOptions o = read(p);
    return
        [o](const Cluster& c, std::uint64_t seed) { return generate_kinds_workload(o, c, seed); };
  };
}

Generator synthetic_generator(Params& p) {
  SyntheticOptions o = read_synthetic_options(p);
  return [o](const Cluster& c, std::uint64_t seed) { return generate_synthetic(o, c, seed); };
}

Generator eurora_generator(Params& p) {
  EuroraOptions o = read_eurora_options(p);
  return [o](const Cluster& c, std::uint64_t seed) { return generate_eurora(o, c, seed); };
}

const std::vector<Entry>& entries() {
  static const std::vector<Entry> table = {
      {"esp", "ESP-2: 230 jobs, sizes as fractions of all cores (thesis Table 7.1)",
       esp_reader(EspVariant::Plain, 0)},
      {"esp-het",
       "heterogeneous ESP: 458 jobs, every non-Z job duplicated with 2 GPUs/node (002 §V)",
       esp_reader(EspVariant::Heterogeneous, 0)},
      {"esp-het-random",
       "heterogeneous ESP with sizes +- uniform integer in [-4, 4] (002 Table VI)",
       esp_reader(EspVariant::Heterogeneous, 4)},
      {"tsubame",
       "job kinds A-E, C', D' in equal shares (thesis Table 7.3); Table 8.6 workloads via wl=1..9",
       kinds_reader(read_tsubame_options)},
      {"tree1024", "Table 8.5 workloads 1-6, 5', 6' for the 1024 x (16 cores, 3 GPUs) tree machine",
       kinds_reader(read_tree1024_options)},
      {"synthetic",
       "AUCSCHED synthetic mixes I-V (000 §6.1, Table 7.2): cores-only, node and 1/2-GPU jobs",
       synthetic_generator},
      {"eurora",
       "Eurora-like month (004): CPU/MIC/GPU classes, user job profiles, day-night sessions",
       eurora_generator},
  };
  return table;
}

std::string describe_params(const Params& params) {
  std::string text;
  for (const auto& d : params.docs())
    text += (text.empty() ? "" : "; ") + d.key + "=" + d.default_value + " (" + d.description + ")";
  return text;
}

const Entry& find_entry(const std::string& name, const std::string& spec) {
  std::string known;
  for (const auto& e : entries()) {
    if (name == e.name) return e;
    known += (known.empty() ? "" : ", ") + std::string(e.name);
  }
  throw InputError({"<workload spec>", 0}, "workload", spec,
                   "unknown workload generator '" + name + "' (known: " + known + ")");
}

}  // namespace

std::vector<GeneratorInfo> workload_generators() {
  std::vector<GeneratorInfo> out;
  for (const auto& e : entries()) {
    Params p;
    e.read(p);
    out.push_back({e.name, e.description, describe_params(p)});
  }
  return out;
}

Workload generate_workload(const std::string& spec, const Cluster& cluster, std::uint64_t seed) {
  const auto colon = spec.find(':');
  const std::string name = spec.substr(0, colon);
  const std::string options = colon == std::string::npos ? "" : spec.substr(colon + 1);
  const Entry& entry = find_entry(name, spec);
  Params params = Params::parse(options, "workload spec '" + spec + "'");
  Generator generate = entry.read(params);
  params.reject_unused("workload generator " + name);
  if (cluster.node_count() == 0 || cluster.total_cores() <= 0)
    throw InputError({"<workload spec>", 0}, "cluster", cluster.name,
                     "has no nodes or cores to size the workload '" + name + "' for");
  Workload workload = generate(cluster, seed);
  workload.name = name + (params.effective().empty() ? "" : ":" + params.effective());
  return workload;
}

}  // namespace hs
