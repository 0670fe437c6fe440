// Conflict cliques (conflict_cliques.hpp): every clique found is one (its bids conflict
// pairwise, by job or by a capacity row), of at least 3 bids of at least 2 jobs, found once;
// the work limit is kept, and a smaller limit finds a prefix of a larger one's cliques; a
// triangle of bids on three nodes that no single row excludes is found; every step of the
// greedy clique is charged; a pair of bids that overflow many rows together is listed once.
#include <gtest/gtest.h>

#include <set>

#include "solver/compact_problem.hpp"
#include "solver/conflict_cliques.hpp"
#include "solver/window_lp.hpp"
#include "window_builders.hpp"

namespace hs::solver {
namespace {

using testing::add_bid;

// Every row of the window's LP as a capacity row (its job and clique rows, Σ x <= 1, give
// conflicts that hold too).
std::vector<CapacityRowView> capacity_rows(const WindowLp& lp) {
  std::vector<CapacityRowView> views;
  for (const MipRow& row : lp.model.rows) views.push_back({&row, static_cast<std::int64_t>(row.upper)});
  return views;
}

// Whether bids a and b conflict: one job, or together more than some node's capacity.
bool conflict(const WindowProblem& w, std::int32_t a, std::int32_t b) {
  if (w.bids[a].job == w.bids[b].job) return true;
  for (const NodeUse& ua : w.bids[a].uses)
    for (const NodeUse& ub : w.bids[b].uses) {
      if (ua.node != ub.node) continue;
      for (std::int32_t d = 0; d < w.dims; ++d)
        if (ua.amount[d] + ub.amount[d] > w.cap(ua.node, d)) return true;
    }
  return false;
}

TEST(ConflictCliques, EveryCliqueFoundIsOneOfThreeBidsOrMoreOfTwoJobs) {
  for (std::uint64_t instance : {1000ULL, 1001ULL}) {
    const WindowProblem w = testing::bench_window(128, 50, 15, instance);
    const CompactProblem p = compact_used_nodes(w);
    const ConflictCliques found = conflict_cliques(p, capacity_rows(window_lp(p)), 100'000'000);
    ASSERT_FALSE(found.cliques.empty());
    std::set<std::vector<std::int32_t>> distinct(found.cliques.begin(), found.cliques.end());
    EXPECT_EQ(distinct.size(), found.cliques.size());
    for (const auto& clique : found.cliques) {
      ASSERT_GE(clique.size(), 3u);
      std::set<std::int32_t> jobs;
      for (std::size_t x = 0; x < clique.size(); ++x) {
        jobs.insert(w.bids[clique[x]].job);
        for (std::size_t y = x + 1; y < clique.size(); ++y)
          EXPECT_TRUE(conflict(w, clique[x], clique[y])) << clique[x] << " " << clique[y];
      }
      EXPECT_GE(jobs.size(), 2u);
    }
  }
}

TEST(ConflictCliques, KeepsTheWorkLimitAndFindsAPrefixUnderASmallerOne) {
  const WindowProblem w = testing::bench_window(1024, 200, 15, 1015, 0.3);
  const CompactProblem p = compact_used_nodes(w);
  const WindowLp lp = window_lp(p);
  const ConflictCliques all = conflict_cliques(p, capacity_rows(lp), 1'000'000'000);
  ASSERT_GT(all.cliques.size(), 100u);
  const std::int64_t half = all.work / 2;
  for (std::int64_t limit : {std::int64_t{0}, std::int64_t{1'000}, std::int64_t{300'000}, half}) {
    const ConflictCliques part = conflict_cliques(p, capacity_rows(lp), limit);
    EXPECT_LE(part.work, limit);
    ASSERT_LE(part.cliques.size(), all.cliques.size());
    for (std::size_t k = 0; k < part.cliques.size(); ++k) EXPECT_EQ(part.cliques[k], all.cliques[k]);
  }
  EXPECT_EQ(conflict_cliques(p, capacity_rows(lp), all.work).cliques, all.cliques);
}

// Three jobs on three nodes of one core, each bid on two of them: every two bids share a
// node, no node holds all three, so no capacity row or half-row clique excludes the three
// together; the LP without the clique starts each at one half.
TEST(ConflictCliques, FindsATriangleNoRowShows) {
  WindowProblem w = testing::uniform_problem(3, 3, {1});
  add_bid(w, 0, 5.0, {0, 1}, {1});
  add_bid(w, 1, 5.0, {1, 2}, {1});
  add_bid(w, 2, 5.0, {0, 2}, {1});
  const CompactProblem p = compact_used_nodes(w);
  const ConflictCliques found = conflict_cliques(p, capacity_rows(window_lp(p)), 1'000'000);
  ASSERT_EQ(found.cliques.size(), 1u);
  EXPECT_EQ(found.cliques[0], (std::vector<std::int32_t>{0, 1, 2}));
  std::int64_t work = 0;
  const std::vector<MipRow> rows = conflict_clique_rows(p, window_lp(p), 1'000'000, work);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].columns, found.cliques[0]);
  EXPECT_EQ(rows[0].upper, 1.0);
  EXPECT_GT(work, 0);
}

// n one-bid jobs on one node of one core: every two bids conflict, and the first seed's
// greedy clique takes all n, one candidate a step. The work is what each step touches,
// charged before it runs (conflict_cliques.cpp), the scans for the best candidate included.
TEST(ConflictCliques, ChargesEveryStepOfTheGreedyClique) {
  constexpr std::int64_t n = 40;
  WindowProblem w = testing::uniform_problem(n, 1, {1});
  MipRow row;
  row.upper = 1.0;
  for (std::int32_t j = 0; j < n; ++j) {
    row.columns.push_back(add_bid(w, j, 10.0 - 0.1 * j, {0}, {1}));
    row.coefficients.push_back(1.0);
  }
  const CompactProblem p = compact_used_nodes(w);
  const ConflictCliques found = conflict_cliques(p, {{&row, 1}}, 1'000'000);
  ASSERT_EQ(found.cliques.size(), 1u);
  EXPECT_EQ(found.cliques[0].size(), static_cast<std::size_t>(n));
  const std::int64_t graph = n            // each job's one bid
                             + 2 * n      // the row sorted by amount
                             + n * (n - 1)  // its pairs, two entries each
                             + n * n;     // each bid's n - 1 conflicts sorted, plus one
  const std::int64_t seeds_order = n;
  const std::int64_t links = (n - 1) + (n - 1) * (n - 1);  // the candidates' conflict counts
  std::int64_t steps = 0;
  for (std::int64_t candidates = n - 1; candidates >= 1; --candidates)
    steps += 2 * candidates  // the scan for the best candidate and the sifting
             + (n - 1)       // the chosen bid's conflicts marked
             + 1 + (n - 1);  // the chosen bid dropped from the candidates' counts
  EXPECT_EQ(found.work, graph + seeds_order + links + steps + n /* the clique sorted */);
}

// Three one-bid jobs, each bid on the same ten nodes of one core: every two bids overflow
// all ten rows together. Each pair is listed once, not once a row: each bid visits its two
// partners on every row (one unit a visit), and its list of two is charged once.
TEST(ConflictCliques, APairMetOnManyRowsIsListedOnce) {
  WindowProblem w = testing::uniform_problem(3, 10, {1});
  for (std::int32_t j = 0; j < 3; ++j) add_bid(w, j, 10.0 - j, testing::node_range(0, 10), {1});
  std::vector<MipRow> rows(10);
  std::vector<CapacityRowView> views;
  for (MipRow& row : rows) {
    row.columns = {0, 1, 2};
    row.coefficients = {1.0, 1.0, 1.0};
    row.upper = 1.0;
    views.push_back({&row, 1});
  }
  const CompactProblem p = compact_used_nodes(w);
  const ConflictCliques found = conflict_cliques(p, views, 1'000'000);
  ASSERT_EQ(found.cliques.size(), 1u);
  EXPECT_EQ(found.cliques[0], (std::vector<std::int32_t>{0, 1, 2}));
  const std::int64_t graph = 3           // each job's one bid
                             + 10 * 2 * 3  // each row sorted by amount
                             + 3 * 10 * 2  // each bid's two partners on each row
                             + 3 * (2 + 1);  // each bid's list of two
  const std::int64_t greedy = (2 + 2 + 2)      // the seed's candidates and their conflicts
                              + 2 * 2 + 2 + 3  // a step over two candidates
                              + 2 * 1 + 2 + 3  // a step over one
                              + 3;             // the clique sorted
  EXPECT_EQ(found.work, graph + 3 /* the seeds' order */ + greedy);
}

}  // namespace
}  // namespace hs::solver
