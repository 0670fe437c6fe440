#include "sim/schedule_digest.hpp"

namespace hs {
namespace {

class Fnv1a {
 public:
  void add(std::int64_t v) {
    for (int b = 0; b < 8; ++b) {
      h_ ^= static_cast<std::uint64_t>(v >> (8 * b)) & 0xff;
      h_ *= 0x100000001b3ULL;
    }
  }
  std::uint64_t value() const { return h_; }

 private:
  std::uint64_t h_ = 0xcbf29ce484222325ULL;
};

// The first four counts always (the digest's layout before kMaxGresTypes grew from 4 to 8,
// so earlier digests stay comparable), the others only when non-zero, with their index.
void add_gres(Fnv1a& d, const GresCounts& gres) {
  for (int t = 0; t < kMaxGresTypes; ++t) {
    if (t >= 4 && gres[t] == 0) continue;
    if (t >= 4) d.add(static_cast<std::int64_t>(t));
    d.add(gres[t]);
  }
}

}  // namespace

std::uint64_t schedule_digest(const SimResult& result) {
  Fnv1a d;
  for (const JobRecord& rec : result.records) {
    d.add(static_cast<std::int64_t>(rec.status));
    d.add(rec.start);
    d.add(rec.end);
    rec.alloc.for_each_share([&](const NodeShare& s) {
      d.add(s.node);
      d.add(s.cores);
      add_gres(d, s.gres);
      d.add(s.mem_mb);
    });
  }
  return d.value();
}

}  // namespace hs
