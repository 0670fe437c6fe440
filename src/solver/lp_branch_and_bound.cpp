#include "solver/lp_branch_and_bound.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <set>

#include "solver/cover_cuts.hpp"
#include "solver/incumbent.hpp"
#include "solver/job_count_bounds.hpp"
#include "solver/local_search.hpp"
#include "solver/lp_branching.hpp"
#include "solver/pseudocosts.hpp"
#ifdef HETSCHED_HAVE_CBC
#include "solver/cbc/cgl_root_cuts.hpp"
#include "solver/cbc/clp_relaxation.hpp"
#endif


namespace hs::solver {

#ifdef HETSCHED_HAVE_CBC

namespace {

// Conflict cliques (conflict_cliques.hpp): entries touched per effort unit (an entry is 1-4
// ns, timed in session 44 on bench and captured windows; a unit of the tree 25-45 ns), and
// the share of the budget left they may take.
constexpr std::int64_t kCliqueWorkPerUnit = 12;
constexpr std::int64_t kCliqueShare = 8;

constexpr int kCutRounds = 20;      // rounds of cover cuts at the root
constexpr int kNodeCutRounds = 2;   // and at every node of the tree
// The tree's cuts stay in its LP: they may add at most this many rows per row of the root's
// LP. On windows of long rows (captured from an AUCSCHED3 replay on the tree machine) they
// had grown it to four or five times the root's rows, each pivot charged up to 2.5 times
// as much; with the limit 2 more of 127 such windows are proven, with 15 % less effort in
// all, and crowded windows solve as before (docs/solver.md, "Node cuts within bounds").
constexpr std::int32_t kNodeCutRowsPerRootRow = 1;
// Reliability branching on bids (docs/solver.md, "Reliability branching"): the fractional
// bids ranked by their pseudocosts; those seen fewer than kReliableLosses times either way
// are solved both ways for at most kStrongPivots pivots, at most kStrongTrials of them at
// a node, and no more once kStrongLookahead trials in a row found no better candidate.
constexpr std::int32_t kReliableLosses = 4;
constexpr std::int32_t kStrongTrials = 8;
constexpr std::int32_t kStrongLookahead = 4;
constexpr std::int64_t kStrongPivots = 20;
constexpr std::int64_t kNeighbourhoodShare = 4;  // RINS gets 1/4 of what the cuts left
// On an LP of at least kLargeLp rows and columns a node costs some 10^5 units, and the tree
// reaches a few tens of nodes within its budget: too few to find good incumbents by itself
// (the sparse windows of issue 19, whose LPs have 3,000-4,500 rows and columns; crowded
// windows have at most about 1,400). There a dive from the root comes first, with up to
// 1/kDiveShare of what the cuts left, then a search of the sub-window of the bids the dive's
// LPs used, with up to 1/kSubWindowShare of what the dive left, when that is at most half of
// the window's bids (docs/solver.md, "A dive and its sub-window").
constexpr std::int64_t kLargeLp = 2'500;
constexpr std::int64_t kDiveShare = 2;
constexpr std::int64_t kSubWindowShare = 2;
// And at most these many units, so that a larger limit goes to the tree: at 60 M units, with
// shares alone, 73 of 80 sparse windows reached CBC-5 s's answer (75 before the dive), with
// the caps 74; at the default effort they bind on 2 of the 80, with the same answers.
constexpr std::int64_t kDiveEffort = 5'000'000;
constexpr std::int64_t kSubWindowEffort = 3'000'000;
constexpr std::int64_t kLibraryCutShare = 2;  // CGL's root rounds get 1/2 of the tree's budget
constexpr double kPolishMargin = 0.02;  // a rounding within 2 % of the incumbent is polished
constexpr std::int64_t kPolishEffort = 50'000;  // by local search, up to this much each

// What a search runs: the whole solve, or the search of a sub-window on its behalf (no CGL
// cuts, no dive and no sub-window of its own: its windows are small and its budget a share).
enum class Scope : std::uint8_t { Whole, SubWindow };

class LpSearch {
 public:
  LpSearch(const CompactProblem& p, const WindowLp& window, const WindowLpOptions& options,
           Budget& budget, std::int64_t phase_base, std::vector<std::int32_t>& best, Scope scope)
      : p_(p),
        options_(options),
        scope_(scope),
        phase_limit_(std::min(budget.limit(), phase_base)),
        window_(window),
        model_(window.model),
        job_row_(window.job_row),
        rows_(window.model.rows),
        lp_(window.model),
        budget_(budget),
        best_(best),
        best_value_(objective_of(p, best)),
        trial_(p, budget.effort()),
        lp_size_(static_cast<std::int64_t>(window.model.rows.size() + window.model.columns.size())),
        lp_nonzeros_(nonzeros(window.model.rows)),
        pivot_cost_(pivot_cost(lp_size_, lp_nonzeros_)),
        node_cost_(static_cast<std::int64_t>(window.model.columns.size())),
        row_nonzeros_(lp_nonzeros_), job_counts_(p), pseudocosts_(p.bid_count()) {
    lp_.set_cutoff(best_value_ + optimality_tolerance(best_value_));
  }

  LpSearchResult run() {
    LpSearchResult result;
    NodeLp root = solve_node();
    // Only an LP that the seed does not close gets the conflict cliques: most windows
    // captured from replays close at the plain root.
    if (root == NodeLp::Open && add_conflict_cliques()) root = may_solve() ? solve_lp() : stop();
    if (root == NodeLp::Closed) {  // the plain LP cannot beat the incumbent: it is optimal
      result.complete = true;
      result.bound = result.root_bound = best_value_;
      result.nodes = nodes_;
      return result;
    }
    if (root == NodeLp::Open) {
      root_bound_ = lp_.objective();
      add_job_count_row();
    }
    if (scope_ == Scope::Whole) add_library_cuts();
    add_root_cuts();
    node_cut_row_limit_ = (1 + kNodeCutRowsPerRootRow) * lp_.rows();
    if (scope_ == Scope::Whole && large_lp()) search_sub_window(dive_from_root());
    search_near_root_solution();
    result.complete = search({}, root_bound_, -1);
    result.nodes = nodes_;
    result.root_bound = root_bound_;
    result.bound = result.complete ? best_value_ : std::max(best_value_, open_bound_);
    return result;
  }

 private:
  // A bound of the LP set on the way from the root to a node: a bid's lower or upper bound,
  // a job's row lower bound (1: the job starts), or the job count row's upper bound.
  enum class Side : std::uint8_t { ColumnLower, ColumnUpper, RowLower, RowUpper };
  struct Fix {
    Side side;
    std::int32_t index;
    double value;
  };
  struct Change {  // a Fix as applied, with the value it replaced
    Side side;
    std::int32_t index;
    double before;
  };
  // A bid set to 0 or 1 by the last branching: its value and the LP's in the parent, so the
  // child's LP value gives the pseudocosts a loss (column -1: no such branching).
  struct Branched {
    std::int32_t column = -1;
    double x = 0.0;
    double parent_value = 0.0;
  };
  struct OpenNode {
    std::vector<Fix> path;  // from the root (or the search's start)
    double parent_bound;
    std::int64_t created;
    std::vector<unsigned char> basis;  // the parent's optimal basis: the node's warm start
    Branched down;  // the bid this node (the down child) set to 0
  };
  enum class Dive { Done, Stopped };

  // CGL's generators at the root (probing, Gomory, lifted covers, …) within a share of
  // the budget; their cuts stay for the whole tree. CGL gets the LP as it stands, rows in
  // the same order, so that its first solve starts from the root's basis.
  void add_library_cuts() {
    RootCutOptions options;
    options.effort_limit = phase_room() / kLibraryCutShare;
    options.cutoff = best_value_ + optimality_tolerance(best_value_);
    options.start_basis = lp_.basis();
    const RootCuts cuts = cgl_root_cuts(root_model(), options);
    budget_.effort() += cuts.effort;
    lp_.add_rows(cuts.rows);
    count_lp_rows(cuts.rows);
  }

  // The LP's rows so far as a model: the window's, the conflict cliques', then the job count
  // row when it was added (the order they went into the LP).
  MipModel root_model() const {
    MipModel model;
    model.maximize = model_.maximize;
    model.columns = model_.columns;
    model.rows = rows_;
    if (job_count_row_ >= 0) model.rows.push_back(job_count_cut_);
    return model;
  }

  // The rows of the conflict graph's cliques (conflict_cliques.hpp), within a share of the
  // budget left; true when any was added.
  bool add_conflict_cliques() {
    const std::int64_t left = phase_room();
    std::int64_t work = 0;
    const std::vector<MipRow> cliques =
        conflict_clique_rows(p_, window_, left / kCliqueShare * kCliqueWorkPerUnit, work);
    budget_.effort() += (work + kCliqueWorkPerUnit - 1) / kCliqueWorkPerUnit;
    if (cliques.empty()) return false;
    lp_.add_rows(cliques);
    count_lp_rows(cliques);
    row_nonzeros_ += nonzeros(cliques);
    rows_.insert(rows_.end(), cliques.begin(), cliques.end());
    return true;
  }

  // Solves the root LP with the pivots the budget leaves; true when it ends optimal.
  bool solve_root() {
    const std::int64_t room = budget_.limit() - budget_.spent();
    if (room < pivot_cost_) return false;
    const ClpRelaxation::Outcome outcome = lp_.solve(room / pivot_cost_);
    budget_.effort() += lp_.last_iterations() * pivot_cost_;
    if (outcome != ClpRelaxation::Outcome::Optimal) return false;
    root_bound_ = lp_.objective();
    return true;
  }

  // Rounds of cover cuts at the root while they cut off the LP solution. A round whose LP
  // lowers the job count row's cap is re-solved with the lower cap first.
  void add_root_cuts() {
    for (int round = 0; round < kCutRounds; ++round) {
      if (!solve_root()) return;
      if (tighten_job_count()) continue;
      if (!add_cover_cuts()) return;
    }
  }

  // The root's cuts lowered its LP value: fewer jobs may fit under it than under the plain
  // LP's. The job count row's cap is lowered (or the row added) when the LP's solution
  // starts more jobs than the new cap; true when it was.
  bool tighten_job_count() {
    if (job_count_row_ < 0) {
      add_job_count_row();
      return job_count_row_ >= 0;
    }
    const std::int32_t most = most_jobs_within(root_bound_);
    if (most >= lp_.row_upper(job_count_row_) || started_share() <= most + kIntegral) return false;
    lp_.set_row_upper(job_count_row_, most);
    return true;
  }

  // At a node: no choice below it is worth more than its LP value, so the job count row's
  // cap is lowered to the jobs that value allows, for the node's subtree, when the LP starts
  // more; true when it was (the node is then solved again).
  bool cap_job_count_below(double bound, std::vector<Fix>& path) {
    const std::int32_t most = most_jobs_within(bound);
    if (started_share() <= most + kIntegral) return false;
    if (job_count_row_ < 0)  // the root's LP left the row out: it holds everywhere all the same
      append_job_count_row(fewest_improving_jobs(), most_jobs_within(root_bound_));
    if (most >= lp_.row_upper(job_count_row_)) return false;
    take(path, {Side::RowUpper, job_count_row_, static_cast<double>(most)});
    return true;
  }

  // The most jobs a choice worth at most `bound` (give or take the tolerance) can start.
  std::int32_t most_jobs_within(double bound) const {
    return job_counts_.most_within(bound + optimality_tolerance(bound));
  }

  double started_share() const {
    double started = 0.0;
    for (std::int32_t c = 0; c < p_.bid_count(); ++c) started += lp_.value(c);
    return started;
  }

  // One round of cover cuts at the current LP solution; false when none is violated or the
  // separation is not affordable. The cuts hold for every integer choice, so they stay for
  // the rest of the search, wherever in the tree they were found.
  bool add_cover_cuts() {
    const std::int64_t separation = row_nonzeros_ + node_cost_;
    if (!budget_.affordable(separation)) return false;
    x_.resize(static_cast<std::size_t>(p_.bid_count()));
    for (std::int32_t c = 0; c < p_.bid_count(); ++c) x_[c] = lp_.value(c);
    std::vector<MipRow> cuts = separate_covers(rows_, x_);
    budget_.effort() += separation;
    if (cuts.empty()) return false;
    lp_.add_rows(cuts);
    count_lp_rows(cuts);
    for (MipRow& cut : cuts) {
      row_nonzeros_ += static_cast<std::int64_t>(cut.columns.size());
      rows_.push_back(std::move(cut));
    }
    return true;
  }

  // What a simplex pivot is charged: the LP's rows + columns, plus a 64th of its nonzeros.
  // A pivot's time follows the rows and columns on sparse windows (about 40 ns per unit);
  // on windows captured from replays, whose rows hold a hundred bids, it follows the
  // nonzeros too (timed in session 32: 55–110 ns per row or column there, 26–43 ns per
  // unit with the nonzeros counted).
  static std::int64_t pivot_cost(std::int64_t rows_and_columns, std::int64_t nonzeros) {
    return rows_and_columns + nonzeros / 64;
  }

  void count_lp_rows(const std::vector<MipRow>& added) {
    lp_size_ += static_cast<std::int64_t>(added.size());
    lp_nonzeros_ += nonzeros(added);
    pivot_cost_ = pivot_cost(lp_size_, lp_nonzeros_);
  }

  // The separation sorts each row's bids: its time follows the rows' nonzeros (timed in
  // session 32 at 11–33 ns each), not their number, and rows of a hundred bids are common
  // in windows captured from replays.
  static std::int64_t nonzeros(const std::vector<MipRow>& rows) {
    std::int64_t n = 0;
    for (const MipRow& row : rows) n += static_cast<std::int64_t>(row.columns.size());
    return n;
  }

  // The row Σ x ∈ [fewest, most] (JobCountBounds), added where it cuts off the plain root
  // LP's solution: at most the jobs a choice within the root's bound can start, at least
  // those a choice better than the incumbent must (raised as the incumbent improves). CGL's
  // rounds start from it: on windows captured from replays the LP spreads a share of one
  // job more than fits its own bound, and with the row CGL's cuts close the gap in a few
  // rounds instead of twenty.
  void add_job_count_row() {
    const std::int32_t most = most_jobs_within(root_bound_);
    const std::int32_t fewest = fewest_improving_jobs();
    const double started = started_share();
    if (started <= most + kIntegral && started >= fewest - kIntegral) return;
    append_job_count_row(fewest, most);
  }

  void append_job_count_row(std::int32_t fewest, std::int32_t most) {
    MipRow row;
    for (std::int32_t c = 0; c < p_.bid_count(); ++c) {
      if (!p_.usable[c]) continue;
      row.columns.push_back(c);
      row.coefficients.push_back(1.0);
    }
    row.lower = fewest;
    row.upper = most;
    const std::vector<MipRow> added{row};
    lp_.add_rows(added);
    count_lp_rows(added);
    job_count_row_ = lp_.rows() - 1;
    job_count_cut_ = std::move(row);
  }

  // The fewest jobs a choice better than the incumbent by more than the tolerance starts
  // (asked with the tolerance taken off instead, so rounding in the sums cannot overstate it).
  std::int32_t fewest_improving_jobs() const {
    return job_counts_.fewest_above(best_value_ - optimality_tolerance(best_value_));
  }

  // RINS (relaxation induced neighbourhood search): the bids on which the root LP and the
  // incumbent agree are fixed (chosen, or left out) and the rest searched by the same tree
  // within a share of the budget. It finds better incumbents on crowded windows, where the
  // rounding of the LP does not, and a better incumbent prunes more of the full tree.
  void search_near_root_solution() {
    if (budget_.exhausted() || !solve_root() || prunable(lp_.objective())) return;
    const double root = lp_.objective();
    std::vector<Fix> fixes;
    for (std::int32_t c = 0; c < p_.bid_count(); ++c) {
      if (lp_.upper(c) - lp_.lower(c) < 0.5) continue;
      const bool chosen = best_[p_.job_of_bid[c]] == c;
      const double x = lp_.value(c);
      if (chosen && x > 1.0 - kIntegral) fixes.push_back({Side::ColumnLower, c, 1.0});
      else if (!chosen && x < kIntegral) fixes.push_back({Side::ColumnUpper, c, 0.0});
    }
    if (!budget_.affordable(node_cost_)) return;
    budget_.effort() += node_cost_;
    const std::int64_t end = budget_.spent() + phase_room() / kNeighbourhoodShare;
    search(std::move(fixes), root, end);
  }

  // What the phases before the tree (cliques, CGL, the dive, its sub-window, RINS) take
  // their shares of: at most `phase_limit_` units in all, whatever the budget's limit. The
  // limit beyond goes to the tree only, so a search at any larger limit repeats the one at
  // `phase_limit_` step for step and goes on from there, and its best is never worse (with
  // shares of the limit, 4 of 80 sparse windows ended lower at 60 M units than at 20 M).
  std::int64_t phase_room() const { return std::max<std::int64_t>(0, phase_limit_ - budget_.spent()); }

  bool large_lp() const {
    return static_cast<std::int64_t>(model_.rows.size() + model_.columns.size()) >= kLargeLp;
  }

  // A dive from the root LP for incumbents: the fractional bid nearest to 1 is chosen and
  // the LP solved again, or, where choosing it cannot beat the incumbent, it is excluded
  // instead; until the LP is integral (adopted), neither way can beat the incumbent, or the
  // dive's share is spent. Every LP on the way is rounded. Returns, per bid, whether any of
  // the dive's LPs used it (empty when the dive did not start). The LP is left at the root.
  std::vector<unsigned char> dive_from_root() {
    std::vector<unsigned char> used;
    if (budget_.exhausted() || !solve_root() || prunable(lp_.objective())) return used;
    used.assign(static_cast<std::size_t>(p_.bid_count()), 0);
    const std::vector<unsigned char> root_basis = lp_.basis();
    end_ = budget_.spent() + std::min(kDiveEffort, phase_room() / kDiveShare);
    for (;;) {
      for (std::int32_t c = 0; c < p_.bid_count(); ++c)
        if (lp_.value(c) > kIntegral) used[c] = 1;
      round_solution();
      const std::int32_t c = branching_column(p_, lp_);
      if (c < 0) {
        adopt_integral();
        break;
      }
      if (!dive_step({Side::ColumnLower, c, 1.0}) && !dive_step({Side::ColumnUpper, c, 0.0})) break;
    }
    undo_to(0);
    lp_.set_basis(root_basis);
    end_ = -1;
    aborted_ = false;  // the dive's own end, never the tree's
    return used;
  }

  // Applies `fix` and solves the LP; true when it stays open. A fix whose LP closes is
  // undone; one stopped by the budget is left (the dive ends and undoes all).
  bool dive_step(const Fix& fix) {
    apply(fix);
    if (!may_solve()) return false;
    const NodeLp lp = solve_lp();
    if (lp == NodeLp::Closed) undo_to(applied_.size() - 1);
    return lp == NodeLp::Open;
  }

  // The window cut down to the bids the dive's LPs used and the incumbent's, searched by a
  // tree of its own within a share of the budget; its best replaces the incumbent if better.
  // A sub-window of more than half the bids would cost about what the window does.
  void search_sub_window(const std::vector<unsigned char>& used) {
    if (used.empty() || budget_.exhausted()) return;
    CompactProblem sub = p_;
    std::int32_t usable = 0, kept = 0;
    for (std::int32_t c = 0; c < p_.bid_count(); ++c) {
      if (!p_.usable[c]) continue;
      ++usable;
      sub.usable[c] = used[c] || best_[p_.job_of_bid[c]] == c;
      kept += sub.usable[c];
    }
    if (2 * kept > usable) return;
    Budget share = budget_.part(std::min(kSubWindowEffort, phase_room() / kSubWindowShare));
    std::vector<std::int32_t> best = best_;
    const WindowLp window = window_lp(sub, options_);
    LpSearch(sub, window, options_, share, share.limit(), best, Scope::SubWindow).run();
    budget_.effort() += share.spent();
    offer(best);
  }

  bool prunable(double bound) const {
    return bound <= best_value_ + optimality_tolerance(best_value_);
  }

  // Best-first search with dives from `start` (bound `start_bound`) until every node is
  // done, the budget runs out (the search is aborted, `open_bound_` the best bound left
  // open) or the effort reaches `end` (when ≥ 0: stopped, nothing recorded). The open node
  // with the highest bound is taken next (ties: the newer) and dived from: each node's
  // preferred child (start the job, or choose the bid) is searched at once, the other left
  // open. True when every node is done.
  bool search(std::vector<Fix> start, double start_bound, std::int64_t end) {
    end_ = end;
    open_.clear();
    open_.push_back({std::move(start), start_bound, created_++, {}, {}});
    bool complete = true;
    while (!open_.empty()) {
      std::pop_heap(open_.begin(), open_.end(), later_than);
      OpenNode next = std::move(open_.back());
      open_.pop_back();
      if (prunable(next.parent_bound)) continue;
      if (dive(std::move(next)) == Dive::Stopped) {
        if (aborted_) open_bound_ = std::max({open_bound_, dive_bound_, open_max()});
        complete = false;
        break;
      }
    }
    move_to({});
    open_.clear();
    end_ = -1;
    return complete;
  }

  // Heap order: the node with the higher bound first, then the newer.
  static bool later_than(const OpenNode& a, const OpenNode& b) {
    if (a.parent_bound != b.parent_bound) return a.parent_bound < b.parent_bound;
    return a.created < b.created;
  }

  double open_max() const {
    double m = -std::numeric_limits<double>::infinity();
    for (const OpenNode& n : open_) m = std::max(m, n.parent_bound);
    return m;
  }

  // Searches `from` and then, node by node, its preferred child; the other children are
  // left open. `dive_bound_` bounds what the dive has not closed (the node it is at).
  Dive dive(OpenNode from) {
    std::vector<Fix> path = std::move(from.path);
    move_to(path);
    // From the parent's basis the node's LP is a few dual pivots away; from the basis where
    // the last dive ended, often many more (crowded windows: 4 more proofs of 180).
    if (!from.basis.empty()) lp_.set_basis(from.basis);
    dive_bound_ = from.parent_bound;
    Branched branched = from.down;
    bool up_child = false;  // the node solved next is the up child of `branched`
    for (;;) {
      const NodeLp lp = solve_node();
      if (lp == NodeLp::Open) record_loss(branched, up_child);
      branched = {};
      if (lp != NodeLp::Open) return lp == NodeLp::Stopped ? Dive::Stopped : Dive::Done;
      const NodeLp cut = cut_node();
      if (cut != NodeLp::Open) return cut == NodeLp::Stopped ? Dive::Stopped : Dive::Done;
      const double bound = lp_.objective();
      if (cap_job_count_below(bound, path)) continue;
      round_solution();
      if (prunable(bound)) return Dive::Done;
      fix_by_reduced_cost(bound, path);
      Choice choice;
      if (end_ < 0) {  // the full tree (RINS's dives keep the plain rule: they seek incumbents)
        choice = reliability_branch(bound, path);
        if (choice.outcome == Strong::Fixed) continue;
        if (choice.outcome == Strong::Stopped) {
          stop();
          return Dive::Stopped;
        }
      } else {
        choice.branch = choose_branch(p_, job_row_, lp_);
      }
      const Branch& branch = choice.branch;
      if (branch.job < 0 && branch.column < 0) {
        adopt_integral();
        return Dive::Done;
      }
      // The bid's loss either way goes to the pseudocosts in the full tree: up when the dive
      // solves the child it goes into, down when the open child is taken.
      if (end_ < 0 && branch.column >= 0) branched = {branch.column, lp_.value(branch.column), bound};
      up_child = true;
      branch_at(branch, std::min(bound, choice.down_bound), path, branched);
      dive_bound_ = bound;
    }
  }

  // Leaves the child that excludes the branch open (with the bound `down_bound`, at most
  // the node's) and applies the one that starts the job (or chooses the bid), which the
  // dive goes on into.
  void branch_at(const Branch& branch, double down_bound, std::vector<Fix>& path,
                 const Branched& branched) {
    const std::vector<Fix> down = down_fixes(branch);
    std::vector<Fix> other = path;
    other.insert(other.end(), down.begin(), down.end());
    push_open(std::move(other), down_bound, branched);
    take(path, up_fix(branch));
  }

  void push_open(std::vector<Fix> path, double bound, const Branched& branched) {
    open_.push_back({std::move(path), bound, created_++, lp_.basis(), branched});
    std::push_heap(open_.begin(), open_.end(), later_than);
  }

  // The loss of the branching that led to the node just solved (its LP value now).
  void record_loss(const Branched& branched, bool up) {
    if (branched.column < 0) return;
    pseudocosts_.record(branched.column, up, branched.parent_value - lp_.objective(), branched.x);
  }

  // Appends a fix to the dive's path and applies it.
  void take(std::vector<Fix>& path, Fix fix) {
    path.push_back(fix);
    apply(fix);
  }

  // The LP's bounds set to those of `path` (the ones applied now undone first).
  void move_to(const std::vector<Fix>& path) {
    undo_to(0);
    for (const Fix& fix : path) apply(fix);
  }

  // Undoes the bounds applied after the first `mark`, the latest first.
  void undo_to(std::size_t mark) {
    while (applied_.size() > mark) {
      put(applied_.back().side, applied_.back().index, applied_.back().before);
      applied_.pop_back();
    }
  }

  void apply(const Fix& fix) {
    applied_.push_back({fix.side, fix.index, get(fix.side, fix.index)});
    put(fix.side, fix.index, fix.value);
  }

  double get(Side side, std::int32_t index) const {
    if (side == Side::ColumnLower) return lp_.lower(index);
    if (side == Side::ColumnUpper) return lp_.upper(index);
    if (side == Side::RowUpper) return lp_.row_upper(index);
    return lp_.row_lower(index);
  }

  void put(Side side, std::int32_t index, double value) {
    if (side == Side::ColumnLower) lp_.set_lower(index, value);
    else if (side == Side::ColumnUpper) lp_.set_upper(index, value);
    else if (side == Side::RowUpper) lp_.set_row_upper(index, value);
    else lp_.set_row_lower(index, value);
  }

  enum class NodeLp { Open, Closed, Stopped };  // to branch on; pruned or infeasible; out of effort

  NodeLp solve_node() {
    if (!may_solve()) return stop();
    ++nodes_;
    return solve_lp();
  }

  bool out_of_budget() const {
    return budget_.exhausted() || budget_.limit() - budget_.spent() - node_cost_ < pivot_cost_;
  }

  bool may_solve() const { return !out_of_budget() && (end_ < 0 || budget_.spent() < end_); }

  // The current search stops; when the budget (not the search's own end) ran out, the
  // whole tree is aborted.
  NodeLp stop() {
    if (end_ < 0 || out_of_budget()) aborted_ = true;
    return NodeLp::Stopped;
  }

  NodeLp solve_lp() {
    const std::int64_t room = budget_.limit() - budget_.spent() - node_cost_;
    budget_.effort() += node_cost_;
    const ClpRelaxation::Outcome outcome = lp_.solve(room / pivot_cost_);
    budget_.effort() += lp_.last_iterations() * pivot_cost_;
    if (outcome == ClpRelaxation::Outcome::IterationLimit) return stop();
    const bool open = outcome == ClpRelaxation::Outcome::Optimal && !prunable(lp_.objective());
    return open ? NodeLp::Open : NodeLp::Closed;
  }

  // Cover cuts at a tree node, the node's LP re-solved after each round. On crowded windows
  // they shrink the tree a proof needs by more than half.
  NodeLp cut_node() {
    for (int round = 0; round < kNodeCutRounds; ++round) {
      if (lp_.rows() >= node_cut_row_limit_ || !add_cover_cuts()) return NodeLp::Open;
      if (!may_solve()) return stop();
      const NodeLp lp = solve_lp();
      if (lp != NodeLp::Open) return lp;
    }
    return NodeLp::Open;
  }

  // A bid at 0 whose reduced cost says that choosing it cannot beat the best is excluded
  // below this node; a bid at 1 whose removal cannot, is fixed.
  void fix_by_reduced_cost(double bound, std::vector<Fix>& path) {
    for (std::int32_t c = 0; c < p_.bid_count(); ++c) {
      if (lp_.upper(c) - lp_.lower(c) < 0.5) continue;
      const double x = lp_.value(c), d = lp_.reduced_cost(c);
      if (x < kIntegral && prunable(bound + d)) take(path, {Side::ColumnUpper, c, 0.0});
      else if (x > 1.0 - kIntegral && prunable(bound - d)) take(path, {Side::ColumnLower, c, 1.0});
    }
  }

  enum class Strong { Chosen, Fixed, Stopped };
  // What branching decided at a node: branch there (Chosen; `branch` empty when the LP
  // solution is integral), a bound was fixed and the node is solved again (Fixed), or the
  // budget ran out (Stopped). `down_bound` bounds the down child when a trial solved it.
  struct Choice {
    Strong outcome = Strong::Chosen;
    Branch branch;
    double down_bound = std::numeric_limits<double>::infinity();
  };
  struct Candidate {
    double score;  // the product of the two losses, estimated or tried
    std::int32_t column;
  };

  // Reliability branching: the fractional bids ranked by the product of their pseudocosts'
  // two estimated losses. Those not yet reliable are tried in that order (both children
  // solved for a few pivots from this node's basis, their losses recorded) while trials and
  // the lookahead last; a child that closes is cut off at once (its sibling becomes this
  // node, solved again: Fixed). The candidate with the largest product, tried or
  // estimated, is chosen.
  Choice reliability_branch(double bound, std::vector<Fix>& path) {
    Choice choice;
    const double floor = loss_floor(bound);
    std::vector<Candidate> candidates = ranked_candidates(floor);
    if (candidates.empty()) return choice;  // integral: the branch stays empty
    choice.branch = Branch{-1, candidates.front().column};
    if (candidates.size() == 1) return choice;
    const std::vector<unsigned char> basis = lp_.basis();
    double best_score = -1.0;
    std::int32_t trials = 0, since_better = 0;
    for (const Candidate& candidate : candidates) {
      const std::int32_t c = candidate.column;
      const bool reliable = pseudocosts_.reliable(c, kReliableLosses);
      if (!reliable && (trials >= kStrongTrials || since_better >= kStrongLookahead)) continue;
      double score = candidate.score;
      double down_bound = std::numeric_limits<double>::infinity();
      if (!reliable) {
        ++trials;
        const double x = lp_.value(c);
        const std::optional<TrialValue> down = trial({{Side::ColumnUpper, c, 0.0}}, basis);
        if (!down) return stopped();
        if (down->value == kClosed) return fixed(path, {Side::ColumnLower, c, 1.0});
        const std::optional<TrialValue> up = trial({{Side::ColumnLower, c, 1.0}}, basis);
        if (!up) return stopped();
        if (up->value == kClosed) return fixed(path, {Side::ColumnUpper, c, 0.0});
        pseudocosts_.record(c, false, bound - down->value, x);
        pseudocosts_.record(c, true, bound - up->value, x);
        score = loss_product(bound - down->value, bound - up->value, floor);
        if (down->exact) down_bound = down->value;
      }
      if (score > best_score) {
        best_score = score;
        choice.branch = Branch{-1, c};
        choice.down_bound = down_bound;
        since_better = 0;
      } else {
        ++since_better;
      }
    }
    return choice;
  }

  Choice fixed(std::vector<Fix>& path, Fix fix) {
    take(path, fix);
    Choice choice;
    choice.outcome = Strong::Fixed;
    return choice;
  }

  static Choice stopped() {
    Choice choice;
    choice.outcome = Strong::Stopped;
    return choice;
  }

  // The least loss a branching is scored with: a millionth of the node's gap to the
  // incumbent, the room its subtree has to close. Not of its bound: windows captured from
  // `eurora` replays are worth 2^32 a job plus preferences of a few units, and once the job
  // count is settled the losses that tell bids apart are those few units against a bound of
  // 3 x 10^10. A floor of a millionth of the bound (3 x 10^4) made every candidate tie, so
  // the lowest-numbered bid was branched on (docs/solver.md, "The branching floor follows
  // the gap").
  double loss_floor(double bound) const {
    return 1e-6 * std::max(bound - best_value_, 1e-9 * std::fabs(bound));
  }

  // A candidate's score: the product of its two losses, each at least `floor` (so a
  // branch that loses nothing one way still ranks by the other).
  static double loss_product(double down, double up, double floor) {
    return std::max(down, floor) * std::max(up, floor);
  }

  // The fractional bids, by their pseudocosts' product of losses (ties: the lower bid).
  std::vector<Candidate> ranked_candidates(double floor) const {
    std::vector<Candidate> candidates;
    for (std::int32_t c = 0; c < p_.bid_count(); ++c) {
      const double x = lp_.value(c);
      if (x < kIntegral || x > 1.0 - kIntegral) continue;
      candidates.push_back(
          {loss_product(pseudocosts_.estimate(c, false, x), pseudocosts_.estimate(c, true, x), floor), c});
    }
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](const Candidate& a, const Candidate& b) { return a.score > b.score; });
    return candidates;
  }

  static constexpr double kClosed = -std::numeric_limits<double>::infinity();

  // A trial's value: the child's LP value when `exact`, else (cut short) the dual
  // simplex's value so far, an estimate; kClosed when it cannot beat the incumbent.
  struct TrialValue {
    double value;
    bool exact;
  };

  // The node's LP with `fixes` added, solved for at most kStrongPivots pivots from `basis`;
  // nothing when the budget ran out. The node's bounds and basis are restored.
  std::optional<TrialValue> trial(const std::vector<Fix>& fixes, const std::vector<unsigned char>& basis) {
    if (!may_solve()) return std::nullopt;
    const std::size_t mark = applied_.size();
    for (const Fix& fix : fixes) apply(fix);
    const std::int64_t room = (budget_.limit() - budget_.spent() - node_cost_) / pivot_cost_;
    budget_.effort() += node_cost_;
    const ClpRelaxation::Outcome outcome = lp_.solve(std::min(room, kStrongPivots));
    budget_.effort() += lp_.last_iterations() * pivot_cost_;
    std::optional<TrialValue> value;
    if (outcome == ClpRelaxation::Outcome::Infeasible) value = TrialValue{kClosed, true};
    else if (outcome == ClpRelaxation::Outcome::Optimal)
      value = TrialValue{prunable(lp_.objective()) ? kClosed : lp_.objective(), true};
    else if (room > kStrongPivots) value = TrialValue{lp_.objective(), false};
    undo_to(mark);
    lp_.set_basis(basis);
    return value;
  }

  std::vector<Fix> down_fixes(const Branch& b) const {
    if (b.column >= 0) return {{Side::ColumnUpper, b.column, 0.0}};
    std::vector<Fix> fixes;
    for (std::int32_t k = p_.job_bid_begin[b.job]; k < p_.job_bid_begin[b.job + 1]; ++k) {
      const std::int32_t bid = p_.job_bids[k];
      if (lp_.upper(bid) > 0.5) fixes.push_back({Side::ColumnUpper, bid, 0.0});
    }
    return fixes;
  }

  Fix up_fix(const Branch& b) const {
    if (b.column >= 0) return {Side::ColumnLower, b.column, 1.0};
    return {Side::RowLower, job_row_[b.job], 1.0};
  }

  void adopt_integral() {
    std::vector<std::int32_t> choice(p_.jobs, -1);
    for (std::int32_t c = 0; c < p_.bid_count(); ++c)
      if (lp_.value(c) > 0.5) choice[p_.job_of_bid[c]] = c;
    offer(choice);
  }

  // Greedy insertion in descending LP value (ties by bid value) of the bids the LP uses,
  // within the budget (a rounding cut short is still feasible), polished when it comes
  // close to the incumbent.
  void round_solution() {
    order_.clear();
    for (std::int32_t c = 0; c < p_.bid_count(); ++c)
      if (lp_.value(c) > kIntegral && p_.usable[c]) order_.push_back(c);
    if (!budget_.affordable(sort_effort(order_.size()))) return;
    std::sort(order_.begin(), order_.end(), [this](std::int32_t a, std::int32_t b) {
      const double xa = lp_.value(a), xb = lp_.value(b);
      if (xa != xb) return xa > xb;
      return p_.value[a] > p_.value[b] || (p_.value[a] == p_.value[b] && a < b);
    });
    budget_.effort() += sort_effort(order_.size());
    trial_.clear();
    insert_in_order_within(p_, order_, trial_, budget_);
    if (trial_.objective >= best_value_ * (1.0 - kPolishMargin)) polish(trial_);
    offer(trial_.bid_of_job);
  }

  // The default solver's local search on a rounding close to the incumbent: a rounding
  // often misses by a re-bid or a swap what the tree would need many nodes to reach
  // (crowded windows: 13 better, 1 worse by less than 10^-5; the sparse families of issue 19:
  // 2 more at CBC's answer).
  void polish(Incumbent& candidate) {
    if (!polished_.insert(candidate.bid_of_job).second) return;  // polished already
    if (!polisher_) {  // its set-up (charged by its constructor) only once it is needed
      const std::int64_t setup = 2 * static_cast<std::int64_t>(p_.use_begin.back()) + p_.bid_count();
      if (!budget_.affordable(setup)) return;
      polisher_.emplace(p_, budget_);
    }
    polisher_->improve(candidate, budget_.spent() + kPolishEffort);
  }

  void offer(const std::vector<std::int32_t>& choice) {
    const double value = objective_of(p_, choice);
    if (value <= best_value_ + 1e-12) return;
    best_ = choice;
    best_value_ = value;
    lp_.set_cutoff(best_value_ + optimality_tolerance(best_value_));
    if (job_count_row_ >= 0) lp_.set_row_lower(job_count_row_, fewest_improving_jobs());
  }

  const CompactProblem& p_;
  const WindowLpOptions& options_;
  const Scope scope_;
  const std::int64_t phase_limit_;  // see phase_room
  const WindowLp& window_;
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
  std::int64_t lp_size_;      // the LP's rows (cuts included) + columns
  std::int64_t lp_nonzeros_;  // the LP's nonzeros, cuts included
  std::int64_t pivot_cost_;
  const std::int64_t node_cost_;
  std::int64_t row_nonzeros_;  // of `rows_`: what a round of cover separation is charged
  std::int64_t nodes_ = 0;
  std::int32_t node_cut_row_limit_ = 0;  // the LP's rows past which nodes add no cuts
  const JobCountBounds job_counts_;
  Pseudocosts pseudocosts_;  // the bids' losses seen in the full tree
  std::int32_t job_count_row_ = -1;  // the LP's job count row (add_job_count_row), or -1
  MipRow job_count_cut_;  // that row as added
  std::optional<LocalSearch> polisher_;  // built at the first rounding worth polishing
  std::set<std::vector<std::int32_t>> polished_;  // the roundings polished so far
  bool aborted_ = false;  // the budget ran out
  double dive_bound_ = 0.0;  // the bound of the node the current dive is at
  std::int64_t end_ = -1;  // the effort at which the current search stops; -1: none
  double open_bound_ = -std::numeric_limits<double>::infinity();  // the best bound left open
  std::vector<OpenNode> open_;  // a heap (later_than)
  std::vector<Change> applied_;  // the bounds set on the LP now, in order
  std::int64_t created_ = 0;
  double root_bound_ = std::numeric_limits<double>::infinity();  // the root LP's last optimal value
};

}  // namespace

LpSearchResult lp_branch_and_bound(const CompactProblem& problem, const WindowLpOptions& options,
                                   Budget& budget, std::int64_t phase_base, std::vector<std::int32_t>& best) {
  const WindowLp window = window_lp(problem, options);
  return LpSearch(problem, window, options, budget, phase_base, best, Scope::Whole).run();
}

#else

LpSearchResult lp_branch_and_bound(const CompactProblem&, const WindowLpOptions&, Budget&, std::int64_t,
                                   std::vector<std::int32_t>&) {
  LpSearchResult result;
  result.bound = std::numeric_limits<double>::infinity();
  result.root_bound = result.bound;
  return result;
}

#endif

}  // namespace hs::solver
