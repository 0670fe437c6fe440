#include "policy/window/window_priority.hpp"

#include <algorithm>
#include <cmath>

#include "util/error.hpp"

namespace hs::window {

PriorityKind parse_priority_kind(const std::string& text) {
  if (text == "basic") return PriorityKind::Basic;
  if (text == "multifactor") return PriorityKind::Multifactor;
  throw InputError({"<options>", 0}, "priority", text, "expected basic|multifactor");
}

namespace {
constexpr std::int64_t kMaxAgeMinutes = 7 * 24 * 60;
// Like Slurm's priority/basic, a large starting value so neighbouring jobs' priorities are
// nearly equal in ratio (the documents' objectives weigh by priority).
constexpr std::int64_t kBasicTop = 1'000'000'000;
}

std::int64_t job_priority(PriorityKind kind, const Cluster& cluster, const Workload& workload,
                          JobRef ref, Time now) {
  const Job& job = workload.jobs[ref];
  if (kind == PriorityKind::Basic) return std::max<std::int64_t>(1, kBasicTop - ref);
  const std::int64_t waited_min = std::max<Time>(0, now - job.submit) / 60;
  const double size = static_cast<double>(job.req.ntasks) /
                      static_cast<double>(std::max<std::int64_t>(1, cluster.total_cores()));
  return 1 + std::min(waited_min, kMaxAgeMinutes) +
         static_cast<std::int64_t>(std::llround(kMaxAgeMinutes * std::min(1.0, size)));
}

}  // namespace hs::window
