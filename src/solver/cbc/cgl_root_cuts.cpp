#include "solver/cbc/cgl_root_cuts.hpp"

#include "solver/cbc/coin_matrix.hpp"

#include <CglClique.hpp>
#include <CglGomory.hpp>
#include <CglKnapsackCover.hpp>
#include <CglProbing.hpp>
#include <CglTwomir.hpp>
#include <CglZeroHalf.hpp>
#include <ClpSimplex.hpp>
#include <ClpSolve.hpp>
#include <CoinWarmStartBasis.hpp>
#include <CoinPackedMatrix.hpp>
#include <OsiClpSolverInterface.hpp>
#include <OsiCuts.hpp>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <memory>

namespace hs::solver {

namespace {

// Work units per pivot and LP row or column in a re-solve through OSI (which refactorizes
// after every round of cuts), and for a round of separation (below): set so that a unit
// costs about what one costs in the tree (≈ 39 ns here; session 31 timed 20 crowded
// windows, re-solves at 14.5 ns per unit of the former 8, so 3).
constexpr std::int64_t kResolveUnits = 3;
// Probing scans, for each variable it probes, the rows of that variable; its time grows with
// the nonzeros times the mean row length, not with the nonzeros alone. Timed in session 32:
// 104 ns per nonzero × mean row length on crowded 128-node windows (rows of ~10), 84–250 ns
// on windows captured from replays (rows of ~100 bids, where 8 units per nonzero had let one
// probing call take 2.4 s) and on ~2,000-bid ones. The other generators cost 790 ns per
// nonzero together on the crowded windows, about 4 units each; with probing at 3 units per
// nonzero × row length a crowded round is charged what it was.
constexpr std::int64_t kProbingUnits = 3;
constexpr std::int64_t kOtherGeneratorUnits = 4;
// Probing reads only rows of at most this many bids (CglProbing's root row-length limit),
// and is charged for those. On windows captured from replays, once their dominated capacity
// rows are gone, rows of 100–250 bids made one probing call take 200–500 ms for 2–4 M units
// charged; without them it takes 1–13 ms and finds the same proofs. Crowded and sparse
// random windows have shorter rows (some cuts aside): alone, this limit kept the 129
// proofs of 180 crowded windows (session 34).
constexpr int kProbingMaxRowLength = 64;
// The other generators' work follows the LP's tableau more than its rows' length: on windows
// of rows of ~100 bids they took 10–90 ns per nonzero together, against 390–1,770 on crowded
// ones and 280–1,850 on ~2,000-bid ones (session 33, thread CPU time). Their nonzeros are
// counted up to 10 per LP row or column, which leaves the latter two as they were.
constexpr std::int64_t kOtherGeneratorNonzerosPerRowOrColumn = 10;
// The first solve of the LP is charged per pivot and row or column as the tree charges its
// own solves (1 unit): it is the same dual simplex without a refactorization per round.
// Timed in session 32 at 8.7 ns per pivot × (rows + columns) on ~2,000-bid windows and 29 ns
// on crowded 128-node ones; at 3 units it had taken ~9.5 M of the cuts' 10 M on the former.
constexpr std::int64_t kInitialSolveUnits = 1;

// A cut counts as tight (kept) when its activity is within this of a bound.
constexpr double kTight = 1e-6;

void load(OsiClpSolverInterface& si, const MipModel& model) {
  const CoinArrays a = coin_arrays(model, 1.0);  // OSI takes the sense separately
  si.loadProblem(row_matrix(model), a.col_lb.data(), a.col_ub.data(), a.obj.data(),
                 a.row_lb.data(), a.row_ub.data());
  si.setObjSense(model.maximize ? -1.0 : 1.0);
  for (std::size_t c = 0; c < model.columns.size(); ++c)
    if (model.columns[c].integer) si.setInteger(static_cast<int>(c));
  si.messageHandler()->setLogLevel(0);
  si.getModelPtr()->setLogLevel(0);
  // CLP's presolve on the first solve is work the budget cannot see: on windows captured
  // from replays (rows of a hundred bids, ~300,000 nonzeros) it took 45–75 ms of a solve of
  // 3–21 pivots; the pivots are the same without it.
  ClpSolve solve_options;
  solve_options.setPresolveType(ClpSolve::presolveOff);
  si.setSolveOptions(solve_options);
}

// CBC's default root generators but MIR and flow covers (which find nothing on window
// models). Probing, without the objective, finds the implications of the job and capacity
// rows: on crowded 128-node windows it closes more of the gap than all the others. It comes
// first (`separation_cost` charges the first generator as probing).
std::vector<std::unique_ptr<CglCutGenerator>> generators() {
  std::vector<std::unique_ptr<CglCutGenerator>> g;
  auto probing = std::make_unique<CglProbing>();
  probing->setUsingObjective(0);
  probing->setMaxPass(1);
  probing->setMaxElementsRoot(kProbingMaxRowLength);
  probing->setMaxProbeRoot(200);
  probing->setMaxLookRoot(200);
  probing->setRowCuts(3);
  g.push_back(std::move(probing));
  g.push_back(std::make_unique<CglGomory>());
  g.push_back(std::make_unique<CglKnapsackCover>());
  g.push_back(std::make_unique<CglTwomir>());
  g.push_back(std::make_unique<CglZeroHalf>());
  auto clique = std::make_unique<CglClique>();
  clique->setStarCliqueReport(false);
  clique->setRowCliqueReport(false);
  g.push_back(std::move(clique));
  return g;
}

bool tight(const OsiClpSolverInterface& si, int row) {
  const double activity = si.getRowActivity()[row];
  const double lo = si.getRowLower()[row], up = si.getRowUpper()[row];
  return (up < DBL_MAX && activity > up - kTight) || (lo > -DBL_MAX && activity < lo + kTight);
}

// Deletes the cuts (rows from `first_cut` on) that are slack at the LP solution, as CBC does
// between rounds: they no longer shape the optimum, and kept they slow every later round.
void drop_slack_cuts(OsiClpSolverInterface& si, int first_cut) {
  std::vector<int> slack;
  for (int r = first_cut; r < si.getNumRows(); ++r)
    if (!tight(si, r)) slack.push_back(r);
  if (!slack.empty()) si.deleteRows(static_cast<int>(slack.size()), slack.data());
}

std::vector<MipRow> cut_rows(const OsiClpSolverInterface& si, int first_cut) {
  std::vector<MipRow> rows;
  const CoinPackedMatrix* m = si.getMatrixByRow();
  for (int r = first_cut; r < si.getNumRows(); ++r) {
    const CoinShallowPackedVector v = m->getVector(r);
    MipRow row;
    row.columns.assign(v.getIndices(), v.getIndices() + v.getNumElements());
    row.coefficients.assign(v.getElements(), v.getElements() + v.getNumElements());
    const double lo = si.getRowLower()[r], up = si.getRowUpper()[r];
    row.lower = from_coin_bound(lo);
    row.upper = from_coin_bound(up);
    rows.push_back(std::move(row));
  }
  return rows;
}

class CutRounds {
 public:
  CutRounds(const MipModel& model, const RootCutOptions& options) : options_(options) {
    load(si_, model);
    first_cut_ = si_.getNumRows();
  }

  RootCuts run() {
    if (si_.getNumRows() == 0 || si_.getNumCols() == 0) return out_;  // nothing to cut
    if (!solve(true) || cut_off()) return out_;
    const auto gens = generators();
    const std::int64_t others = static_cast<std::int64_t>(gens.size()) - 1;
    // Probing's cost grows with the rows' length. On windows of long rows (captured from
    // replays) a round with it is out of reach, and the other generators alone are affordable
    // and often close the gap; elsewhere rounds probe until probing finds nothing.
    bool probing = room() >= separation_cost(true, others) + resolve_cost();
    int stalled = 0;  // rounds in a row that lowered the LP by less than min_relative_gain
    for (int round = 0; round < options_.max_rounds; ++round) {
      const std::int64_t separation = separation_cost(probing, others);
      if (room() < separation + resolve_cost()) break;
      OsiCuts cuts;
      CglTreeInfo info;
      info.level = 0;
      info.pass = round;
      info.inTree = false;
      const int probing_cuts = generate(gens, probing, cuts, info);
      out_.effort += separation;
      // Probing without the objective finds the rows' implications, most of them in its
      // first round: once a round finds none, later rounds leave it out (captured windows:
      // 20 rounds of 6 ms each for nothing).
      if (probing_cuts == 0) probing = false;
      if (cuts.sizeRowCuts() == 0) break;
      si_.applyCuts(cuts);
      const double before = out_.lp_value;
      if (!solve(false)) return last_solved_round(before);
      ++out_.rounds;
      drop_slack_cuts(si_, first_cut_);
      kept_ = cut_rows(si_, first_cut_);
      if (cut_off()) break;
      const bool small = std::fabs(before - out_.lp_value) < options_.min_relative_gain * std::fabs(before);
      stalled = small ? stalled + 1 : 0;
      if (stalled >= options_.stall_rounds) break;
    }
    out_.rows = std::move(kept_);
    return out_;
  }

 private:
  // A round of the generators, probing (the first) only when `probing`; the row cuts
  // probing found.
  int generate(const std::vector<std::unique_ptr<CglCutGenerator>>& gens, bool probing,
               OsiCuts& cuts, CglTreeInfo& info) {
    int probing_cuts = 0;
    if (probing) {
      gens[0]->generateCuts(si_, cuts, info);
      probing_cuts = cuts.sizeRowCuts();
    }
    for (std::size_t k = 1; k < gens.size(); ++k) gens[k]->generateCuts(si_, cuts, info);
    return probing_cuts;
  }

  // The LP's value can no longer beat the caller's cutoff.
  bool cut_off() const {
    if (!options_.cutoff) return false;
    return si_.getObjSense() < 0 ? out_.lp_value <= *options_.cutoff : out_.lp_value >= *options_.cutoff;
  }

  std::int64_t resolve_cost() const { return kResolveUnits * lp_size(); }
  // A round of probing (the first generator, when `probing`) and `others` generators.
  std::int64_t separation_cost(bool probing, std::int64_t others) const {
    const std::int64_t nonzeros = si_.getMatrixByRow()->getNumElements();
    const std::int64_t bounded = std::min(nonzeros, kOtherGeneratorNonzerosPerRowOrColumn * lp_size());
    return (probing ? probing_cost() : 0) + kOtherGeneratorUnits * bounded * others;
  }
  // Probing's nonzeros times their rows' mean length, over the rows it reads.
  std::int64_t probing_cost() const {
    const CoinPackedMatrix* matrix = si_.getMatrixByRow();
    std::int64_t nonzeros = 0, rows = 0;
    for (int r = 0; r < si_.getNumRows(); ++r) {
      const int length = matrix->getVectorSize(r);
      if (length > kProbingMaxRowLength) continue;
      nonzeros += length;
      ++rows;
    }
    const std::int64_t row_length = std::max<std::int64_t>(1, nonzeros / std::max<std::int64_t>(1, rows));
    return kProbingUnits * nonzeros * row_length;
  }
  std::int64_t lp_size() const {
    return std::max<std::int64_t>(1, si_.getNumRows() + si_.getNumCols());
  }
  std::int64_t room() const { return options_.effort_limit - out_.effort; }

  // The LP within what is left; false (and no cuts) when it does not end optimal.
  bool solve(bool initial) {
    const std::int64_t pivot = initial ? kInitialSolveUnits * lp_size() : resolve_cost();
    if (room() < pivot) return fail();
    si_.getModelPtr()->setMaximumIterations(static_cast<int>(std::min<std::int64_t>(room() / pivot, 1 << 30)));
    if (initial && !warm_start()) si_.initialSolve();
    else si_.resolve();
    out_.effort += si_.getIterationCount() * pivot;
    if (!si_.isProvenOptimal()) return fail();
    out_.lp_optimal = true;
    out_.lp_value = si_.getObjValue();
    return true;
  }

  // Sets the options' start basis as the LP's warm start; false when there is none to set.
  bool warm_start() {
    const std::size_t n = static_cast<std::size_t>(si_.getNumCols() + si_.getNumRows());
    if (options_.start_basis.size() != n) return false;
    const std::unique_ptr<CoinWarmStartBasis> basis(si_.getBasis(options_.start_basis.data()));
    return si_.setWarmStart(basis.get());
  }

  bool fail() {
    out_.lp_optimal = false;
    out_.rows.clear();
    return false;
  }

  // A round's re-solve ran out of room: its cuts are dropped, and those of the last round
  // whose LP solved are kept with that LP's value (losing them all cost crowded windows up
  // to 3 % of bound).
  RootCuts last_solved_round(double value) {
    out_.rows = std::move(kept_);
    out_.lp_optimal = true;
    out_.lp_value = value;
    return out_;
  }

  OsiClpSolverInterface si_;
  RootCutOptions options_;
  int first_cut_ = 0;
  std::vector<MipRow> kept_;  // the cuts after the last round whose LP solved
  RootCuts out_;
};

}  // namespace

RootCuts cgl_root_cuts(const MipModel& model, const RootCutOptions& options) {
  return CutRounds(model, options).run();
}

}  // namespace hs::solver
