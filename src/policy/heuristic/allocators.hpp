#pragma once
// The allocators of Netti et al. §3. Each only chooses an order of the nodes; the job's
// units are then placed greedily along it (job_units.hpp). Every allocator works with every
// scheduler of this area.
//   ff        - static 1-D order;
//   bf        - non-decreasing free cores + free gres (memory not counted);
//   balanced  - nodes binned by the critical resource they have free; the bin without any
//               first, then always one node from the currently largest bin (interleaving);
//   weighted  - non-decreasing R_i = sum_k w_k * (resource k left on node i after placing the
//               job's units), w_k = avg queued request of k (weighted by predicted duration)
//               * load ratio of k / capacity of k;
//   pweighted - weighted with w_k * p_k for critical types; p_k in [1, bound], +1 after a
//               failed allocation of a job that needs k, -1 after a successful one.
#include <array>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "policy/heuristic/job_units.hpp"
#include "policy/heuristic/predictors.hpp"
#include "util/params.hpp"

namespace hs::heuristic {

// Resource kinds: cores, each gres type, memory.
inline constexpr int kCoresKind = 0;
inline constexpr int kMemKind = 1 + kMaxGresTypes;
inline constexpr int kResourceKinds = 2 + kMaxGresTypes;
using ResourceWeights = std::array<double, kResourceKinds>;

struct QueuedJob {
  JobRef job = 0;
  const JobUnits* units = nullptr;
  Time predicted = 1;
};

struct AllocationContext {
  const Cluster* cluster = nullptr;
  const ClusterState* free = nullptr;    // at the start of the pass
  std::span<const QueuedJob> queue;      // every waiting job the scheduler may start
};

class Allocator {
 public:
  virtual ~Allocator() = default;
  virtual std::string name() const = 0;
  // Once per scheduling pass, before any allocation of that pass.
  virtual void begin_pass(const AllocationContext& ctx) { (void)ctx; }
  // Fills `order` with every node index in the order units should be placed.
  virtual void order_nodes(const Cluster& cluster, const ClusterState& state, const JobUnits& u,
                           std::vector<NodeIndex>& order) = 0;
  // Outcome of a real attempt to start a job now (not of hypothetical planning).
  virtual void record_outcome(const JobUnits& u, bool placed) { (void)u, (void)placed; }
  // True when order_nodes depends only on the state and the units (not on the queue given
  // to begin_pass) and record_outcome changes nothing: the same job on the same state is
  // then placed alike in every pass.
  virtual bool placement_is_stateless() const { return false; }
  // True when ordering the nodes costs less than the feasibility walk that allocate() does
  // first to spare an order on a job that cannot fit.
  virtual bool orders_cheaply() const { return false; }
  // The same for this state only, e.g. when an order kept from an earlier call still holds.
  virtual bool orders_cheaply_on(const ClusterState& state) const {
    (void)state;
    return orders_cheaply();
  }
};

std::vector<NamedItem> allocator_list();
// Options: critical-types (balanced, pweighted), priority-bound (pweighted).
std::unique_ptr<Allocator> make_allocator(std::string_view name, Params& params);

// Orders the nodes and places the units; nullopt when they do not fit. `record` reports
// the outcome to the allocator (pweighted's counters).
std::optional<Allocation> allocate(Allocator& allocator, const Cluster& cluster,
                                   const ClusterState& state, const JobUnits& u,
                                   std::span<const char> usable, bool record);

// Weighted's w_k for a pass (exposed for tests and docs).
ResourceWeights weighted_resource_weights(const AllocationContext& ctx);

// Pweighted's current priority value p_k per gres type (1 for non-critical types).
std::array<std::int32_t, kMaxGresTypes> priority_values(const Allocator& pweighted);

}  // namespace hs::heuristic
