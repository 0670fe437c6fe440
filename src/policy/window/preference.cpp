#include "policy/window/preference.hpp"

namespace hs::window {

PreferenceConstants preference_constants(PreferenceTable table, JobType type, BidClass cls) {
  const bool cores_only = type == JobType::CoresOnly;
  const bool v2 = table == PreferenceTable::Aucsched2;
  const double k4 = v2 ? 0.1 : 0.0;
  switch (cls) {
    case BidClass::A:
      return cores_only ? PreferenceConstants{0, .25, 0, k4} : PreferenceConstants{0, 0, 0, k4};
    case BidClass::B:
      return cores_only ? PreferenceConstants{.25, .25, 0, k4}
                        : PreferenceConstants{.5, 0, 0, k4};
    case BidClass::C:
      if (cores_only) return PreferenceConstants{v2 ? .4 : .5, .25, .25, k4};
      return PreferenceConstants{v2 ? .4 : .5, 0, v2 ? .1 : .5, k4};
    case BidClass::Slurm:
    case BidClass::Column:
      break;
  }
  return PreferenceConstants{};
}

double preference(PreferenceTable table, const WindowJob& job, const Candidate& bid,
                  std::int32_t node_count, std::int32_t nodeset_count) {
  const PreferenceConstants k = preference_constants(table, job.type, bid.cls);
  const double nodes = static_cast<double>(bid.nodes.size());
  double f = 1.0 - k.k1 - k.k2 * nodes / (node_count + 1.0) -
             k.k3 * bid.nodesets / (nodeset_count + 1.0);
  if (k.k4 > 0) f += k.k4 * (bid.gres_per_node + 1.0) / (job.gres_max + 1.0);
  return f;
}

}  // namespace hs::window
