#pragma once
// The parts of a job that decide where it can be placed on a given cluster, as one
// comparable value: answers that depend on nothing else (can the job ever run, does it fit
// the idle machine) can be kept per shape instead of recomputed per job, which on a
// 300,000-job trace with a few hundred shapes saves an O(nodes) pass per submission.
#include <array>
#include <compare>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/job.hpp"

namespace hs {

struct RequestShape {
  std::string partition;
  std::int32_t ntasks = 0, nodes_min = 0, nodes_max = 0, ntasks_per_node = 0, task_cores = 0;
  std::int64_t mem_per_node_mb = 0;
  bool contiguous = false, exclusive = false, ntasks_implied = false, nodes_from_partition = false;
  std::vector<std::array<std::int32_t, 4>> gres;  // per item: type, kind type, min, max

  auto operator<=>(const RequestShape&) const = default;
};

// The job's shape, or nullopt when it has -C/-w/-x rules (its nodes are then its own).
// Leaves out what placement does not read: time limit, run time, names, user, submit time.
std::optional<RequestShape> request_shape(const Job& job);

// One answer per request shape: `compute(job)` runs once per shape (always for jobs with
// node rules, which have none); at most kMaxShapes answers are kept.
template <class Answer>
class PerShapeCache {
 public:
  template <class Compute>
  Answer get(const Job& job, Compute&& compute) {
    std::optional<RequestShape> shape = request_shape(job);
    if (!shape) return compute(job);
    if (auto it = known_.find(*shape); it != known_.end()) return it->second;
    Answer answer = compute(job);
    if (known_.size() < kMaxShapes) known_.emplace(std::move(*shape), answer);
    return answer;
  }
  void clear() { known_.clear(); }

 private:
  static constexpr std::size_t kMaxShapes = 4096;
  std::map<RequestShape, Answer> known_;
};

}  // namespace hs
