#include "cli/plan_dump.hpp"

#include <fstream>
#include <memory>

#include "io/hostlist.hpp"
#include "util/error.hpp"

namespace hs::cli {

slurm::PlanObserver make_plan_dumper(const std::string& path, const Cluster& cluster,
                                     const Workload& workload) {
  auto out = std::make_shared<std::ofstream>(path);
  if (!*out)
    throw InputError({"<command line>", 0}, "--dump-plans", path, "cannot be written");
  *out << "time,job,planned_start,nodes\n";
  return [out, &cluster, &workload](Time now, std::span<const slurm::PlannedStart> plan) {
    std::vector<std::string> names;
    for (const slurm::PlannedStart& p : plan) {
      names.clear();
      for (NodeIndex n : p.nodes) names.push_back(cluster.nodes[n].name);
      *out << now << ',' << workload.jobs[p.job].id << ',' << p.start << ",\""
           << compress_hostlist(names) << "\"\n";
    }
    out->flush();
  };
}

}  // namespace hs::cli
