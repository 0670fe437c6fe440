#pragma once
// Jobs with equal units and the same usable nodes are placed alike: on one free state every
// question about fitting has the same answer for all of them. ShapeTable numbers each
// distinct (units, usable mask) once; ShapeMemo keeps a per-pass answer per shape and forgets
// them all in O(1).
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "policy/heuristic/job_units.hpp"

namespace hs::heuristic {

using ShapeId = std::int32_t;

class ShapeTable {
 public:
  // The id of (u, usable), new ids numbered 0, 1, ... in order of first sight.
  ShapeId intern(const JobUnits& u, const std::vector<char>* usable);
  std::size_t size() const { return ids_.size(); }

 private:
  struct Key {
    JobUnits units;
    const std::vector<char>* usable;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const;
  };
  std::unordered_map<Key, ShapeId, KeyHash> ids_;
};

template <typename T>
class ShapeMemo {
 public:
  void clear() { ++generation_; }
  const T* find(ShapeId s) const {
    const auto i = static_cast<std::size_t>(s);
    return i < stamp_.size() && stamp_[i] == generation_ ? &value_[i] : nullptr;
  }
  void set(ShapeId s, T value) {
    const auto i = static_cast<std::size_t>(s);
    if (i >= stamp_.size()) {
      stamp_.resize(i + 1, 0);
      value_.resize(i + 1);
    }
    stamp_[i] = generation_;
    value_[i] = value;
  }

 private:
  std::uint64_t generation_ = 1;
  std::vector<std::uint64_t> stamp_;
  std::vector<T> value_;
};

}  // namespace hs::heuristic
