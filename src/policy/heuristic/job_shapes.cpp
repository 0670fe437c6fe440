#include "policy/heuristic/job_shapes.hpp"

#include <functional>

namespace hs::heuristic {

std::size_t ShapeTable::KeyHash::operator()(const Key& k) const {
  std::size_t h = std::hash<const void*>{}(k.usable);
  auto mix = [&h](std::int64_t v) {
    h ^= std::hash<std::int64_t>{}(v) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  };
  const JobUnits& u = k.units;
  mix(u.count);
  mix(u.cores);
  mix(u.mem_mb);
  mix(u.node_mem_mb);
  mix(u.max_per_node);
  mix(u.total_cores);
  mix(u.contiguous);
  for (int t = 0; t < kMaxGresTypes; ++t) {
    mix(u.gres[t]);
    mix(u.node_gres[t]);
  }
  return h;
}

ShapeId ShapeTable::intern(const JobUnits& u, const std::vector<char>* usable) {
  const auto [it, added] = ids_.try_emplace(Key{u, usable}, static_cast<ShapeId>(ids_.size()));
  (void)added;
  return it->second;
}

}  // namespace hs::heuristic
