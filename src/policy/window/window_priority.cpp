#include "policy/window/window_priority.hpp"

#include "policy/slurm/priority.hpp"
#include "util/error.hpp"

namespace hs::window {

PriorityKind parse_priority_kind(const std::string& text) {
  if (text == "basic") return PriorityKind::Basic;
  if (text == "multifactor") return PriorityKind::Multifactor;
  throw InputError({"<options>", 0}, "priority", text, "expected basic|multifactor");
}

std::int64_t job_priority(PriorityKind kind, const Cluster& cluster, const Workload& workload,
                          JobRef ref, Time now) {
  if (kind == PriorityKind::Basic) return slurm::basic_priority(ref);
  return slurm::multifactor_priority(cluster, workload.jobs[ref], now, slurm::MultifactorConfig{});
}

}  // namespace hs::window
