// CGL's root cuts (CBC builds only): every cut holds for every feasible choice of bids, the
// cuts only lower the LP's value, and the work stays within the cap.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "solver/compact_problem.hpp"
#include "solver/random_instances.hpp"
#include "solver/window_lp.hpp"
#include "window_builders.hpp"
#ifdef HETSCHED_HAVE_CBC
#include "solver/cbc/cgl_root_cuts.hpp"
#include "solver/cbc/clp_relaxation.hpp"
#endif

namespace hs::solver {
namespace {

#ifdef HETSCHED_HAVE_CBC

bool fits(const CompactProblem& p, const std::vector<std::int32_t>& bid_of_job) {
  std::vector<std::int64_t> load(p.capacity.size(), 0);
  for (std::int32_t bid : bid_of_job) {
    if (bid < 0) continue;
    for (std::int32_t u = p.use_begin[bid]; u < p.use_begin[bid + 1]; ++u)
      for (std::int32_t d = 0; d < p.dims; ++d)
        load[static_cast<std::size_t>(p.use_node[u]) * p.dims + d] += p.use_amount[static_cast<std::size_t>(u) * p.dims + d];
  }
  for (std::size_t i = 0; i < load.size(); ++i)
    if (load[i] > p.capacity[i]) return false;
  return true;
}

// Calls f on every feasible choice (each job: no bid or one of its bids).
void for_each_feasible(const CompactProblem& p, const std::function<void(const std::vector<std::int32_t>&)>& f) {
  std::vector<std::int32_t> choice(p.jobs, -1);
  std::function<void(std::int32_t)> next = [&](std::int32_t job) {
    if (!fits(p, choice)) return;
    if (job == p.jobs) return f(choice);
    choice[job] = -1;
    next(job + 1);
    for (std::int32_t k = p.job_bid_begin[job]; k < p.job_bid_begin[job + 1]; ++k) {
      if (!p.usable[p.job_bids[k]]) continue;
      choice[job] = p.job_bids[k];
      next(job + 1);
    }
    choice[job] = -1;
  };
  next(0);
}

double activity(const MipRow& row, const std::vector<std::int32_t>& choice, const CompactProblem& p) {
  std::vector<double> x(static_cast<std::size_t>(p.bid_count()), 0.0);
  for (std::int32_t bid : choice)
    if (bid >= 0) x[bid] = 1.0;
  double sum = 0.0;
  for (std::size_t k = 0; k < row.columns.size(); ++k) sum += row.coefficients[k] * x[row.columns[k]];
  return sum;
}

TEST(CglRootCuts, EveryCutHoldsForEveryFeasibleChoice) {
  int windows_with_cuts = 0, cuts_checked = 0;
  for (int i = 0; i < 200; ++i) {
    RandomWindowSpec spec = testing::tiny_random_spec(9000 + i, 5);  // 3-7 jobs
    spec.busy_node_fraction = 0.8;
    const CompactProblem p = compact_used_nodes(make_random_window(spec));
    RootCutOptions options;
    options.effort_limit = 100'000'000;
    const RootCuts cuts = cgl_root_cuts(window_lp(p).model, options);
    windows_with_cuts += !cuts.rows.empty();
    for_each_feasible(p, [&](const std::vector<std::int32_t>& choice) {
      for (const MipRow& row : cuts.rows) {
        const double a = activity(row, choice, p);
        ++cuts_checked;
        ASSERT_LE(a, row.upper + 1e-6) << "window " << i;
        ASSERT_GE(a, row.lower - 1e-6) << "window " << i;
      }
    });
  }
  EXPECT_GE(windows_with_cuts, 20);  // the test must see cuts to mean anything
  EXPECT_GT(cuts_checked, 1000);
}

// From the basis of the LP's optimum the first solve takes no pivots, where from the slack
// basis it takes hundreds on a sparse window (window 1012 of 1024 x 200 x 15 at busy 0.3:
// 656 pivots, 2.7 M units); a basis of another size is not used.
TEST(CglRootCuts, StartFromAGivenBasisWithoutSolvingTheLpAgain) {
  const CompactProblem p = compact_used_nodes(testing::bench_window(1024, 200, 15, 1012, 0.3));
  const MipModel model = window_lp(p).model;
  ClpRelaxation relaxation(model);
  ASSERT_EQ(relaxation.solve(1'000'000), ClpRelaxation::Outcome::Optimal);
  RootCutOptions none;
  none.effort_limit = 100'000'000;
  none.max_rounds = 0;
  const RootCuts cold = cgl_root_cuts(model, none);
  none.start_basis = relaxation.basis();
  const RootCuts warm = cgl_root_cuts(model, none);
  ASSERT_TRUE(cold.lp_optimal);
  ASSERT_TRUE(warm.lp_optimal);
  EXPECT_NEAR(warm.lp_value, cold.lp_value, 1e-6 * std::fabs(cold.lp_value));
  EXPECT_NEAR(warm.lp_value, relaxation.objective(), 1e-6 * std::fabs(cold.lp_value));
  EXPECT_GT(cold.effort, 100 * static_cast<std::int64_t>(model.rows.size() + model.columns.size()));
  EXPECT_LT(warm.effort, cold.effort / 20);
  none.start_basis.pop_back();
  EXPECT_EQ(cgl_root_cuts(model, none).effort, cold.effort);
}

TEST(CglRootCuts, LowerTheLpValueOnACrowdedWindowWithinTheCap) {
  const CompactProblem p = compact_used_nodes(testing::crowded_window(50, 5, 5));
  const MipModel model = window_lp(p).model;
  RootCutOptions none;
  none.effort_limit = 100'000'000;
  none.max_rounds = 0;
  const RootCuts lp = cgl_root_cuts(model, none);
  ASSERT_TRUE(lp.lp_optimal);
  EXPECT_TRUE(lp.rows.empty());
  RootCutOptions rounds;
  rounds.effort_limit = 100'000'000;
  const RootCuts cut = cgl_root_cuts(model, rounds);
  ASSERT_TRUE(cut.lp_optimal);
  EXPECT_GT(cut.rounds, 0);
  EXPECT_FALSE(cut.rows.empty());
  EXPECT_LT(cut.lp_value, lp.lp_value * (1 - 1e-3));  // crowded windows: cuts close gap
  for (std::int64_t limit : {0LL, 1'000LL, 100'000LL, 1'000'000LL}) {
    RootCutOptions capped;
    capped.effort_limit = limit;
    const RootCuts r = cgl_root_cuts(model, capped);
    EXPECT_LE(r.effort, limit);
    if (!r.lp_optimal) {
      EXPECT_TRUE(r.rows.empty());
    }
  }
}

// Crowded window 5 (50 jobs, 5 bids each) with CGL's rounds uncapped, and its plain LP.
struct CrowdedRounds {
  MipModel model;
  RootCutOptions uncapped;
  RootCuts all;  // every round
  RootCuts lp;   // no round
};

CrowdedRounds crowded_rounds() {
  CrowdedRounds c;
  c.model = window_lp(compact_used_nodes(testing::crowded_window(50, 5, 5))).model;
  c.uncapped.effort_limit = 100'000'000;
  c.all = cgl_root_cuts(c.model, c.uncapped);
  RootCutOptions none = c.uncapped;
  none.max_rounds = 0;
  c.lp = cgl_root_cuts(c.model, none);
  return c;
}

// With a cutoff the LP cannot beat, the rounds end as soon as an LP value is at or below it:
// the tree's incumbent is then optimal, and further cuts would only cost time.
TEST(CglRootCuts, StopOnceTheLpCannotBeatTheCutoff) {
  const CrowdedRounds c = crowded_rounds();
  ASSERT_GT(c.all.rounds, 2);

  RootCutOptions above = c.uncapped;  // met by the first solve: no round at all
  above.cutoff = c.lp.lp_value;
  const RootCuts first = cgl_root_cuts(c.model, above);
  EXPECT_TRUE(first.lp_optimal);
  EXPECT_EQ(first.rounds, 0);
  EXPECT_TRUE(first.rows.empty());
  EXPECT_EQ(first.effort, c.lp.effort);

  RootCutOptions between = c.uncapped;  // met after some rounds, before the last
  between.cutoff = (c.lp.lp_value + c.all.lp_value) / 2;
  const RootCuts some = cgl_root_cuts(c.model, between);
  EXPECT_GT(some.rounds, 0);
  EXPECT_LT(some.rounds, c.all.rounds);
  EXPECT_LE(some.lp_value, *between.cutoff);
  EXPECT_FALSE(some.rows.empty());
}

// A cap that stops a round's re-solve drops that round only: the cuts of the rounds before
// it, with their LP value, are still handed to the tree (they were all lost before).
TEST(CglRootCuts, ACapThatStopsAReSolveKeepsTheEarlierRounds) {
  const CrowdedRounds c = crowded_rounds();
  const MipModel& model = c.model;
  const RootCutOptions& full = c.uncapped;
  const RootCuts& all = c.all;
  const double lp = c.lp.lp_value;
  ASSERT_GT(all.rounds, 2);
  int stopped_with_rounds = 0;
  for (std::int64_t limit = all.effort / 20; limit <= all.effort; limit += all.effort / 20) {
    RootCutOptions capped = full;
    capped.effort_limit = limit;
    const RootCuts r = cgl_root_cuts(model, capped);
    if (r.rounds == 0) continue;
    ++stopped_with_rounds;
    ASSERT_TRUE(r.lp_optimal) << "limit " << limit << ", " << r.rounds << " rounds";
    EXPECT_FALSE(r.rows.empty()) << "limit " << limit;
    EXPECT_LT(r.lp_value, lp) << "limit " << limit;
    EXPECT_LE(r.effort, limit);
  }
  EXPECT_GT(stopped_with_rounds, 10);
}

// A window of ~2,000 bids (window 1000 of the bench's 1024 x 200 x 15 at --busy 0.3): the
// first LP solve, charged 3 units per pivot and LP row or column, took ~9.5 M of the 10 M
// the tree gives the cuts; charged as the tree's own solves, it takes less than half.
TEST(CglRootCuts, TheFirstSolveIsChargedAsTheTreesOwnSolves) {
  const WindowProblem window = testing::bench_window(1024, 200, 15, 1000, 0.3);
  const MipModel model = window_lp(compact_used_nodes(window)).model;
  RootCutOptions none;
  none.effort_limit = 10'000'000;
  none.max_rounds = 0;
  const RootCuts lp = cgl_root_cuts(model, none);
  ASSERT_TRUE(lp.lp_optimal);
  EXPECT_LT(lp.effort, none.effort_limit / 2);
}

// Probing's time grows with the nonzeros times the mean row length: on windows whose rows
// hold dozens of bids (captured from replays: ~100) a round charged per nonzero alone let
// one probing call take 2.4 s. A round is now charged at least 3 units per nonzero × row
// length, and when that is out of reach the rounds run without probing.
TEST(CglRootCuts, ARoundOnLongRowsIsChargedForTheirLength) {
  const MipModel model = window_lp(compact_used_nodes(testing::bench_family_window(32, 200, 15, 3, 0.0))).model;
  std::int64_t nonzeros = 0;
  for (const MipRow& row : model.rows) nonzeros += static_cast<std::int64_t>(row.columns.size());
  const std::int64_t row_length = nonzeros / static_cast<std::int64_t>(model.rows.size());
  ASSERT_GE(row_length, 30) << "the window's rows are not long";
  RootCutOptions none;
  none.effort_limit = 1'000'000'000;
  none.max_rounds = 0;
  const RootCuts lp = cgl_root_cuts(model, none);
  RootCutOptions one = none;
  one.max_rounds = 1;
  const RootCuts round = cgl_root_cuts(model, one);
  ASSERT_TRUE(lp.lp_optimal);
  EXPECT_GE(round.effort - lp.effort, 3 * nonzeros * row_length);
  // Short of a round with probing, the round runs without it: the other five generators,
  // 4 units per nonzero each.
  RootCutOptions short_of_it = one;
  short_of_it.effort_limit = lp.effort + 2 * nonzeros * row_length;
  const RootCuts without_probing = cgl_root_cuts(model, short_of_it);
  EXPECT_GE(without_probing.effort - lp.effort, 5 * 4 * nonzeros);
  EXPECT_LT(without_probing.effort - lp.effort, 3 * nonzeros * row_length);
  EXPECT_LE(without_probing.effort, short_of_it.effort_limit);
}

// Every column in every row: `rows` knapsack rows over `columns` 0/1 columns.
MipModel dense_model(int rows, int columns) {
  MipModel model;
  model.maximize = true;
  for (int c = 0; c < columns; ++c) {
    MipColumn column;
    column.objective = 1.0 + c % 7;
    model.columns.push_back(column);
  }
  for (int r = 0; r < rows; ++r) {
    MipRow row;
    for (int c = 0; c < columns; ++c) {
      row.columns.push_back(c);
      row.coefficients.push_back(1.0 + (r * 31 + c * 17) % 13);
    }
    row.upper = 60.0 + r % 11;
    model.rows.push_back(std::move(row));
  }
  return model;
}

// What one round of cuts on `model` is charged beyond its first solve, with `room` units
// for it beyond that solve (0: no limit).
std::int64_t one_round_charge(const MipModel& model, std::int64_t room = 0) {
  RootCutOptions none;
  none.effort_limit = 1'000'000'000;
  none.max_rounds = 0;
  const RootCuts lp = cgl_root_cuts(model, none);
  EXPECT_TRUE(lp.lp_optimal);
  RootCutOptions one = none;
  one.max_rounds = 1;
  if (room > 0) one.effort_limit = lp.effort + room;
  return cgl_root_cuts(model, one).effort - lp.effort;
}

// The generators other than probing took 10–90 ns per nonzero on windows of rows of ~100
// bids (against ~1,000 on crowded ones): their nonzeros are counted up to 10 per LP row or
// column.
TEST(CglRootCuts, OtherGeneratorsOnLongRowsAreChargedForTheLpsSize) {
  const int rows = 600, columns = 60;
  const std::int64_t nonzeros = std::int64_t{rows} * columns;
  // Short of a round with probing (6.5 M).
  const std::int64_t charged = one_round_charge(dense_model(rows, columns), 1'000'000);
  EXPECT_GE(charged, 5 * 4 * 10 * std::int64_t{rows + columns});
  EXPECT_LT(charged, 5 * 4 * nonzeros);
}

// Probing reads only rows of at most 64 bids, and is charged for those: on windows captured
// from replays, rows of 100–250 bids made one probing call take 200–500 ms. A round on rows
// of 100 is charged for the other generators alone.
TEST(CglRootCuts, ProbingLeavesRowsOfMoreThan64BidsUnreadAndUncharged) {
  const int rows = 200, columns = 100;
  const std::int64_t nonzeros = std::int64_t{rows} * columns;
  EXPECT_LT(one_round_charge(dense_model(rows, columns)), 3 * nonzeros * columns);
}

#else

TEST(CglRootCuts, NeedsCbc) { GTEST_SKIP() << "built without CBC"; }

#endif

}  // namespace
}  // namespace hs::solver
