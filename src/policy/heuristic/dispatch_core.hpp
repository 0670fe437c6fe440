#pragma once
// Bookkeeping every heuristic scheduler shares: what it knows about each job (units,
// predicted duration, start), the working copy of free resources during a pass, starting
// a job through the allocator, and the expected end of running jobs.
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "policy/heuristic/allocators.hpp"
#include "policy/heuristic/free_core_histogram.hpp"
#include "policy/heuristic/job_shapes.hpp"
#include "policy/heuristic/job_units.hpp"
#include "policy/heuristic/predictors.hpp"
#include "sim/scheduler.hpp"

namespace hs::heuristic {

struct StartedJob {
  JobRef job;
  Time expected_end;
  Allocation alloc;
};

class DispatchCore {
 public:
  DispatchCore(std::unique_ptr<Allocator> allocator, std::unique_ptr<DurationPredictor> predictor);

  // Learns from `events`, rejects jobs that cannot be expressed or placed as units, builds
  // the queue (submit order) and the working copy of the free resources.
  void begin_pass(const SystemView& view, std::span<const Event> events, Decisions& out);

  const SystemView& view() const { return *view_; }
  const Cluster& cluster() const { return *view_->cluster; }
  Time now() const { return view_->now; }
  const std::vector<QueuedJob>& queue() const { return queue_; }
  const ClusterState& free() const { return *free_; }
  Allocator& allocator() { return *allocator_; }
  Time predicted(JobRef j) const { return info_[j].predicted; }
  std::span<const char> usable(JobRef j) const { return *info_[j].usable; }
  ShapeId shape(JobRef j) const { return info_[j].shape; }
  const std::vector<StartedJob>& started() const { return started_; }
  // System capacity per resource kind: cores, then each gres type of the cluster.
  const std::vector<double>& capacities() const { return capacities_; }

  // Places the job on the working free state (nullopt when it does not fit now); an
  // infeasible shape is remembered for the rest of the pass (starts only shrink the free
  // state, and placement fails exactly when the units do not fit, whatever the node order).
  // `record` reports the outcome to the allocator.
  std::optional<Allocation> attempt(const QueuedJob& q, bool record);
  // The same placement on another (hypothetical) state, never recorded.
  std::optional<Allocation> plan(const QueuedJob& q, const ClusterState& state);
  // Starts the job now on `alloc` (checked against the request).
  void commit(const QueuedJob& q, Allocation alloc, Decisions& out);
  // attempt + commit.
  bool try_start(const QueuedJob& q, Decisions& out);

  // When a running job is expected to end: start + prediction, or its limit once it has
  // outlived the prediction.
  Time expected_end(const RunningJob& r) const;

  // Mean wait of the jobs already started from a queue (partition), or nullopt.
  std::optional<double> mean_wait(const std::string& partition) const;

 private:
  struct JobInfo {
    bool seen = false;
    bool rejected = false;
    std::optional<JobUnits> units;
    const std::vector<char>* usable = nullptr;
    ShapeId shape = -1;
    Time predicted = 1;
    Time start = -1;
  };
  struct WaitStats {
    double sum = 0;
    std::int64_t count = 0;
  };

  void absorb(std::span<const Event> events);
  // Units, prediction and the idle-cluster check at first sight; a reason when rejected.
  std::optional<std::string> first_sight(JobRef j);
  // Makes the working free state a copy of `now_free` and updates the histograms.
  void take_free_state(const ClusterState& now_free);
  // The free-core histogram of the working state over the job's usable nodes (built on
  // first use, then kept up to date).
  const FreeCoreHistogram& histogram(JobRef j);

  std::unique_ptr<Allocator> allocator_;
  std::unique_ptr<DurationPredictor> predictor_;
  const SystemView* view_ = nullptr;
  std::vector<JobInfo> info_;
  // Usable nodes per (partition, bound -C/-x mask): job_node_mask, shared by equal jobs.
  using MaskKey = std::pair<std::string, const std::vector<char>*>;
  std::map<MaskKey, std::vector<char>> masks_;
  std::map<std::string, WaitStats> waits_;
  std::optional<ClusterState> idle_;
  std::vector<double> capacities_;
  std::optional<ClusterState> free_;
  std::vector<QueuedJob> queue_;
  std::vector<StartedJob> started_;
  ShapeTable shapes_;
  ShapeMemo<char> infeasible_;  // shapes that failed in this pass
  std::map<const std::vector<char>*, FreeCoreHistogram> histograms_;  // per usable mask
};

}  // namespace hs::heuristic
