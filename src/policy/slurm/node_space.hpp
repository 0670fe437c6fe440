#pragma once
// The backfill scheduler's time-slot table (Slurm's node_space): consecutive slots
// [begin, end) covering [now, now + bf_window], each holding the nodes not yet reserved
// for a pending job. Reservations take whole nodes. Node sets are plain bitsets so the
// per-job tests stay a few machine words per slot.
#include <cstdint>
#include <vector>

#include "model/types.hpp"

namespace hs::slurm {

class NodeBits {
 public:
  NodeBits() = default;
  explicit NodeBits(int node_count, bool all = false) { resize(node_count, all); }
  void resize(int node_count, bool all);
  void set(int n) { words_[n >> 6] |= bit(n); }
  void reset(int n) { words_[n >> 6] &= ~bit(n); }
  bool test(int n) const { return (words_[n >> 6] & bit(n)) != 0; }
  int count() const;
  // count() >= n, stopping as soon as that is known.
  bool has_at_least(int n) const;
  int size() const { return nodes_; }
  const std::vector<std::uint64_t>& words() const { return words_; }
  std::vector<std::uint64_t>& words() { return words_; }

 private:
  static std::uint64_t bit(int n) { return std::uint64_t{1} << (n & 63); }
  std::vector<std::uint64_t> words_;
  int nodes_ = 0;
};

class NodeSpace {
 public:
  // One slot [begin, window_end) with every node available.
  void reset(Time begin, Time window_end, int node_count);

  // Nodes of `base` free of reservations in every slot that overlaps [start, end]
  // (a slot beginning exactly at `end` counts, as in Slurm). Returns in `later` the end
  // of the first slot after which more of `base` becomes available (0 when none): the
  // time Slurm retries a job that cannot use the current node set.
  void usable_during(Time start, Time end, const NodeBits& base, NodeBits& out,
                     Time& later) const;
  // True when some node of `nodes` is reserved in a slot overlapping [start, end).
  bool overlaps(const NodeBits& nodes, Time start, Time end) const;
  // Removes `nodes` from every slot of [start, end), splitting slots at both ends.
  void reserve(Time start, Time end, const NodeBits& nodes);

  Time begin() const { return slots_.empty() ? 0 : slots_.front().begin; }
  std::size_t slot_count() const { return slots_.size(); }

 private:
  struct Slot {
    Time begin;
    Time end;
    std::uint32_t bits;  // offset of this slot's words in pool_
  };
  const std::uint64_t* bits_of(const Slot& s) const { return pool_.data() + s.bits; }
  std::uint64_t* bits_of(const Slot& s) { return pool_.data() + s.bits; }
  std::size_t split_at(Time t);  // index of the slot that begins at t (t inside the table)

  std::vector<Slot> slots_;
  std::vector<std::uint64_t> pool_;
  std::size_t words_ = 0;
};

}  // namespace hs::slurm
