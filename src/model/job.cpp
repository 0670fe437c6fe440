#include "model/job.hpp"

namespace hs {

std::int32_t JobRequest::gres_min(int type) const {
  for (const auto& g : gres)
    if (g.type == type || g.kind_type == type) return g.per_node_min;
  return 0;
}

std::int32_t JobRequest::gres_max(int type) const {
  for (const auto& g : gres)
    if (g.type == type || g.kind_type == type) return g.per_node_max;
  return 0;
}

bool JobRequest::has_gres_range() const {
  for (const auto& g : gres)
    if (g.per_node_max > g.per_node_min) return true;
  return false;
}

}  // namespace hs
