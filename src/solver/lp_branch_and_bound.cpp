#include "solver/lp_branch_and_bound.hpp"

#include <algorithm>
#include <limits>

#include "solver/cover_cuts.hpp"
#include "solver/incumbent.hpp"
#ifdef HETSCHED_HAVE_CBC
#include "solver/cbc/cgl_root_cuts.hpp"
#include "solver/cbc/clp_relaxation.hpp"
#endif


namespace hs::solver {

#ifdef HETSCHED_HAVE_CBC

namespace {

constexpr double kIntegral = 1e-6;  // a column value this close to 0 or 1 counts as integral
constexpr int kCutRounds = 20;      // rounds of cover cuts at the root
constexpr int kNodeCutRounds = 2;   // and at every node of the tree
constexpr std::int64_t kNeighbourhoodShare = 4;  // RINS gets 1/4 of what the cuts left
constexpr std::int64_t kLibraryCutShare = 2;  // CGL's root rounds get 1/2 of the tree's budget

class LpSearch {
 public:
  LpSearch(const CompactProblem& p, const WindowLp& window, Budget& budget,
           std::vector<std::int32_t>& best)
      : p_(p), model_(window.model), job_row_(window.job_row), rows_(window.model.rows), lp_(window.model), budget_(budget), best_(best), best_value_(objective_of(p, best)),
        trial_(p, budget.effort()),
        pivot_cost_(static_cast<std::int64_t>(window.model.rows.size() + window.model.columns.size())),
        node_cost_(static_cast<std::int64_t>(window.model.columns.size())) {
    lp_.set_cutoff(best_value_ + optimality_tolerance(best_value_));
  }

  LpSearchResult run() {
    add_library_cuts();
    add_root_cuts();
    search_near_root_solution();
    node(std::numeric_limits<double>::infinity());
    LpSearchResult result;
    result.complete = !aborted_;
    result.nodes = nodes_;
    result.bound = aborted_ ? std::max(best_value_, open_bound_) : best_value_;
    return result;
  }

 private:
  struct Change {
    std::int32_t column;
    bool lower;  // which bound was changed
    double before;
  };

  // CGL's generators at the root (probing, Gomory, lifted covers, …) within a share of
  // the budget; their cuts stay for the whole tree.
  void add_library_cuts() {
    RootCutOptions options;
    options.effort_limit = (budget_.limit() - budget_.spent()) / kLibraryCutShare;
    const RootCuts cuts = cgl_root_cuts(model_, options);
    budget_.effort() += cuts.effort;
    lp_.add_rows(cuts.rows);
    pivot_cost_ += static_cast<std::int64_t>(cuts.rows.size());
  }

  // Solves the root LP with the pivots the budget leaves; true when it ends optimal.
  bool solve_root() {
    const std::int64_t room = budget_.limit() - budget_.spent();
    if (room < pivot_cost_) return false;
    const ClpRelaxation::Outcome outcome = lp_.solve(room / pivot_cost_);
    budget_.effort() += lp_.last_iterations() * pivot_cost_;
    return outcome == ClpRelaxation::Outcome::Optimal;
  }

  // Rounds of cover cuts at the root while they cut off the LP solution.
  void add_root_cuts() {
    for (int round = 0; round < kCutRounds; ++round)
      if (!solve_root() || !add_cover_cuts()) return;
  }

  // One round of cover cuts at the current LP solution; false when none is violated or the
  // separation is not affordable. The cuts hold for every integer choice, so they stay for
  // the rest of the search, wherever in the tree they were found.
  bool add_cover_cuts() {
    if (!budget_.affordable(static_cast<std::int64_t>(rows_.size()) + node_cost_)) return false;
    x_.resize(static_cast<std::size_t>(p_.bid_count()));
    for (std::int32_t c = 0; c < p_.bid_count(); ++c) x_[c] = lp_.value(c);
    std::vector<MipRow> cuts = separate_covers(rows_, x_);
    budget_.effort() += static_cast<std::int64_t>(rows_.size()) + node_cost_;
    if (cuts.empty()) return false;
    lp_.add_rows(cuts);
    for (MipRow& cut : cuts) {
      pivot_cost_ += 1;
      rows_.push_back(std::move(cut));
    }
    return true;
  }

  // Cover cuts at a tree node, the node's LP re-solved after each round; false when the
  // node is done. On crowded windows they shrink the tree a proof needs by more than half.
  bool cut_node(double parent_bound) {
    for (int round = 0; round < kNodeCutRounds; ++round) {
      if (!add_cover_cuts()) return true;
      if (!resolve_node(parent_bound)) return false;
    }
    return true;
  }

  // RINS (relaxation induced neighbourhood search): the bids on which the root LP and the
  // incumbent agree are fixed (chosen, or left out) and the rest searched by the same tree
  // within a share of the budget. It finds better incumbents on crowded windows, where the
  // rounding of the LP does not, and a better incumbent prunes more of the full tree.
  void search_near_root_solution() {
    if (budget_.exhausted() || !solve_root() || prunable(lp_.objective())) return;
    const double root = lp_.objective();
    std::vector<Change> fixed;
    for (std::int32_t c = 0; c < p_.bid_count(); ++c) {
      if (lp_.upper(c) - lp_.lower(c) < 0.5) continue;
      const bool chosen = best_[p_.job_of_bid[c]] == c;
      const double x = lp_.value(c);
      if (chosen && x > 1.0 - kIntegral) set(c, true, 1.0, fixed);
      else if (!chosen && x < kIntegral) set(c, false, 0.0, fixed);
    }
    budget_.effort() += node_cost_;
    pending_.push_back(root);  // an abort in here leaves the root's bound open
    neighbourhood_end_ = budget_.spent() + (budget_.limit() - budget_.spent()) / kNeighbourhoodShare;
    node(root);
    neighbourhood_end_ = -1;
    pending_.pop_back();
    undo(fixed);
  }

  bool prunable(double bound) const {
    return bound <= best_value_ + optimality_tolerance(best_value_);
  }

  // Solves the node's LP within the budget; false when the node is done (pruned, or the
  // search was aborted and `parent_bound` is left open).
  bool solve_node(double parent_bound) {
    if (!may_solve(parent_bound)) return false;
    ++nodes_;
    return solve_lp(parent_bound);
  }

  // The same node's LP again, after cuts were added.
  bool resolve_node(double parent_bound) { return may_solve(parent_bound) && solve_lp(parent_bound); }

  bool may_solve(double parent_bound) {
    const std::int64_t room = budget_.limit() - budget_.spent() - node_cost_;
    if (aborted_ || room < pivot_cost_ || budget_.exhausted()) return abort(parent_bound);
    return neighbourhood_end_ < 0 || budget_.spent() < neighbourhood_end_;
  }

  bool solve_lp(double parent_bound) {
    const std::int64_t room = budget_.limit() - budget_.spent() - node_cost_;
    budget_.effort() += node_cost_;
    const ClpRelaxation::Outcome outcome = lp_.solve(room / pivot_cost_);
    budget_.effort() += lp_.last_iterations() * pivot_cost_;
    if (outcome == ClpRelaxation::Outcome::IterationLimit) return abort(parent_bound);
    return outcome == ClpRelaxation::Outcome::Optimal && !prunable(lp_.objective());
  }

  bool abort(double open) {
    if (!aborted_) open_bound_ = std::max(open, pending_max());
    aborted_ = true;
    return false;
  }

  double pending_max() const {
    double m = -std::numeric_limits<double>::infinity();
    for (double b : pending_) m = std::max(m, b);
    return m;
  }

  void node(double parent_bound) {
    if (!solve_node(parent_bound) || !cut_node(parent_bound)) return;
    const double bound = lp_.objective();
    round_solution();
    if (prunable(bound)) return;
    std::vector<Change> fixed;
    fix_by_reduced_cost(bound, fixed);
    const std::int32_t job = branching_job();
    const std::int32_t column = job >= 0 ? -1 : branching_column();
    if (job >= 0) {
      pending_.push_back(bound);
      branch_job(job, true, bound);
      pending_.pop_back();
      if (!prunable(bound)) branch_job(job, false, bound);
    } else if (column < 0) {
      adopt_integral();
    } else {
      pending_.push_back(bound);
      branch(column, true, 1.0, bound);
      pending_.pop_back();
      if (!prunable(bound)) branch(column, false, 0.0, bound);
    }
    undo(fixed);
  }

  void branch(std::int32_t column, bool lower, double value, double bound) {
    std::vector<Change> change;
    set(column, lower, value, change);
    node(bound);
    undo(change);
  }

  // A job that the LP starts only in part (Σ x of its bids fractional): the most nearly
  // started one (ties: the lower index); -1 when every job is started wholly or not at all.
  std::int32_t branching_job() const {
    std::int32_t chosen = -1;
    double best_share = 0.0;
    for (std::int32_t j = 0; j < p_.jobs; ++j) {
      if (job_row_[j] < 0) continue;
      double share = 0.0;
      for (std::int32_t k = p_.job_bid_begin[j]; k < p_.job_bid_begin[j + 1]; ++k)
        share += lp_.value(p_.job_bids[k]);
      if (share < kIntegral || share > 1.0 - kIntegral) continue;
      if (chosen < 0 || share > best_share + 1e-9) {
        chosen = j;
        best_share = share;
      }
    }
    return chosen;
  }

  // Starts the job (its row's lower bound 1), or excludes all its bids.
  void branch_job(std::int32_t job, bool start, double bound) {
    std::vector<Change> change;
    if (start) {
      const std::int32_t row = job_row_[job];
      const double before = lp_.row_lower(row);
      lp_.set_row_lower(row, 1.0);
      node(bound);
      lp_.set_row_lower(row, before);
      return;
    }
    for (std::int32_t k = p_.job_bid_begin[job]; k < p_.job_bid_begin[job + 1]; ++k)
      if (lp_.upper(p_.job_bids[k]) > 0.5) set(p_.job_bids[k], false, 0.0, change);
    node(bound);
    undo(change);
  }

  void set(std::int32_t column, bool lower, double value, std::vector<Change>& log) {
    log.push_back({column, lower, lower ? lp_.lower(column) : lp_.upper(column)});
    if (lower) lp_.set_lower(column, value);
    else lp_.set_upper(column, value);
  }

  void undo(std::vector<Change>& log) {
    for (auto it = log.rbegin(); it != log.rend(); ++it) {
      if (it->lower) lp_.set_lower(it->column, it->before);
      else lp_.set_upper(it->column, it->before);
    }
    log.clear();
  }

  // A bid at 0 whose reduced cost says that choosing it cannot beat the best is excluded
  // below this node; a bid at 1 whose removal cannot, is fixed.
  void fix_by_reduced_cost(double bound, std::vector<Change>& log) {
    for (std::int32_t c = 0; c < p_.bid_count(); ++c) {
      if (lp_.upper(c) - lp_.lower(c) < 0.5) continue;
      const double x = lp_.value(c), d = lp_.reduced_cost(c);
      if (x < kIntegral && prunable(bound + d)) set(c, false, 0.0, log);
      else if (x > 1.0 - kIntegral && prunable(bound - d)) set(c, true, 1.0, log);
    }
  }

  // The fractional bid closest to 1 (ties: the more valuable, then the lower index); -1
  // when the LP solution is integral.
  std::int32_t branching_column() const {
    std::int32_t chosen = -1;
    double best_x = 0.0;
    for (std::int32_t c = 0; c < p_.bid_count(); ++c) {
      const double x = lp_.value(c);
      if (x < kIntegral || x > 1.0 - kIntegral) continue;
      if (chosen < 0 || x > best_x + 1e-9 ||
          (x > best_x - 1e-9 && p_.value[c] > p_.value[chosen])) {
        chosen = c;
        best_x = x;
      }
    }
    return chosen;
  }

  void adopt_integral() {
    std::vector<std::int32_t> choice(p_.jobs, -1);
    for (std::int32_t c = 0; c < p_.bid_count(); ++c)
      if (lp_.value(c) > 0.5) choice[p_.job_of_bid[c]] = c;
    offer(choice);
  }

  // Greedy insertion in descending LP value (ties by bid value) of the bids the LP uses.
  void round_solution() {
    order_.clear();
    for (std::int32_t c = 0; c < p_.bid_count(); ++c)
      if (lp_.value(c) > kIntegral && p_.usable[c]) order_.push_back(c);
    std::sort(order_.begin(), order_.end(), [this](std::int32_t a, std::int32_t b) {
      const double xa = lp_.value(a), xb = lp_.value(b);
      if (xa != xb) return xa > xb;
      return p_.value[a] > p_.value[b] || (p_.value[a] == p_.value[b] && a < b);
    });
    budget_.effort() += sort_effort(order_.size());
    trial_.clear();
    insert_in_order(p_, order_, trial_);
    offer(trial_.bid_of_job);
  }

  void offer(const std::vector<std::int32_t>& choice) {
    const double value = objective_of(p_, choice);
    if (value <= best_value_ + 1e-12) return;
    best_ = choice;
    best_value_ = value;
    lp_.set_cutoff(best_value_ + optimality_tolerance(best_value_));
  }

  const CompactProblem& p_;
  const MipModel& model_;
  const std::vector<std::int32_t>& job_row_;
  std::vector<MipRow> rows_;  // the model's rows and the cuts added
  ClpRelaxation lp_;
  Budget& budget_;
  std::vector<std::int32_t>& best_;
  double best_value_;
  Incumbent trial_;
  std::vector<std::int32_t> order_;
  std::vector<double> x_;  // the LP solution handed to the cover separation
  std::vector<double> pending_;  // LP bounds of the excluded-bid siblings still to search
  std::int64_t pivot_cost_;
  const std::int64_t node_cost_;
  std::int64_t nodes_ = 0;
  bool aborted_ = false;
  std::int64_t neighbourhood_end_ = -1;  // while searching near the root solution: its end
  double open_bound_ = 0.0;
};

}  // namespace

LpSearchResult lp_branch_and_bound(const CompactProblem& problem, const WindowLpOptions& options,
                                   Budget& budget, std::vector<std::int32_t>& best) {
  const WindowLp window = window_lp(problem, options);
  LpSearch search(problem, window, budget, best);
  return search.run();
}

#else

LpSearchResult lp_branch_and_bound(const CompactProblem&, const WindowLpOptions&, Budget&,
                                   std::vector<std::int32_t>&) {
  LpSearchResult result;
  result.bound = std::numeric_limits<double>::infinity();
  return result;
}

#endif

}  // namespace hs::solver
