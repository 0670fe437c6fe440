#pragma once
// A candidate allocation ("bid" before it is valued): the cores a job would take on each node,
// with the gres per node it would get, plus where it came from (bid class) for its preference.
#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "model/allocation.hpp"
#include "model/cluster.hpp"
#include "policy/window/window_job.hpp"
#include "sim/cluster_state.hpp"

namespace hs::window {

enum class BidClass { A, B, C, Slurm, Column };

struct Candidate {
  int slot = 0;                  // position of the job in the window
  BidClass cls = BidClass::A;
  std::int32_t gres_per_node = 0;
  std::int32_t nodesets = 1;     // |S_c|: nodesets the bid draws from
  double preference = 1.0;       // F, set by the bid generator
  std::vector<NodeIndex> nodes;  // ascending
  std::vector<std::int32_t> cores;  // parallel to nodes, each >= 1
  std::int64_t total_cores() const;
};

// Free resources as flat arrays, editable for "as if" planning within a pass.
struct FreeArrays {
  std::vector<std::int32_t> cores;
  std::vector<GresCounts> gres;
  std::vector<std::int64_t> mem;
  std::vector<char> mem_modelled;  // node models memory (else --mem is not checked there)
  // Node::cpus_per_core per node where some node gives whole cores, else empty.
  std::vector<std::int32_t> cpus_per_core;
  static FreeArrays from(const Cluster& cluster, const ClusterState& state);
  // The cores a share of `share` holds on node n (Node::held_cores); `cores` stay whole
  // cores, so `share <= cores[n]` and `held(n, share) <= cores[n]` agree.
  std::int32_t held(NodeIndex n, std::int32_t share) const {
    if (cpus_per_core.empty() || cpus_per_core[n] <= 1 || share % cpus_per_core[n] == 0) return share;
    const std::int32_t per = cpus_per_core[n];
    return (share / per + 1) * per;
  }
  int node_count() const { return static_cast<int>(cores.size()); }
  void take(const Candidate& c, const WindowJob& job);
  void give_back(const Candidate& c, const WindowJob& job);  // undoes take(c, job) exactly
  bool fits(const Candidate& c, const WindowJob& job) const;
  bool operator==(const FreeArrays&) const = default;
};

// The free state of successive passes as FreeArrays, and a number for it: a pass on a
// state equal to the last pass's gets the same number, any other a new one. The last
// pass's arrays are moved out for the next pass and rewritten only on the nodes the
// state's change log names since then (every node when the log cannot tell); memos keyed
// on the number need neither a copy of the state nor a comparison with it.
class FreeStateSerials {
 public:
  // The arrays of `state` (moved out: give them back with keep()) and their number.
  FreeArrays update(const Cluster& cluster, const ClusterState& state);
  std::uint64_t number() const { return serial_; }
  void keep(FreeArrays&& free) { last_ = std::move(free); }
  // The cluster changed under an unchanged free state (a live partition's nodes moved):
  // the next state gets a new number, so nothing memoized on the old one is reused.
  void renumber() { ++serial_; }

 private:
  std::uint64_t serial_ = 0;  // numbers start at 1
  FreeArrays last_;
  ClusterState::ChangeMark mark_;  // the state when last_ was made equal to it
  std::vector<NodeIndex> changed_;  // scratch
};

// Node n can host the job with g gres per node (cores >= max(1, cpn), gres, memory, mask).
// Inline: the bid and column generators call these for every node they look at.
inline bool node_fits(const FreeArrays& free, const WindowJob& job, std::span<const char> mask,
                      NodeIndex n, std::int32_t g) {
  if (!mask.empty() && !mask[n]) return false;
  if (free.cores[n] < std::max(1, job.cores_per_node)) return false;
  if (g > 0 && (job.gres_type < 0 || free.gres[n][job.gres_type] < g)) return false;
  if (job.mem_per_node_mb > 0 && free.mem_modelled[n] && free.mem[n] < job.mem_per_node_mb)
    return false;
  return true;
}

// Largest number of cores the job may take on node n (cpn when given).
inline std::int32_t core_cap(const FreeArrays& free, const WindowJob& job, NodeIndex n) {
  const std::int32_t c = std::min(free.cores[n], job.cores);
  return job.cores_per_node > 0 ? std::min(c, job.cores_per_node) : c;
}

// Chooses nodes from `order` (walked in order) and cores on each: nodes are added until
// the caps reach the job's cores and the node minimum is met; fails (empty) when the node
// maximum is passed or the order runs out. Cores are packed greedily (each node >= 1).
// The chosen nodes are returned in walk order, not sorted.
bool take_prefix(std::span<const NodeIndex> order, std::span<const std::int32_t> caps,
                 const WindowJob& job, std::int32_t node_count, Candidate& out);

// Spreads `total` cores over the given nodes as evenly as the caps allow (water filling,
// each node >= 1). False when the caps cannot hold `total` or there are more nodes than cores.
bool spread_evenly(std::span<const std::int32_t> caps, std::int32_t total,
                   std::vector<std::int32_t>& out);

// Sorts nodes ascending (keeping cores parallel).
void normalise(Candidate& c);

Allocation to_allocation(const Cluster& cluster, const Candidate& c, const WindowJob& job);

}  // namespace hs::window
