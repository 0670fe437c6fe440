#include "solver/random_instances.hpp"

#include <algorithm>

#include "util/rng.hpp"

namespace hs::solver {

namespace {

struct JobShape {
  std::int32_t nodes = 1;
  std::int32_t cores = 1;
  std::int32_t gpu_min = 0;
  std::int32_t gpu_max = 0;
};

struct Placement {
  std::int32_t first = 0;
  std::int32_t gpus = 0;
  double preference = 1.0;
};

void fill_capacity(const RandomWindowSpec& spec, Rng& rng, WindowProblem& problem) {
  problem.capacity.assign(static_cast<std::size_t>(spec.nodes) * 2, 0);
  for (std::int32_t n = 0; n < spec.nodes; ++n) {
    std::int32_t cores = spec.cores_per_node, gpus = spec.gpus_per_node;
    if (rng.bernoulli(spec.busy_node_fraction)) {
      cores -= static_cast<std::int32_t>(rng.uniform_int(1, spec.cores_per_node));
      gpus -= static_cast<std::int32_t>(rng.uniform_int(0, spec.gpus_per_node));
    }
    problem.capacity[static_cast<std::size_t>(n) * 2] = cores;
    problem.capacity[static_cast<std::size_t>(n) * 2 + 1] = gpus;
  }
}

// Node count drawn log-uniformly: a power-of-two class, then uniform inside it.
std::int32_t draw_node_count(std::int32_t max_nodes, Rng& rng) {
  int classes = 0;
  while ((std::int64_t{2} << classes) <= max_nodes) ++classes;
  const auto low = std::int64_t{1} << rng.uniform_int(0, classes);
  const auto high = std::min<std::int64_t>(2 * low - 1, max_nodes);
  return static_cast<std::int32_t>(rng.uniform_int(std::min<std::int64_t>(low, max_nodes), high));
}

JobShape draw_shape(const RandomWindowSpec& spec, std::int32_t max_nodes, Rng& rng) {
  JobShape shape;
  shape.nodes = draw_node_count(max_nodes, rng);
  if (spec.gpus_per_node > 0 && rng.bernoulli(spec.gpu_job_fraction)) {
    shape.gpu_min = static_cast<std::int32_t>(rng.uniform_int(1, spec.gpus_per_node));
    shape.gpu_max = rng.bernoulli(spec.gpu_range_fraction)
                        ? static_cast<std::int32_t>(rng.uniform_int(shape.gpu_min, spec.gpus_per_node))
                        : shape.gpu_min;
    shape.cores = static_cast<std::int32_t>(rng.uniform_int(1, std::max(1, spec.cores_per_node / 2)));
  } else {
    shape.cores = static_cast<std::int32_t>(rng.uniform_int(1, spec.cores_per_node));
  }
  return shape;
}

// Maximal runs [first, last] of nodes with at least `cores` and `gpus` free.
std::vector<std::pair<std::int32_t, std::int32_t>> free_runs(const WindowProblem& p,
                                                            std::int32_t cores, std::int32_t gpus) {
  std::vector<std::pair<std::int32_t, std::int32_t>> runs;
  for (std::int32_t n = 0; n < p.node_count; ++n) {
    if (p.cap(n, 0) < cores || p.cap(n, 1) < gpus) continue;
    if (!runs.empty() && runs.back().second == n - 1) {
      runs.back().second = n;
    } else {
      runs.emplace_back(n, n);
    }
  }
  return runs;
}

// One candidate placement for a GPU count, or none if no run is long enough.
bool draw_placement(const WindowProblem& p, const JobShape& shape, std::int32_t gpus, Rng& rng,
                    Placement& out) {
  std::vector<std::pair<std::int32_t, std::int32_t>> runs = free_runs(p, shape.cores, gpus);
  std::erase_if(runs, [&](auto& r) { return r.second - r.first + 1 < shape.nodes; });
  if (runs.empty()) return false;
  const auto& run = runs[rng.uniform_int(0, static_cast<std::int64_t>(runs.size()) - 1)];
  const std::int32_t slack = run.second - run.first + 1 - shape.nodes;
  const std::int64_t where = rng.uniform_int(0, 3);  // 0: start, 1: end, else inside
  out.gpus = gpus;
  if (where == 0 || slack == 0) {
    out.first = run.first;
    out.preference = 0.75 + 0.25 * rng.uniform01();
  } else if (where == 1) {
    out.first = run.second - shape.nodes + 1;
    out.preference = 0.75 + 0.25 * rng.uniform01();
  } else {
    out.first = run.first + static_cast<std::int32_t>(rng.uniform_int(0, slack));
    out.preference = 0.5 + 0.25 * rng.uniform01();
  }
  if (shape.gpu_max > shape.gpu_min)  // more GPUs preferred (AUCSCHED2's k4 term)
    out.preference = std::min(1.0, out.preference + 0.1 * (gpus + 1.0) / (shape.gpu_max + 1.0));
  return true;
}

Bid make_bid(std::int32_t job, const JobShape& shape, const Placement& place) {
  Bid bid;
  bid.job = job;
  for (std::int32_t n = place.first; n < place.first + shape.nodes; ++n) {
    NodeUse use;
    use.node = n;
    use.amount[0] = shape.cores;
    use.amount[1] = place.gpus;
    bid.uses.push_back(use);
  }
  return bid;
}

}  // namespace

WindowProblem make_random_window(const RandomWindowSpec& spec) {
  Rng rng(spec.seed);
  WindowProblem problem;
  problem.job_count = spec.jobs;
  problem.node_count = spec.nodes;
  problem.dims = 2;
  fill_capacity(spec, rng, problem);
  const std::int32_t max_nodes =
      spec.max_nodes_per_job > 0 ? spec.max_nodes_per_job : std::max(1, spec.nodes / 16);
  std::vector<double> preference;
  for (std::int32_t job = 0; job < spec.jobs; ++job) {
    const JobShape shape = draw_shape(spec, max_nodes, rng);
    std::vector<std::pair<std::int32_t, std::int32_t>> taken;  // (first, gpus) already bid
    for (std::int32_t attempt = 0; attempt < 2 * spec.max_bids_per_job; ++attempt) {
      if (static_cast<std::int32_t>(taken.size()) >= spec.max_bids_per_job) break;
      const auto gpus = static_cast<std::int32_t>(rng.uniform_int(shape.gpu_min, shape.gpu_max));
      Placement place;
      if (!draw_placement(problem, shape, gpus, rng, place)) continue;
      if (std::find(taken.begin(), taken.end(), std::pair{place.first, gpus}) != taken.end())
        continue;
      taken.emplace_back(place.first, gpus);
      problem.bids.push_back(make_bid(job, shape, place));
      preference.push_back(place.preference);
    }
  }
  // Priority: FCFS order plus a little noise; alpha scales preferences below one priority step.
  std::vector<double> priority(spec.jobs);
  double lowest = 0.0;
  for (std::int32_t job = 0; job < spec.jobs; ++job) {
    priority[job] = 1000.0 + 10.0 * (spec.jobs - job) + static_cast<double>(rng.uniform_int(0, 9));
    lowest = job == 0 ? priority[job] : std::min(lowest, priority[job]);
  }
  const double alpha = lowest / (static_cast<double>(problem.bids.size()) + 1.0);
  for (std::size_t b = 0; b < problem.bids.size(); ++b)
    problem.bids[b].value = priority[problem.bids[b].job] + alpha * preference[b];
  return problem;
}

void append_beside(WindowProblem& window, const WindowProblem& part) {
  if (window.node_count == 0 && window.job_count == 0) window.dims = part.dims;
  for (Bid bid : part.bids) {
    bid.job += window.job_count;
    for (NodeUse& use : bid.uses) use.node += window.node_count;
    window.bids.push_back(std::move(bid));
  }
  window.capacity.insert(window.capacity.end(), part.capacity.begin(), part.capacity.end());
  window.job_count += part.job_count;
  window.node_count += part.node_count;
}

}  // namespace hs::solver
