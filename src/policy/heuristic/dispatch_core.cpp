#include "policy/heuristic/dispatch_core.hpp"

#include <algorithm>
#include <stdexcept>

#include "model/job_nodes.hpp"
#include "model/request_fit.hpp"

namespace hs::heuristic {

DispatchCore::DispatchCore(std::unique_ptr<Allocator> allocator,
                           std::unique_ptr<DurationPredictor> predictor)
    : allocator_(std::move(allocator)), predictor_(std::move(predictor)) {}

void DispatchCore::absorb(std::span<const Event> events) {
  for (const Event& e : events) {
    if (e.kind == EventKind::NodesChanged) {  // live: a partition's nodes may have moved
      masks_.clear();
      histograms_.clear();
      for (JobInfo& info : info_) info.seen = info.rejected = false;
      continue;
    }
    if (e.kind == EventKind::Submitted && info_[e.job].seen) {  // live: submitted again
      info_[e.job].seen = info_[e.job].rejected = false;  // its request may have changed
      continue;
    }
    if (e.kind != EventKind::Ended) continue;
    JobInfo& info = info_[e.job];
    // The simulator applies a time's events before the pass, so the job ended now.
    if (info.start >= 0) predictor_->learn(view_->job(e.job), std::max<Time>(1, now() - info.start));
  }
}

std::optional<std::string> DispatchCore::first_sight(JobRef j) {
  JobInfo& info = info_[j];
  info.seen = true;
  const Job& job = view_->job(j);
  UnitsOrReason mapped = units_from_request(job);
  if (auto* reason = std::get_if<std::string>(&mapped)) return "not expressible as units: " + *reason;
  info.units = std::get<JobUnits>(mapped);
  const MaskKey key{job.partition, job.req.node_rules().allowed.get()};
  auto mask = masks_.find(key);
  if (mask == masks_.end()) mask = masks_.emplace(key, job_node_mask(cluster(), job)).first;
  info.usable = &mask->second;
  info.shape = shapes_.intern(*info.units, info.usable);
  if (!units_feasible(cluster(), *idle_, *info.units, *info.usable))
    return "its units cannot be placed even on the idle cluster";
  info.predicted = std::max<Time>(1, predictor_->predict(cluster(), job));
  return std::nullopt;
}

void DispatchCore::begin_pass(const SystemView& view, std::span<const Event> events,
                              Decisions& out) {
  view_ = &view;
  if (info_.size() < view.workload->jobs.size()) info_.resize(view.workload->jobs.size());
  if (!idle_) {
    idle_.emplace(*view.cluster);
    capacities_.assign(1, static_cast<double>(view.cluster->total_cores()));
    for (int t = 0; t < static_cast<int>(view.cluster->gres_types.size()); ++t)
      capacities_.push_back(static_cast<double>(view.cluster->total_gres(t)));
  }
  absorb(events);
  take_free_state(*view.free);
  queue_.clear();
  started_.clear();
  infeasible_.clear();
  for (JobRef j : view.pending) {
    JobInfo& info = info_[j];
    if (!info.seen) {
      if (auto reason = first_sight(j)) {
        info.rejected = true;
        out.rejections.push_back({j, *reason});
      }
    }
    if (!info.rejected) queue_.push_back({j, &*info.units, info.predicted});
  }
  allocator_->begin_pass({view.cluster, &*free_, queue_});
}

const FreeCoreHistogram& DispatchCore::histogram(JobRef j) {
  const std::vector<char>* mask = info_[j].usable;
  auto it = histograms_.find(mask);
  if (it == histograms_.end()) it = histograms_.emplace(mask, FreeCoreHistogram(*free_, *mask)).first;
  return it->second;
}

// A shape the histogram rules out fails as allocate() would fail it: reported to the
// allocator when recorded, never ordered.
std::optional<Allocation> DispatchCore::attempt(const QueuedJob& q, bool record) {
  const ShapeId shape = info_[q.job].shape;
  if (infeasible_.find(shape)) {
    if (record) allocator_->record_outcome(*q.units, false);
    return std::nullopt;
  }
  if (!histogram(q.job).may_fit(*q.units)) {
    if (record) allocator_->record_outcome(*q.units, false);
    infeasible_.set(shape, 1);
    return std::nullopt;
  }
  auto alloc = allocate(*allocator_, cluster(), *free_, *q.units, usable(q.job), record);
  if (!alloc) infeasible_.set(shape, 1);
  return alloc;
}

std::optional<Allocation> DispatchCore::plan(const QueuedJob& q, const ClusterState& state) {
  return allocate(*allocator_, cluster(), state, *q.units, usable(q.job), false);
}

void DispatchCore::commit(const QueuedJob& q, Allocation alloc, Decisions& out) {
  const Job& job = view_->job(q.job);
  if (auto bad = allocation_violates_request(cluster(), job, alloc))
    throw std::logic_error("heuristic allocation of job " + std::to_string(job.id) +
                           " violates its request: " + *bad);
  for (const NodeShare& s : alloc.shares) {
    const std::int32_t before = free_->node(s.node).cores;
    for (auto& [mask, h] : histograms_) h.update(s.node, before, before - free_->held_cores(s));
  }
  free_->take(alloc);
  JobInfo& info = info_[q.job];
  info.start = now();
  WaitStats& w = waits_[job.partition];
  w.sum += static_cast<double>(now() - job.submit);
  ++w.count;
  started_.push_back({q.job, now() + q.predicted, alloc});
  out.starts.push_back({q.job, std::move(alloc)});
}

// The histograms outlive the pass: only the nodes whose free cores changed since the last
// pass's end (jobs ended, or whatever else the caller reports) are counted again.
void DispatchCore::take_free_state(const ClusterState& now_free) {
  if (!free_ || free_->node_count() != now_free.node_count()) {
    histograms_.clear();
    free_.emplace(now_free);
    return;
  }
  if (!histograms_.empty()) {
    for (NodeIndex n = 0; n < now_free.node_count(); ++n) {
      const std::int32_t before = free_->node(n).cores;
      const std::int32_t after = now_free.node(n).cores;
      if (before == after) continue;
      for (auto& [mask, h] : histograms_) h.update(n, before, after);
    }
  }
  free_->assign_from(now_free);  // copies only the nodes changed since the last pass
}

bool DispatchCore::try_start(const QueuedJob& q, Decisions& out) {
  auto alloc = attempt(q, true);
  if (!alloc) return false;
  commit(q, std::move(*alloc), out);
  return true;
}

Time DispatchCore::expected_end(const RunningJob& r) const {
  const Time predicted_end = r.start + info_[r.job].predicted;
  if (predicted_end > now()) return predicted_end;
  return std::max(r.limit_end, now() + 1);
}

std::optional<double> DispatchCore::mean_wait(const std::string& partition) const {
  const auto it = waits_.find(partition);
  if (it == waits_.end() || it->second.count == 0) return std::nullopt;
  return it->second.sum / static_cast<double>(it->second.count);
}

}  // namespace hs::heuristic
