#pragma once
// Free resources of every node at one moment. Policies copy it to plan "as if" starts.
#include <cstdint>
#include <span>
#include <vector>

#include "model/allocation.hpp"
#include "model/cluster.hpp"
#include "sim/node_change_log.hpp"

namespace hs {

struct NodeFree {
  std::int32_t cores = 0;
  GresCounts gres{};
  std::int64_t mem_mb = 0;
};

class ClusterState {
 public:
  explicit ClusterState(const Cluster& cluster);  // everything free
  // Copies start a history of their own (see assign_from).
  ClusterState(const ClusterState& other);
  ClusterState& operator=(const ClusterState& other);
  // Makes this state equal to `source`. When this state was last made equal to the same
  // source (assign_from or note_equal_to) and both changed at few nodes since, only those
  // nodes are copied: a scheduler's copy of the simulator's state renewed for every pass
  // costs the nodes that jobs started or ended on, not the machine.
  void assign_from(const ClusterState& source);
  // The caller vouches that this state equals `source` now (it undid its own changes);
  // later assign_from calls from `source` catch up from here.
  void note_equal_to(const ClusterState& source);
  // A point in this state's changes; changed_since() tells which nodes changed after it.
  struct ChangeMark {
    std::uint64_t history = 0, changes = 0;
  };
  ChangeMark change_mark() const;
  // Appends every node changed since `mark` to `nodes` (a node may repeat); false when
  // that is no longer known (the state was assigned whole, or too many changes since).
  bool changed_since(const ChangeMark& mark, std::vector<NodeIndex>& nodes) const;
  // Names this state's contents: two reads with the same version (of the same object, or of
  // objects one moved from the other) saw the same free resources. A copy or a whole
  // assignment starts a new history; every change counts.
  struct Version {
    std::uint64_t history = 0, edits = 0;
    bool operator==(const Version&) const = default;
  };
  Version version() const { return {history_, edits_}; }
  const NodeFree& node(NodeIndex n) const { return free_[n]; }
  const std::vector<NodeFree>& nodes() const { return free_; }
  int node_count() const { return static_cast<int>(free_.size()); }
  // The CPUs a share holds on its node (Node::held_cores): whole cores on nodes whose CPUs
  // are hardware threads. Every change and test of free cores here goes through it, so a
  // node's free CPUs stay whole cores and a policy's own test `share <= free` stays exact;
  // a policy that sums shares itself must sum these.
  std::int32_t held_cores(const NodeShare& s) const {
    return whole_cores_ ? cluster_->nodes[s.node].held_cores(s.cores) : s.cores;
  }
  // Whether some node's CPUs are hardware threads of whole cores (Node::cpus_per_core > 1).
  bool has_threaded_nodes() const { return whole_cores_; }
  // True when every share of `alloc` fits in what is free now.
  bool can_hold(const Allocation& alloc) const;
  void take(const Allocation& alloc);     // asserts can_hold
  void release(const Allocation& alloc);  // asserts nothing exceeds capacity afterwards
  // For observed reality that may contradict the cluster file (a live Slurm): takes what
  // is there, never below zero; false when something did not fit.
  bool take_clamped(const Allocation& alloc);
  // Nothing on node `n` is free any more (a drained or down node).
  void block(NodeIndex n) {
    free_[n] = NodeFree{};
    changed(n);
  }
  // Per node and resource the smaller of this state and `other` (of the same cluster).
  void lower_to(const ClusterState& other);
  std::int64_t free_cores() const;
  // The nodes with at least one free core as a bitset (node n is bit n % 64 of word
  // n / 64). On a loaded machine most nodes are full: node selections visit only these.
  std::span<const std::uint64_t> nodes_with_free_cores() const { return has_cores_; }

 private:
  void note_cores(NodeIndex n) {
    const std::uint64_t bit = std::uint64_t{1} << (n & 63);
    if (free_[n].cores > 0)
      has_cores_[n >> 6] |= bit;
    else
      has_cores_[n >> 6] &= ~bit;
  }
  void changed(NodeIndex n) {  // after every change of free_[n]
    note_cores(n);
    log_.record(n);
    ++edits_;
  }
  bool can_catch_up(const ClusterState& source) const;
  void catch_up(const ClusterState& source);

  const Cluster* cluster_;
  bool whole_cores_ = false;  // some node has cpus_per_core > 1
  std::vector<NodeFree> free_;
  std::vector<std::uint64_t> has_cores_;
  // Identifies this state's sequence of changes: a whole assignment starts a new one.
  std::uint64_t history_;
  std::uint64_t edits_ = 0;    // changes in this history (version())
  mutable NodeChangeLog log_;  // a source's log starts when a copy first follows it
  struct SyncMark {            // this state equalled the source `history` at these counts
    std::uint64_t history = 0, source_changes = 0, own_changes = 0;
  } synced_;
};

// Per node and resource the smaller of two states of the same cluster, e.g. what is free now
// and also spare at a reservation.
ClusterState lesser_of(const ClusterState& a, const ClusterState& b);

}  // namespace hs
