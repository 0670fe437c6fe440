#include "policy/heuristic/cph_search.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

namespace hs::heuristic {

namespace {

// ---- Resource profile (timetable of the cumulative constraints) ----------------------------

// Free aggregated resources as steps: steps[i].free holds on [steps[i].time, steps[i+1].time);
// the last step lasts forever.
struct Step {
  Time time;
  AggregateVector free;
};
using Profile = std::vector<Step>;

Profile initial_profile(const AggregateProblem& p) {
  std::vector<AggregateRelease> rel = p.releases;
  std::stable_sort(rel.begin(), rel.end(),
                   [](const AggregateRelease& a, const AggregateRelease& b) {
                     return a.time < b.time;
                   });
  Profile steps{{p.now, p.free_now}};
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

// Index of the step holding time t (t ≥ the profile's start).
std::size_t step_at(const Profile& steps, Time t) {
  auto it = std::upper_bound(steps.begin(), steps.end(), t,
                             [](Time v, const Step& s) { return v < s.time; });
  return static_cast<std::size_t>(it - steps.begin()) - 1;
}

// Index of the step that starts at `t`, inserting a split there if needed.
std::size_t split_at(Profile& steps, Time t) {
  const std::size_t k = step_at(steps, t);
  if (steps[k].time == t) return k;
  steps.insert(steps.begin() + static_cast<std::ptrdiff_t>(k + 1), {t, steps[k].free});
  return k + 1;
}

// Earliest t ≥ from at which `job` fits the profile for its whole duration: one sweep keeping
// the start of the current run of covering steps. If even the last step cannot hold the job,
// the end of the profile (such demands are rejected before scheduling).
Time earliest_start(const Profile& steps, const AggregateJob& job, Time from) {
  bool in_run = false;
  Time start = from;
  for (std::size_t k = step_at(steps, from); k < steps.size(); ++k) {
    if (!covers(steps[k].free, job.demand)) {
      in_run = false;
      continue;
    }
    if (!in_run) start = std::max(steps[k].time, from);
    in_run = true;
    if (k + 1 == steps.size() || steps[k + 1].time >= start + job.duration) return start;
  }
  return std::max(steps.back().time, from);
}

void occupy(Profile& steps, Time start, const AggregateJob& job) {
  const std::size_t first = split_at(steps, start);
  const std::size_t last = split_at(steps, start + job.duration);
  for (std::size_t k = first; k < last; ++k)
    for (int r = 0; r < kAggregateKinds; ++r) steps[k].free[r] -= job.demand[r];
}

std::int64_t total_wait(const AggregateProblem& p, const std::vector<Time>& start) {
  std::int64_t sum = 0;
  for (std::size_t j = 0; j < start.size(); ++j)
    sum += p.jobs[j].weight * (start[j] - p.jobs[j].submit);
  return sum;
}

std::vector<Time> decode_from(const AggregateProblem& p, Profile steps,
                              const std::vector<int>& order) {
  std::vector<Time> start(p.jobs.size(), p.now);
  for (int j : order) {
    start[j] = earliest_start(steps, p.jobs[j], std::max(p.now, p.jobs[j].earliest));
    occupy(steps, start[j], p.jobs[j]);
  }
  return start;
}

}  // namespace

std::vector<Time> decode_order(const AggregateProblem& p, const std::vector<int>& order) {
  return decode_from(p, initial_profile(p), order);
}

namespace {

// ---- Branch and bound -----------------------------------------------------------------------

enum class State : char { Open, Scheduled, Postponed };

struct Node {
  Profile profile;
  std::vector<Time> est;           // earliest feasible start on `profile` (unscheduled jobs)
  std::vector<State> state;
  std::vector<Time> postponed_at;  // est when postponed; the job must start later
  std::vector<Time> start;
  std::vector<int> order;
  std::int64_t partial = 0;        // wait of the scheduled jobs
  std::size_t scheduled = 0;
};

class BranchAndBound {
 public:
  BranchAndBound(const AggregateProblem& p, std::int64_t effort)
      : p_(p), effort_(effort), n_(static_cast<int>(p.jobs.size())), twin_(n_, -1) {
    find_twins();
  }

  AggregateSchedule run() {
    Node root = make_root();
    seed_incumbents(root.profile);
    best_.root_bound = bound(root, min_eligible_est(root));
    if (best_.root_bound >= best_.total_wait) {
      best_.proven_optimal = true;
      return best_;
    }
    explore(root, p_.now, p_.now);
    best_.proven_optimal = !out_of_effort_;
    return best_;
  }

 private:
  // twin_[j] = the previous job (problem order) with the same demand, duration, weight and
  // release date.
  // Swapping the starts of two such jobs keeps the schedule feasible and the objective
  // unchanged, so only
  // schedules starting twins in problem order are searched.
  void find_twins() {
    for (int j = 0; j < n_; ++j)
      for (int i = j - 1; i >= 0; --i)
        if (p_.jobs[i].demand == p_.jobs[j].demand && p_.jobs[i].duration == p_.jobs[j].duration &&
            p_.jobs[i].weight == p_.jobs[j].weight && p_.jobs[i].earliest == p_.jobs[j].earliest) {
          twin_[j] = i;
          break;
        }
  }

  Node make_root() const {
    Node root;
    root.profile = initial_profile(p_);
    root.est.assign(n_, p_.now);
    root.state.assign(n_, State::Open);
    root.postponed_at.assign(n_, p_.now);
    root.start.assign(n_, p_.now);
    for (int j = 0; j < n_; ++j)
      root.est[j] = earliest_start(root.profile, p_.jobs[j], std::max(p_.now, p_.jobs[j].earliest));
    return root;
  }

  void offer(std::vector<Time> start, std::vector<int> order) {
    const std::int64_t wait = total_wait(p_, start);
    if (!best_.start.empty() && wait >= best_.total_wait) return;
    best_.start = std::move(start);
    best_.order = std::move(order);
    best_.total_wait = wait;
  }

  // Submit order and weighted-shortest-first list schedules.
  void seed_incumbents(const Profile& profile) {
    std::vector<int> fifo(n_);
    std::iota(fifo.begin(), fifo.end(), 0);
    ++best_.evaluations;
    offer(decode_from(p_, profile, fifo), fifo);
    if (n_ < 2 || best_.evaluations >= effort_) return;
    std::vector<int> spt = fifo;
    std::stable_sort(spt.begin(), spt.end(),
                     [&](int a, int b) { return shorter_per_weight(a, b); });
    ++best_.evaluations;
    offer(decode_from(p_, profile, spt), spt);
  }

  // Smith's ratio: duration / weight, compared without division.
  bool shorter_per_weight(int a, int b) const {
    return p_.jobs[a].duration * p_.jobs[b].weight < p_.jobs[b].duration * p_.jobs[a].weight;
  }

  bool eligible(const Node& node, int j) const {
    return node.state[j] == State::Open &&
           (twin_[j] < 0 || node.state[twin_[j]] == State::Scheduled);
  }

  // Smallest est of the jobs that may be scheduled next; every later start is at least this.
  Time min_eligible_est(const Node& node) const {
    Time m = std::numeric_limits<Time>::max();
    for (int j = 0; j < n_; ++j)
      if (eligible(node, j)) m = std::min(m, node.est[j]);
    return m;
  }

  // Lower bound on the total wait of any completion of `node`: every unscheduled job starts
  // no earlier than its est (the profile only shrinks); a postponed job starts after both its
  // est at postponement and the next start `m` (its est can only move past a later start);
  // a twin starts no earlier than its predecessor.
  std::int64_t bound(const Node& node, Time m) const {
    std::vector<Time> lb(n_, p_.now);
    std::int64_t sum = node.partial;
    for (int j = 0; j < n_; ++j) {
      if (node.state[j] == State::Scheduled) continue;
      lb[j] = node.est[j];
      if (node.state[j] == State::Postponed)
        lb[j] = std::max({lb[j], node.postponed_at[j] + 1, m + 1});
      if (twin_[j] >= 0 && node.state[twin_[j]] != State::Scheduled)
        lb[j] = std::max(lb[j], lb[twin_[j]]);
      sum += p_.jobs[j].weight * (lb[j] - p_.jobs[j].submit);
    }
    return sum;
  }

  // Timetable propagation after a job took [from, to): only jobs whose current earliest
  // window overlaps it can be pushed later. A postponed job whose est moved becomes open.
  void propagate(Node& node, Time from, Time to) const {
    for (int j = 0; j < n_; ++j) {
      if (node.state[j] == State::Scheduled) continue;
      if (node.est[j] >= to || node.est[j] + p_.jobs[j].duration <= from) continue;
      node.est[j] = earliest_start(node.profile, p_.jobs[j], node.est[j]);
      if (node.state[j] == State::Postponed && node.est[j] > node.postponed_at[j])
        node.state[j] = State::Open;
    }
  }

  // The eligible job to branch on: smallest est, then smallest duration / weight, then
  // submit order.
  int select(const Node& node) const {
    int best = -1;
    for (int j = 0; j < n_; ++j) {
      if (!eligible(node, j)) continue;
      if (best < 0 || node.est[j] < node.est[best] ||
          (node.est[j] == node.est[best] && shorter_per_weight(j, best)))
        best = j;
    }
    return best;
  }

  // Dominance: starts are fixed in chronological order, so nothing will again start before m.
  // A postponed job whose earliest window ends by m can therefore never be pushed later, i.e.
  // it could only start at its est, which it refused: dead end.
  bool postponed_job_stranded(const Node& node, Time m) const {
    for (int j = 0; j < n_; ++j)
      if (node.state[j] == State::Postponed && node.est[j] + p_.jobs[j].duration <= m) return true;
    return false;
  }

  void explore(Node& node, Time from, Time to) {
    if (out_of_effort_) return;
    if (best_.evaluations >= effort_) {
      out_of_effort_ = true;
      return;
    }
    ++best_.evaluations;
    propagate(node, from, to);
    if (node.scheduled == static_cast<std::size_t>(n_)) {
      offer(node.start, node.order);
      return;
    }
    const int j = select(node);
    if (j < 0) return;  // only postponed jobs left, none of which can move
    const Time m = node.est[j];
    if (postponed_job_stranded(node, m) || bound(node, m) >= best_.total_wait) return;

    Node child = node;  // branch 1: start j at its earliest feasible time
    child.state[j] = State::Scheduled;
    child.start[j] = m;
    child.order.push_back(j);
    child.partial += p_.jobs[j].weight * (m - p_.jobs[j].submit);
    ++child.scheduled;
    occupy(child.profile, m, p_.jobs[j]);
    explore(child, m, m + p_.jobs[j].duration);

    node.state[j] = State::Postponed;  // branch 2: j starts later than m
    node.postponed_at[j] = m;
    explore(node, m, m);  // nothing new occupied: no propagation needed
  }

  const AggregateProblem& p_;
  std::int64_t effort_;
  int n_;
  std::vector<int> twin_;
  AggregateSchedule best_;
  bool out_of_effort_ = false;
};

}  // namespace

AggregateSchedule search_schedule(const AggregateProblem& p, std::int64_t effort) {
  if (p.jobs.empty()) {
    AggregateSchedule empty;
    empty.proven_optimal = true;
    return empty;
  }
  return BranchAndBound(p, std::max<std::int64_t>(effort, 1)).run();
}

}  // namespace hs::heuristic
