#include "sim/decision_check.hpp"

#include <unordered_set>

#include "model/request_fit.hpp"

namespace hs {

namespace {

std::string job_label(const SystemView& view, JobRef j) {
  if (j < 0 || static_cast<std::size_t>(j) >= view.workload->jobs.size())
    return "job ref " + std::to_string(j);
  return "job " + std::to_string(view.job(j).id);
}

// The first node of `alloc` that `state` cannot hold, described.
std::string overflow_text(const Cluster& cluster, const ClusterState& state, const Allocation& alloc) {
  for (const NodeShare& s : alloc.shares) {
    if (s.node < 0 || s.node >= state.node_count()) return "node index " + std::to_string(s.node) + " out of range";
    const NodeFree& f = state.node(s.node);
    std::string node = cluster.nodes[s.node].name;
    if (s.cores > f.cores)
      return "asks " + std::to_string(s.cores) + " cores on " + node + ", " + std::to_string(f.cores) + " free";
    for (int t = 0; t < kMaxGresTypes; ++t)
      if (s.gres[t] > f.gres[t])
        return "asks " + std::to_string(s.gres[t]) + " " + cluster.gres_types[t] + " on " + node +
               ", " + std::to_string(f.gres[t]) + " free";
    if (s.mem_mb > f.mem_mb)
      return "asks " + std::to_string(s.mem_mb) + " MB on " + node + ", " + std::to_string(f.mem_mb) + " free";
  }
  return "does not fit what is free";
}

class BatchCheck {
 public:
  explicit BatchCheck(const SystemView& view) : view_(view), free_(*view.free) {
    pending_.insert(view.pending.begin(), view.pending.end());
  }

  std::optional<DecisionProblem> claim(JobRef j, const char* verb) {
    if (pending_.erase(j) == 1) return std::nullopt;
    return DecisionProblem{j, job_label(view_, j) + ": " + verb + " but not pending (or named twice)"};
  }

  std::optional<DecisionProblem> start(const StartDecision& s) {
    if (auto p = claim(s.job, "started")) return p;
    const std::string label = job_label(view_, s.job);
    if (auto bad = allocation_violates_request(*view_.cluster, view_.job(s.job), s.alloc))
      return DecisionProblem{s.job, label + ": allocation violates the request: " + *bad};
    if (!free_.can_hold(s.alloc))
      return DecisionProblem{s.job, label + ": allocation exceeds free resources (" +
                                        overflow_text(*view_.cluster, free_, s.alloc) + ")"};
    free_.take(s.alloc);
    return std::nullopt;
  }

 private:
  const SystemView& view_;
  ClusterState free_;
  std::unordered_set<JobRef> pending_;
};

}  // namespace

std::optional<DecisionProblem> decision_problem(const SystemView& view, const Decisions& d) {
  BatchCheck batch(view);
  for (const StartDecision& s : d.starts)
    if (auto p = batch.start(s)) return p;
  for (const Rejection& r : d.rejections)
    if (auto p = batch.claim(r.job, "rejected")) return p;
  if (d.wake_at && *d.wake_at <= view.now)
    return DecisionProblem{-1, "wake_at " + std::to_string(*d.wake_at) + " is not after now " +
                                   std::to_string(view.now)};
  return std::nullopt;
}

}  // namespace hs
