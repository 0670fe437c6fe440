#include "policy/heuristic/cph_search.hpp"

#include <algorithm>
#include <numeric>

namespace hs::heuristic {

namespace {

// Free aggregated resources as steps: steps[i].free holds on [steps[i].time, steps[i+1].time).
struct Step {
  Time time;
  AggregateVector free;
};

std::vector<Step> initial_profile(const AggregateProblem& p) {
  std::vector<AggregateRelease> rel = p.releases;
  std::stable_sort(rel.begin(), rel.end(),
                   [](const AggregateRelease& a, const AggregateRelease& b) { return a.time < b.time; });
  std::vector<Step> steps{{p.now, p.free_now}};
  for (const AggregateRelease& r : rel) {
    const Time t = std::max(r.time, p.now);
    if (t != steps.back().time) steps.push_back({t, steps.back().free});
    for (int k = 0; k < kAggregateKinds; ++k) steps.back().free[k] += r.amount[k];
  }
  return steps;
}

bool covers(const AggregateVector& free, const AggregateVector& need) {
  for (int k = 0; k < kAggregateKinds; ++k)
    if (free[k] < need[k]) return false;
  return true;
}

// Index of the step that starts at `t`, inserting a split there if needed.
std::size_t split_at(std::vector<Step>& steps, Time t) {
  auto it = std::lower_bound(steps.begin(), steps.end(), t,
                             [](const Step& s, Time v) { return s.time < v; });
  if (it != steps.end() && it->time == t) return static_cast<std::size_t>(it - steps.begin());
  const AggregateVector before = std::prev(it)->free;
  it = steps.insert(it, {t, before});
  return static_cast<std::size_t>(it - steps.begin());
}

// Earliest step index from which `job` fits for its whole duration: one sweep keeping the
// first step of the current run of steps that all cover the demand. The last step lasts
// forever, so a demand it covers always fits.
std::size_t earliest_fit(const std::vector<Step>& steps, const AggregateJob& job) {
  std::size_t first = 0;
  for (std::size_t k = 0; k < steps.size(); ++k) {
    if (!covers(steps[k].free, job.demand)) {
      first = k + 1;
      continue;
    }
    if (k + 1 == steps.size() || steps[k + 1].time >= steps[first].time + job.duration) return first;
  }
  return steps.size() - 1;
}

void occupy(std::vector<Step>& steps, std::size_t s, const AggregateJob& job) {
  const Time start = steps[s].time;
  const std::size_t last = split_at(steps, start + job.duration);
  for (std::size_t k = s; k < last; ++k)
    for (int r = 0; r < kAggregateKinds; ++r) steps[k].free[r] -= job.demand[r];
}

std::int64_t total_wait(const AggregateProblem& p, const std::vector<Time>& start) {
  std::int64_t sum = 0;
  for (std::size_t j = 0; j < start.size(); ++j) sum += start[j] - p.jobs[j].submit;
  return sum;
}

std::vector<Time> decode_from(const AggregateProblem& p, std::vector<Step> steps,
                              const std::vector<int>& order) {
  std::vector<Time> start(p.jobs.size(), p.now);
  for (int j : order) {
    const std::size_t s = earliest_fit(steps, p.jobs[j]);
    start[j] = steps[s].time;
    occupy(steps, s, p.jobs[j]);
  }
  return start;
}

}  // namespace

std::vector<Time> decode_order(const AggregateProblem& p, const std::vector<int>& order) {
  return decode_from(p, initial_profile(p), order);
}

namespace {

class Search {
 public:
  Search(const AggregateProblem& p, std::int64_t effort)
      : p_(p), effort_(effort), profile_(initial_profile(p)) {}

  // Decodes `order`; keeps it when strictly better. False once the effort is spent.
  bool try_order(const std::vector<int>& order, bool& improved) {
    if (best_.evaluations >= effort_ && !best_.order.empty()) return false;
    ++best_.evaluations;
    std::vector<Time> start = decode_from(p_, profile_, order);
    const std::int64_t wait = total_wait(p_, start);
    improved = best_.order.empty() || wait < best_.total_wait;
    if (improved) {
      best_.start = std::move(start);
      best_.order = order;
      best_.total_wait = wait;
    }
    return true;
  }

  AggregateSchedule run() {
    const int n = static_cast<int>(p_.jobs.size());
    std::vector<int> fifo(n);
    std::iota(fifo.begin(), fifo.end(), 0);
    std::vector<int> spt = fifo;
    std::stable_sort(spt.begin(), spt.end(),
                     [&](int a, int b) { return p_.jobs[a].duration < p_.jobs[b].duration; });
    bool improved = false;
    try_order(fifo, improved);
    if (n < 2) return best_;
    try_order(spt, improved);
    while (improve_once()) {
    }
    return best_;
  }

 private:
  // One sweep of adjacent swaps and moves to the front; true if anything improved.
  bool improve_once() {
    bool any = false;
    const int n = static_cast<int>(best_.order.size());
    for (int i = 0; i + 1 < n; ++i) {
      std::vector<int> cand = best_.order;
      std::swap(cand[i], cand[i + 1]);
      bool improved = false;
      if (!try_order(cand, improved)) return false;
      any |= improved;
    }
    for (int i = 1; i < n; ++i) {
      std::vector<int> cand = best_.order;
      std::rotate(cand.begin(), cand.begin() + i, cand.begin() + i + 1);
      bool improved = false;
      if (!try_order(cand, improved)) return false;
      any |= improved;
    }
    return any;
  }

  const AggregateProblem& p_;
  std::int64_t effort_;
  std::vector<Step> profile_;  // running jobs only, shared by every decoding
  AggregateSchedule best_;
};

}  // namespace

AggregateSchedule search_schedule(const AggregateProblem& p, std::int64_t effort) {
  if (p.jobs.empty()) return {};
  return Search(p, effort).run();
}

}  // namespace hs::heuristic
