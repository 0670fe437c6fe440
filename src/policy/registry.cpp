#include "policy/registry.hpp"

#include <algorithm>

#include "policy/heuristic/heuristic_schedulers.hpp"
#include "policy/slurm/slurm_scheduler.hpp"
#include "policy/window/window_schedulers.hpp"
#include "util/error.hpp"
#ifdef HETSCHED_WITH_PYTHON
#include "policy/python/python_scheduler.hpp"
#endif

namespace hs {

namespace {

const InputLocation kSpec{"<scheduler spec>", 0};

// Splits "a+b+c" into its parts.
std::vector<std::string> split_plus(const std::string& name) {
  std::vector<std::string> parts;
  std::string::size_type start = 0;
  while (true) {
    const auto plus = name.find('+', start);
    parts.push_back(name.substr(start, plus - start));
    if (plus == std::string::npos) return parts;
    start = plus + 1;
  }
}

bool is_window(const std::string& n) {
  return n == "ipsched" || n == "aucsched1" || n == "aucsched2" || n == "aucsched3";
}

bool is_slurm_model(const std::string& n) {
  return n == "backfill" || n == "slurm" || n == "backfill-easy";
}

bool is_python_spec(const std::string& spec) { return spec.rfind("py:", 0) == 0; }

// "py:FILE:CLASS" -> {FILE, CLASS}.
std::pair<std::string, std::string> python_file_and_class(const std::string& name) {
  const auto colon = name.find(':', 3);
  if (colon == std::string::npos || colon == 3 || colon + 1 == name.size())
    throw InputError(kSpec, "scheduler", name, "expected py:path/to/file.py:ClassName[:key=value,...]");
  return {name.substr(3, colon - 3), name.substr(colon + 1)};
}

std::unique_ptr<Scheduler> build_python(const std::string& name, Params& params) {
  const auto [file, class_name] = python_file_and_class(name);
#ifdef HETSCHED_WITH_PYTHON
  return python::make_python_scheduler(file, class_name, params);
#else
  (void)params;
  throw InputError(kSpec, "scheduler", name,
                   "this build has no Python support (install python3-dev and pybind11-dev with "
                   "scripts/install-deps.sh, then rebuild)");
#endif
}

std::unique_ptr<Scheduler> build(const std::string& name, Params& params) {
  if (is_python_spec(name)) return build_python(name, params);
  if (name == "backfill" || name == "slurm") return slurm::make_slurm_scheduler(params);
  if (name == "backfill-easy") {
    if (!params.has("mode")) params.set("mode", "easy");
    return slurm::make_slurm_scheduler(params);
  }
  if (is_window(name)) return make_window_scheduler(name, params);
  const auto parts = split_plus(name);
  if (parts.size() == 2 || parts.size() == 3)
    return make_heuristic_scheduler(parts[0], parts[1], parts.size() == 3 ? parts[2] : "walltime",
                                    params);
  throw InputError(kSpec, "scheduler", name, "unknown scheduler (see 'hetsched list schedulers')");
}

// The colon before a spec's options: after "name", or after "py:FILE:CLASS".
std::string::size_type options_colon(const std::string& spec) {
  auto colon = spec.find(':');
  if (is_python_spec(spec))
    for (int i = 0; i < 2 && colon != std::string::npos; ++i) colon = spec.find(':', colon + 1);
  return colon;
}

std::string scheduler_name(const std::string& spec) { return spec.substr(0, options_colon(spec)); }

// The spec's own options, then the extra ones (later values win).
Params merged_params(const std::string& spec, const std::vector<std::string>& extra_options) {
  const auto colon = options_colon(spec);
  Params params = Params::parse(colon == std::string::npos ? "" : spec.substr(colon + 1),
                                "<scheduler " + scheduler_name(spec) + ">");
  for (const auto& opt : extra_options) {
    const Params extra = Params::parse(opt, "<--opt>");
    for (const auto& [k, v] : extra.values()) params.set(k, v);
  }
  return params;
}

}  // namespace

std::vector<SchedulerInfo> scheduler_list() {
  return {
      {"backfill", "Slurm 22.05 model: priority pass + backfill (mode=conservative, Slurm's default)"},
      {"backfill-easy", "the same with mode=easy (only the top job of a partition reserves)"},
      {"ipsched", "IPSCHED: one integer program per window co-allocates cores and GPUs (thesis ch. 3)"},
      {"aucsched1", "AUCSCHED1: auction over contiguous nodesets on the 1-D node array (ch. 4)"},
      {"aucsched2", "AUCSCHED2: bid-only formulation with GPU ranges (ch. 5)"},
      {"aucsched3", "AUCSCHED3: auction over nodesets per switch of a tree topology (ch. 6)"},
      {"SCHED+ALLOC[+PRED]",
       "Netti et al.: SCHED fifo|sjf|easy|prb|cph, ALLOC ff|bf|balanced|weighted|pweighted, "
       "PRED walltime|datadriven|oracle (e.g. easy+weighted+datadriven)"},
      {"py:FILE.py:CLASS", "a policy written in Python: CLASS(**options).decide(view, events) (docs/python.md)"},
  };
}


std::vector<std::string> options_read_by(const std::string& spec,
                                         const std::vector<std::string>& options) {
  // A Python class accepts any keyword, so it would claim every item: it takes its options
  // from its own spec only.
  if (is_python_spec(spec)) return {};
  Params params = merged_params(spec, options);
  build(scheduler_name(spec), params);
  const std::vector<std::string> unused = params.unused_keys();
  std::vector<std::string> read;
  for (const auto& opt : options) {
    const Params items = Params::parse(opt, "<--opt>");
    for (const auto& [k, v] : items.values())
      if (std::find(unused.begin(), unused.end(), k) == unused.end()) read.push_back(k + "=" + v);
  }
  return read;
}

BuiltScheduler make_scheduler(const std::string& spec, const std::vector<std::string>& extra_options,
                              const std::vector<OptionDefault>& slurm_site_options) {
  const std::string name = scheduler_name(spec);
  Params params = merged_params(spec, extra_options);
  BuiltScheduler built;
  if (is_slurm_model(name))
    for (const OptionDefault& d : slurm_site_options)
      if (params.set_default(d)) built.site_options_used.push_back(d.key + "=" + d.value);
  built.scheduler = build(name, params);
  params.reject_unused(name);
  built.effective_options = params.effective();
  built.option_docs = params.docs();
  return built;
}

}  // namespace hs
