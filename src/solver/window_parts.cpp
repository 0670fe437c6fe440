#include "solver/window_parts.hpp"

#include <algorithm>
#include <chrono>
#include <numeric>

#include "solver/incumbent.hpp"

namespace hs::solver {

namespace {

class DisjointSets {
 public:
  explicit DisjointSets(std::int32_t size) : parent_(static_cast<std::size_t>(size)) {
    std::iota(parent_.begin(), parent_.end(), 0);
  }
  std::int32_t find(std::int32_t x) {
    while (parent_[x] != x) x = parent_[x] = parent_[parent_[x]];
    return x;
  }
  void join(std::int32_t a, std::int32_t b) {
    a = find(a);
    b = find(b);
    if (a != b) parent_[std::max(a, b)] = std::min(a, b);
  }

 private:
  std::vector<std::int32_t> parent_;
};

bool takes_something(const NodeUse& use, std::int32_t dims) {
  return std::any_of(use.amount.begin(), use.amount.begin() + dims, [](std::int32_t a) { return a > 0; });
}

// Part label per job (the smallest vertex of its set; -1 for a job without usable bids).
std::vector<std::int32_t> part_label_of_jobs(const WindowProblem& problem,
                                             const std::vector<std::uint8_t>& usable) {
  // Vertices: jobs 0..J-1, then nodes J..J+N-1; a usable bid joins its job to the nodes it
  // takes something of.
  DisjointSets sets(problem.job_count + problem.node_count);
  std::vector<std::uint8_t> has_bid(static_cast<std::size_t>(problem.job_count), 0);
  for (std::size_t b = 0; b < problem.bids.size(); ++b) {
    if (!usable[b]) continue;
    const Bid& bid = problem.bids[b];
    has_bid[bid.job] = 1;
    for (const NodeUse& use : bid.uses)
      if (takes_something(use, problem.dims)) sets.join(bid.job, problem.job_count + use.node);
  }
  std::vector<std::int32_t> label(static_cast<std::size_t>(problem.job_count), -1);
  for (std::int32_t j = 0; j < problem.job_count; ++j)
    if (has_bid[j]) label[j] = sets.find(j);
  return label;
}

WindowPart build_part(const WindowProblem& problem, const std::vector<std::uint8_t>& usable,
                      const std::vector<std::int32_t>& jobs) {
  WindowPart part;
  part.job_of = jobs;
  std::vector<std::int32_t> part_job(static_cast<std::size_t>(problem.job_count), -1);
  for (std::size_t j = 0; j < jobs.size(); ++j) part_job[jobs[j]] = static_cast<std::int32_t>(j);
  std::vector<std::int32_t> part_node(static_cast<std::size_t>(problem.node_count), -1);
  std::vector<std::int32_t> nodes;
  for (std::size_t b = 0; b < problem.bids.size(); ++b) {
    if (!usable[b] || part_job[problem.bids[b].job] < 0) continue;
    part.bid_of.push_back(static_cast<std::int32_t>(b));
    for (const NodeUse& use : problem.bids[b].uses)
      if (takes_something(use, problem.dims) && part_node[use.node] < 0) {
        part_node[use.node] = 0;
        nodes.push_back(use.node);
      }
  }
  std::sort(nodes.begin(), nodes.end());
  WindowProblem& sub = part.problem;
  sub.job_count = static_cast<std::int32_t>(jobs.size());
  sub.node_count = static_cast<std::int32_t>(nodes.size());
  sub.dims = problem.dims;
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    part_node[nodes[n]] = static_cast<std::int32_t>(n);
    for (std::int32_t d = 0; d < problem.dims; ++d) sub.capacity.push_back(problem.cap(nodes[n], d));
  }
  for (std::int32_t b : part.bid_of) {
    const Bid& bid = problem.bids[b];
    Bid copy;
    copy.job = part_job[bid.job];
    copy.value = bid.value;
    for (const NodeUse& use : bid.uses)
      if (takes_something(use, problem.dims)) copy.uses.push_back({part_node[use.node], use.amount});
    sub.bids.push_back(std::move(copy));
  }
  return part;
}

// Where the joined bound comes from: the parts' common source, else that of the part with
// the widest gap, else (every part proven, by different means) the search.
BoundSource joined_source(const std::vector<SolveResult>& results) {
  const BoundSource first = results.front().bound_source;
  if (std::all_of(results.begin(), results.end(),
                  [first](const SolveResult& r) { return r.bound_source == first; }))
    return first;
  const SolveResult* widest = nullptr;
  for (const SolveResult& r : results)
    if (r.bound - r.solution.objective > optimality_tolerance(r.bound) &&
        (!widest || r.bound - r.solution.objective > widest->bound - widest->solution.objective))
      widest = &r;
  return widest ? widest->bound_source : BoundSource::Search;
}

std::vector<std::uint8_t> usable_bids(const WindowProblem& problem) {
  std::vector<std::uint8_t> usable(problem.bids.size());
  for (std::size_t b = 0; b < problem.bids.size(); ++b)
    usable[b] = fits_empty_cluster(problem, problem.bids[b]) ? 1 : 0;
  return usable;
}

// The given jobs (ascending) with their usable bids as one window.
WindowPart part_of_jobs(const WindowProblem& problem, const std::vector<std::int32_t>& jobs) {
  return build_part(problem, usable_bids(problem), jobs);
}

}  // namespace

std::vector<WindowPart> independent_parts(const WindowProblem& problem) {
  const std::vector<std::uint8_t> usable = usable_bids(problem);
  const std::vector<std::int32_t> label = part_label_of_jobs(problem, usable);
  std::vector<std::int32_t> size(static_cast<std::size_t>(problem.job_count), 0);
  for (std::int32_t l : label)
    if (l >= 0) ++size[l];
  const auto shared = std::count_if(size.begin(), size.end(), [](std::int32_t s) { return s >= 2; });
  if (shared < 2) return {};
  // Parts in the order of their first job; the loners last, together.
  std::vector<std::vector<std::int32_t>> jobs_of_label(static_cast<std::size_t>(problem.job_count));
  std::vector<std::int32_t> labels_in_order, loners;
  for (std::int32_t j = 0; j < problem.job_count; ++j) {
    const std::int32_t l = label[j];
    if (l < 0) continue;
    if (size[l] < 2) {
      loners.push_back(j);
      continue;
    }
    if (jobs_of_label[l].empty()) labels_in_order.push_back(l);
    jobs_of_label[l].push_back(j);
  }
  std::vector<WindowPart> parts;
  for (std::int32_t l : labels_in_order) parts.push_back(build_part(problem, usable, jobs_of_label[l]));
  if (!loners.empty()) parts.push_back(build_part(problem, usable, loners));
  return parts;
}

SolveResult solve_by_parts(const WindowProblem& problem, const std::vector<WindowPart>& parts,
                           const SolverOptions& options, std::int64_t effort_limit,
                           const PartSolver& solve_part, const ProbeCap& probe_cap) {
  const auto started = std::chrono::steady_clock::now();
  auto time_left = [&] {
    if (options.time_limit_s <= 0) return 0.0;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return std::max(1e-3, options.time_limit_s - elapsed);
  };
  std::vector<std::size_t> order(parts.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return parts[a].problem.bids.size() < parts[b].problem.bids.size();
  });
  std::int64_t bids_left = 0;
  for (const WindowPart& part : parts) bids_left += static_cast<std::int64_t>(part.problem.bids.size());
  std::int64_t effort_left = effort_limit;
  SolveResult joined;
  joined.solution.bid_of_job.assign(static_cast<std::size_t>(problem.job_count), -1);
  double bound = 0.0;
  std::vector<SolveResult> used;  // the results the joined answer takes
  auto take = [&](const WindowPart& part, const SolveResult& r) {
    for (std::size_t j = 0; j < r.solution.bid_of_job.size(); ++j)
      if (r.solution.bid_of_job[j] >= 0)
        joined.solution.bid_of_job[part.job_of[j]] = part.bid_of[r.solution.bid_of_job[j]];
  };
  auto charge = [&](const SolveResult& r) {
    joined.effort += r.effort;
    joined.bound_effort += r.bound_effort;
    effort_left = std::max<std::int64_t>(0, effort_left - (r.effort - r.bound_effort));
  };
  // Each part first tries to prove itself on a probe: its share of what is left, at most
  // the probe cap. A part it proves is settled.
  std::vector<std::size_t> open;
  std::vector<SolveResult> probes(parts.size());
  for (std::size_t k : order) {
    const auto bids = static_cast<std::int64_t>(parts[k].problem.bids.size());
    SolverOptions probe_options = options;
    const auto share = static_cast<std::int64_t>(static_cast<long double>(effort_left) * bids /
                                                 std::max<std::int64_t>(1, bids_left));
    const std::int64_t cap = probe_cap ? probe_cap(parts[k].problem) : kPartProbeEffort;
    probe_options.effort_limit = std::clamp<std::int64_t>(share, 1, cap);
    probe_options.time_limit_s = time_left();
    probes[k] = solve_part(parts[k].problem, probe_options);
    if (probes[k].call == CallStatus::Error) return probes[k];
    charge(probes[k]);
    bids_left -= bids;
    if (probes[k].status == SolveStatus::Optimal) {
      take(parts[k], probes[k]);
      bound += probes[k].bound;
      used.push_back(probes[k]);
    } else {
      open.push_back(k);
    }
  }
  // The parts not proven are solved together, whole, with the effort left: the search then
  // spends it where it improves most, as in a whole window. Their probes' answers are kept
  // when better, and their bounds when tighter.
  if (!open.empty()) {
    std::vector<std::int32_t> jobs;
    double probes_objective = 0.0, probes_bound = 0.0;
    for (std::size_t k : open) {
      jobs.insert(jobs.end(), parts[k].job_of.begin(), parts[k].job_of.end());
      probes_objective += probes[k].solution.objective;
      probes_bound += probes[k].bound;
    }
    std::sort(jobs.begin(), jobs.end());
    const WindowPart rest = part_of_jobs(problem, jobs);
    SolverOptions rest_options = options;
    rest_options.split_parts = false;
    rest_options.effort_limit = std::max<std::int64_t>(1, effort_left);
    rest_options.time_limit_s = time_left();
    SolveResult r = solve_part(rest.problem, rest_options);
    if (r.call == CallStatus::Error) return r;
    charge(r);
    if (r.solution.objective >= probes_objective) {
      take(rest, r);
    } else {
      for (std::size_t k : open) take(parts[k], probes[k]);
    }
    r.bound = std::min(r.bound, probes_bound);
    r.solution.objective = std::max(r.solution.objective, probes_objective);
    bound += r.bound;
    used.push_back(r);
  }
  for (std::int32_t bid : joined.solution.bid_of_job)
    if (bid >= 0) joined.solution.objective += problem.bids[bid].value;
  joined.bound_source = joined_source(used);
  joined.parts = static_cast<std::int32_t>(parts.size() - open.size());
  joined.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  settle(problem, bound, joined);
  return joined;
}

}  // namespace hs::solver
