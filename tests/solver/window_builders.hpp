#pragma once
// Small helpers to write window problems by hand in tests.
#include <cstdint>
#include <initializer_list>
#include <utility>
#include <vector>

#include "solver/compact_problem.hpp"
#include "solver/incumbent.hpp"
#include "solver/random_instances.hpp"
#include "solver/window_problem.hpp"

namespace hs::solver::testing {

// A window of the benchmark family (bench/bench_window_solver.cpp): nodes of 12 cores and
// 3 GPUs, a share `busy` of them partly used.
inline WindowProblem bench_family_window(std::int32_t nodes, std::int32_t jobs, std::int32_t bids,
                                         std::uint64_t seed, double busy = 0.5) {
  RandomWindowSpec spec;
  spec.busy_node_fraction = busy;
  spec.seed = seed;
  spec.nodes = nodes;
  spec.jobs = jobs;
  spec.max_bids_per_job = bids;
  spec.cores_per_node = 12;
  spec.gpus_per_node = 3;
  return make_random_window(spec);
}

// A crowded window of the benchmark family (128 nodes).
inline WindowProblem crowded_window(std::int32_t jobs, std::int32_t bids, std::uint64_t seed) {
  return bench_family_window(128, jobs, bids, seed);
}

// Window `instance` of the bench's shape nodes x jobs x bids (`--busy busy`), with the
// bench's seed.
inline WindowProblem bench_window(std::int32_t nodes, std::int32_t jobs, std::int32_t bids,
                                  std::uint64_t instance, double busy = 0.5) {
  const std::uint64_t seed = 1000003ULL * static_cast<std::uint64_t>(nodes) +
                             7919ULL * static_cast<std::uint64_t>(jobs) +
                             31ULL * static_cast<std::uint64_t>(bids) + instance;
  return bench_family_window(nodes, jobs, bids, seed, busy);
}

// A tiny random window (4-12 nodes, 3 to 2 + job_spread jobs, 1-5 bids each), varied by seed.
inline RandomWindowSpec tiny_random_spec(std::uint64_t seed, std::int32_t job_spread) {
  RandomWindowSpec spec;
  spec.seed = seed;
  spec.nodes = 4 + static_cast<std::int32_t>(seed % 9);
  spec.jobs = 3 + static_cast<std::int32_t>(seed % static_cast<std::uint64_t>(job_spread));
  spec.max_bids_per_job = 1 + static_cast<std::int32_t>(seed % 5);
  spec.max_nodes_per_job = 1 + static_cast<std::int32_t>(seed % 4);
  spec.cores_per_node = 4 + static_cast<std::int32_t>(seed % 5);
  spec.gpus_per_node = static_cast<std::int32_t>(seed % 4);
  spec.busy_node_fraction = 0.6;
  return spec;
}

// Problem with `dims` dimensions and the same capacity on every node.
inline WindowProblem uniform_problem(std::int32_t jobs, std::int32_t nodes,
                                     std::vector<std::int32_t> per_node) {
  WindowProblem p;
  p.job_count = jobs;
  p.node_count = nodes;
  p.dims = static_cast<std::int32_t>(per_node.size());
  for (std::int32_t n = 0; n < nodes; ++n)
    p.capacity.insert(p.capacity.end(), per_node.begin(), per_node.end());
  return p;
}

// Adds a bid using the same amounts on every listed node; returns its index.
inline std::int32_t add_bid(WindowProblem& p, std::int32_t job, double value,
                            std::vector<std::int32_t> nodes, std::vector<std::int32_t> amounts) {
  Bid bid;
  bid.job = job;
  bid.value = value;
  for (std::int32_t n : nodes) {
    NodeUse use;
    use.node = n;
    for (std::size_t d = 0; d < amounts.size(); ++d) use.amount[d] = amounts[d];
    bid.uses.push_back(use);
  }
  p.bids.push_back(bid);
  return static_cast<std::int32_t>(p.bids.size()) - 1;
}

inline std::vector<std::int32_t> node_range(std::int32_t first, std::int32_t count) {
  std::vector<std::int32_t> nodes;
  for (std::int32_t n = first; n < first + count; ++n) nodes.push_back(n);
  return nodes;
}

// Random window of the benchmark family with the generator's other defaults.
inline WindowProblem random_window(std::int32_t nodes, std::int32_t jobs, std::uint64_t seed) {
  RandomWindowSpec spec;
  spec.nodes = nodes;
  spec.jobs = jobs;
  spec.seed = seed;
  return make_random_window(spec);
}

// Incumbent holding the given bids (assumed feasible together).
inline Incumbent incumbent_with(const CompactProblem& p, std::int64_t& effort,
                                const std::vector<std::int32_t>& bids) {
  Incumbent incumbent(p, effort);
  for (std::int32_t bid : bids) {
    incumbent.ledger.take(bid);
    incumbent.bid_of_job[p.job_of_bid[bid]] = bid;
    incumbent.objective += p.value[bid];
  }
  return incumbent;
}

}  // namespace hs::solver::testing
