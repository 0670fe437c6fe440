#include "policy/slurm/backfill_pass.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>

#include "policy/slurm/select.hpp"

namespace hs::slurm {

namespace {
// will_run groups running jobs by limit end on a 30 s barrier, doubling the window.
constexpr Time kGroupWindow = 30;

bool touches(const Allocation& alloc, const NodeBits& nodes) {
  for (const NodeShare& s : alloc.shares)
    if (nodes.test(s.node)) return true;
  return false;
}
}  // namespace

void BackfillPass::collect_running(const PassState& s, std::span<const RunningJob> running) {
  owned_.clear();
  running_.clear();
  for (const RunningJob& r : running) running_.push_back({r.limit_end, r.job, r.alloc});
  for (const StartDecision& d : *s.starts) {  // started by the main pass of this call
    owned_.push_back(d.alloc);
    running_.push_back({s.now + s.job(d.job).req.time_limit, d.job, &owned_.back()});
  }
  // cons_common's will-run sorts slurmctld's job list (job id order) by end time, stably:
  // jobs ending together in id order. Which of them come before a job on no candidate node
  // decides where a group of releases stops (release_until_fit).
  std::stable_sort(running_.begin(), running_.end(),
                   [this](const Running& a, const Running& b) { return ends_before(a, b); });
}

void BackfillPass::collect_candidates(const PassState& s, const std::vector<JobRef>& order) {
  jobs_.clear();
  for (JobRef j : order) {
    if (jobs_.size() >= config_.max_job_test) break;
    if (!(*s.started)[j]) jobs_.push_back(j);
  }
}

// A job can start now only on free cores of nodes that no reservation claims before
// now + its limit (a necessary condition; reservations and starts only shrink it).
bool BackfillPass::could_start_now(const PassState& s, std::size_t k) const {
  const JobRequest& r = s.job(jobs_[k]).req;
  const std::int64_t need = std::max(1, r.ntasks);
  std::int64_t free = unreserved_free_;
  if (free >= need) return true;
  const Time horizon = s.now + r.time_limit;
  for (NodeIndex n : reserved_list_)
    if (first_reserved_[n] > horizon) free += s.free->node(n).cores;
  return free >= need;
}

// Exact shortcut: when no job from `next` on could start now, the rest of the pass would
// only build reservations that are discarded at its end. Jobs found impossible stay
// impossible for the pass, so each is examined at most once after it fails.
bool BackfillPass::nothing_more_can_start(const PassState& s, std::size_t next) {
  std::size_t m = std::max(next, possible_);
  while (m < jobs_.size() && !could_start_now(s, m)) ++m;
  possible_ = m;
  return m == jobs_.size();
}

void BackfillPass::attach(const Cluster& cluster) {
  max_cores_ = 0;  // a pass's capacity histograms start this large (count_node grows them)
  for (const Node& n : cluster.nodes) max_cores_ = std::max(max_cores_, n.cores);
}

BackfillStats BackfillPass::run(PassState& s, const std::vector<JobRef>& order,
                                const PartitionIndex& partitions,
                                std::span<const RunningJob> running) {
  BackfillStats st;
  plan_.clear();
  const int nodes = s.cluster->node_count();
  const Time res = config_.resolution;
  space_.reset(round_down(s.now, res), round_down(s.now + config_.window, res), nodes);
  collect_running(s, running);
  collect_candidates(s, order);
  first_reserved_.assign(nodes, kNoTime);
  reserved_list_.clear();
  unreserved_free_ = s.free->free_cores();
  reservations_.assign(partitions.count(), 0);
  future_synced_ = false;
  changed_ = true;
  possible_ = 0;
  memo_.clear();
  for (std::size_t k = 0; k < jobs_.size(); ++k) {
    if (changed_ || k > possible_) {
      changed_ = false;
      if (nothing_more_can_start(s, k)) {
        st.stopped_early = true;
        break;
      }
    }
    ++st.tested;
    test_job(s, jobs_[k], partitions, st);
  }
  return st;
}

std::optional<Allocation> BackfillPass::select_on(const PassState& s, const ClusterState& state,
                                                  JobRef j) {
  SelectOptions options = s.select;
  options.usable = mask();
  options.within = candidates_.words();  // within the job's partition
  if (s.gpu_bias) options.gpu_bias = s.gpu_bias->values();
  return select_nodes(*s.cluster, state, s.job(j), options);
}

BackfillPass::Shape BackfillPass::shape_of(const PassState& s, JobRef j) {
  const JobRequest& r = s.job(j).req;
  Shape sh;
  sh.per_node = std::max({1, r.ntasks_per_node, r.task_cores});
  sh.cpus = std::max(1, r.ntasks);
  sh.nodes = min_node_count(r);
  sh.max_nodes = max_node_count(s.job(j), s.cluster->node_count());
  for (const GresRequest& g : r.gres)
    g.for_each_type([&](int t, std::int32_t min, std::int32_t) {
      if (t >= 0 && t < kMaxGresTypes) sh.gres[t] = min, sh.any_gres = true;
    });
  return sh;
}

bool BackfillPass::could_host(const NodeFree& f) const {
  if (f.cores < shape_.per_node) return false;
  if (shape_.any_gres)
    for (int t = 0; t < kMaxGresTypes; ++t)
      if (f.gres[t] < shape_.gres[t]) return false;
  return true;
}

void BackfillPass::count_node(Capacity& c, const NodeFree& f, int sign) const {
  if (!could_host(f)) return;
  c.cpus += sign * f.cores;
  c.nodes += sign;
  const auto k = static_cast<std::size_t>(f.cores);
  if (k >= c.by_cores.size()) c.by_cores.resize(k + 1, 0);
  c.by_cores[k] += sign;
}

BackfillPass::Capacity BackfillPass::capacity(const ClusterState& state) const {
  Capacity c;
  c.by_cores.assign(static_cast<std::size_t>(max_cores_) + 1, 0);
  // A node without free cores hosts nothing (could_host asks for at least one).
  const auto& words = candidates_.words();
  const std::span<const std::uint64_t> free = state.nodes_with_free_cores();
  for (std::size_t w = 0; w < words.size(); ++w) {
    for (std::uint64_t bits = words[w] & free[w]; bits; bits &= bits - 1) {
      const auto n = static_cast<NodeIndex>(w * 64 + static_cast<std::size_t>(std::countr_zero(bits)));
      count_node(c, state.node(n), 1);
    }
  }
  return c;
}

// capacity(*s.free) for the job under test: the free nodes change only when a job starts,
// and most jobs share a few shapes and a few candidate sets (with a reservation, a job's
// candidates depend on whether its limit reaches the reserved slots).
BackfillPass::Capacity BackfillPass::capacity_now(const PassState& s) {
  const auto& words = candidates_.words();
  for (const CapacityMemo& m : memo_)
    if (m.per_node == shape_.per_node && m.any_gres == shape_.any_gres && m.gres == shape_.gres &&
        m.words == words)
      return m.capacity;
  if (memo_.size() >= kMemoSize) memo_.erase(memo_.begin());
  memo_.push_back({shape_.per_node, shape_.gres, shape_.any_gres, words, capacity(*s.free)});
  return memo_.back().capacity;
}

bool BackfillPass::may_fit(const Capacity& c) const {
  if (c.cpus < shape_.cpus || c.nodes < shape_.nodes) return false;
  if (c.nodes <= shape_.max_nodes) return true;
  std::int64_t sum = 0;
  std::int32_t left = shape_.max_nodes;
  for (std::size_t k = c.by_cores.size(); k-- > 0 && left > 0;) {
    const std::int32_t take = std::min(left, c.by_cores[k]);
    sum += static_cast<std::int64_t>(take) * static_cast<std::int64_t>(k);
    left -= take;
  }
  return sum >= shape_.cpus;
}

// Releases one running job into `future`, keeping `c` current for the candidate nodes.
void BackfillPass::release(ClusterState& future, const Allocation& alloc, Capacity& c) const {
  for (const NodeShare& sh : alloc.shares)
    if (mask()[sh.node]) count_node(c, future.node(sh.node), -1);
  future.release(alloc);
  for (const NodeShare& sh : alloc.shares)
    if (mask()[sh.node]) count_node(c, future.node(sh.node), 1);
}

// The will-run test: release running jobs in limit-end order, in groups that end within a
// doubling window of the first one, and retry the selection after each group. Jobs whose
// nodes the candidate set does not contain are skipped. The start is the limit end of the
// last job released. Once a group ends after `cutoff` (> 0) the caller would retry from
// the cutoff anyway, so the search stops there and returns that group's end unselected.
std::optional<Time> BackfillPass::earliest_future_start(const PassState& s, JobRef j,
                                                        Capacity c, Time cutoff,
                                                        std::optional<Allocation>& alloc) {
  if (!future_synced_) {  // once per pass; start_now keeps it equal to *s.free after that
    if (future_)
      future_->assign_from(*s.free);  // copies what changed since the last pass
    else
      future_.emplace(*s.free);
    future_synced_ = true;
  }
  const std::optional<Time> found = release_until_fit(s, j, c, cutoff, alloc);
  for (const Allocation* a : released_) future_->take(*a);  // back to *s.free
  released_.clear();
  future_->note_equal_to(*s.free);  // the next pass's assign_from need not copy them
  return found;
}

// earliest_future_start's search on future_, noting every released job in released_.
std::optional<Time> BackfillPass::release_until_fit(const PassState& s, JobRef j, Capacity c,
                                                    Time cutoff, std::optional<Allocation>& alloc) {
  ClusterState& future = *future_;
  Time barrier = -1, window = kGroupWindow;
  std::size_t k = 0;
  while (k < running_.size()) {
    Time last_end = -1;
    while (k < running_.size()) {
      const Running& r = running_[k++];
      if (!touches(*r.alloc, candidates_)) continue;
      if (barrier < 0) barrier = round_down(r.end, kGroupWindow) + kGroupWindow;
      release(future, *r.alloc, c);
      released_.push_back(r.alloc);
      last_end = r.end;
      if (k < running_.size() && running_[k].end > barrier + window) break;
    }
    if (last_end < 0) break;
    // A job past its limit (slurmctld kills only at its periodic check) is expected to
    // end KillWait after it, a second from now at the earliest (_guess_job_end).
    if (last_end <= s.now) last_end = std::max(last_end + config_.kill_wait, s.now + 1);
    note_test(s, future, j);
    if (cutoff > 0 && last_end > cutoff) return last_end;
    do {
      window *= 2;
    } while (k < running_.size() && running_[k].end > barrier + window);
    if (!may_fit(c)) continue;
    alloc = select_on(s, future, j);
    if (alloc) return last_end;
  }
  return std::nullopt;
}

// Every will-run test of a GPU job leaves its mark on the nodes' weights (gpu_bias.hpp).
void BackfillPass::note_test(const PassState& s, const ClusterState& state, JobRef j) {
  if (s.gpu_bias) s.gpu_bias->note_test(*s.cluster, state, s.job(j), part_nodes_, mask());
}

void BackfillPass::start_now(PassState& s, JobRef j, Allocation alloc, BackfillStats& st) {
  if (s.gpu_bias) {
    // _start_job selects the nodes again through the controller's own selection
    // (select_nodes, _pick_best_nodes) on the same candidates, with the weights as
    // configured: the test's choice under GPU jobs' marks is not what starts. Should that
    // selection fail (weights only split sets, so it does not in practice), the test's
    // choice is kept. The nodes backfill holds for its plan are excluded from that selection,
    // so their weights stay as the tests left them.
    s.gpu_bias->reset(part_nodes_, s.job(j), mask());
    if (std::optional<Allocation> again = select_on(s, *s.free, j)) alloc = std::move(*again);
    s.gpu_bias->note_test(*s.cluster, *s.free, s.job(j), part_nodes_, mask());
  }
  for (const NodeShare& sh : alloc.shares)
    if (first_reserved_[sh.node] == kNoTime) unreserved_free_ -= sh.cores;
  owned_.push_back(alloc);
  const Running entry{s.now + s.job(j).req.time_limit, j, &owned_.back()};
  running_.insert(std::upper_bound(running_.begin(), running_.end(), entry,
                                   [this](const Running& a, const Running& b) { return ends_before(a, b); }),
                  entry);
  if (future_synced_) future_->take(alloc);
  s.start(j, std::move(alloc));
  memo_.clear();
  ++st.started;
  changed_ = true;
}

Time BackfillPass::round_down(Time t, Time step) const {
  const std::int64_t wall = t + config_.epoch;
  const std::int64_t q = wall >= 0 ? wall / step : -((-wall + step - 1) / step);
  return q * step - config_.epoch;
}

// [start, start + limit] rounded down to bf_resolution on the wall clock, at least one
// resolution long.
std::pair<Time, Time> BackfillPass::reserved_interval(Time start, Time limit) const {
  const Time res = config_.resolution;
  const Time begin = std::max(round_down(start, res), space_.begin());
  return {begin, std::max(round_down(start + limit, res), begin + res)};
}

// Points mask() at the mask of candidates_, built unless one of the last few sets is it.
void BackfillPass::load_mask(int node_count) {
  const auto& words = candidates_.words();
  const auto size = static_cast<std::size_t>(node_count);
  for (const MaskEntry& e : masks_)
    if (e.words == words && e.mask.size() == size) {
      mask_at_ = static_cast<std::size_t>(&e - masks_.data());
      return;
    }
  if (masks_.size() < kMasks) masks_.emplace_back();
  mask_at_ = next_mask_;
  MaskEntry& e = masks_[next_mask_];
  next_mask_ = (next_mask_ + 1) % kMasks;
  e.words = words;
  e.mask.assign(size, 0);
  for (std::size_t w = 0; w < words.size(); ++w)
    for (std::uint64_t bits = words[w]; bits; bits &= bits - 1)
      e.mask[w * 64 + static_cast<std::size_t>(std::countr_zero(bits))] = 1;
}

void BackfillPass::add_reservation(const PassState& s, JobRef j, Time start,
                                   const Allocation& alloc) {
  const auto [begin, end] = reserved_interval(start, s.job(j).req.time_limit);
  space_.reserve(begin, end, reserved_nodes_);
  PlannedStart plan{j, start, {}};
  for (const NodeShare& sh : alloc.shares) {
    if (first_reserved_[sh.node] == kNoTime) {
      unreserved_free_ -= s.free->node(sh.node).cores;
      reserved_list_.push_back(sh.node);
    }
    first_reserved_[sh.node] = std::min(first_reserved_[sh.node], begin);
    plan.nodes.push_back(sh.node);
  }
  plan_.push_back(std::move(plan));
  changed_ = true;
}

void BackfillPass::test_job(PassState& s, JobRef j, const PartitionIndex& partitions,
                            BackfillStats& st) {
  const Job& job = s.job(j);
  const Time limit = job.req.time_limit;
  const int part = partitions.of_job[j];
  part_nodes_ = partitions.nodes[part];
  const bool may_reserve =
      config_.reserve_depth == 0 || reservations_[part] < static_cast<std::size_t>(config_.reserve_depth);
  shape_ = shape_of(s, j);
  const std::int32_t min_nodes = shape_.nodes;
  const Time horizon = s.now + config_.window;
  Time start_res = s.now;
  // Every retry moves start_res forward past a slot boundary; the bound is a safety net.
  for (std::size_t attempt = 0; attempt < space_.slot_count() + 4; ++attempt) {
    if (start_res > horizon) return;
    Time later = 0;
    space_.usable_during(start_res, start_res + limit, partitions.bits[part], candidates_, later);
    const auto retry_from = [&](Time t) { start_res = t > start_res ? t : start_res + config_.resolution; };
    if (!candidates_.has_at_least(min_nodes)) {
      if (later && may_reserve) {
        retry_from(later);
        continue;
      }
      return;
    }
    load_mask(s.cluster->node_count());
    note_test(s, *s.free, j);
    const Capacity now_capacity = capacity_now(s);
    std::optional<Allocation> alloc;
    if (may_fit(now_capacity)) alloc = select_on(s, *s.free, j);
    Time t = s.now;
    if (!alloc) {
      if (!may_reserve) return;  // EASY: jobs past the reservation depth only test "now"
      // A GPU job's test marks the nodes of every state it reaches (gpu_bias.hpp): Slurm's
      // will-run goes on to the job's start, past the retry point.
      const bool marks = s.gpu_bias && !job.req.gres.empty();
      const std::optional<Time> found =
          earliest_future_start(s, j, now_capacity, marks ? 0 : later, alloc);
      if (!found) {
        if (later) {
          retry_from(later);
          continue;
        }
        return;
      }
      t = *found;
    }
    t = std::max(t, start_res);
    // _attempt_backfill: "need to wait for in-progress completion/epilog" (now + 1).
    if (t <= s.now && s.completing && touches(*alloc, *s.completing)) t = s.now + 1;
    if (t <= s.now) {
      start_now(s, j, std::move(*alloc), st);
      return;
    }
    if (!may_reserve) return;
    if (later && t > later) {  // more nodes free up before t: try from there
      retry_from(later);
      continue;
    }
    if (t > horizon) return;  // beyond bf_window: no reservation
    reserved_nodes_.resize(s.cluster->node_count(), false);
    for (const NodeShare& sh : alloc->shares) reserved_nodes_.set(sh.node);
    const auto [begin, end] = reserved_interval(t, limit);
    if (space_.overlaps(reserved_nodes_, begin, end)) {  // nodes taken meanwhile: retry
      retry_from(t);
      continue;
    }
    add_reservation(s, j, t, *alloc);
    ++reservations_[part];
    ++st.reserved;
    return;
  }
}

}  // namespace hs::slurm
