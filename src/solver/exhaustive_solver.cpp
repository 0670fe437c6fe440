#include <algorithm>

#include "solver/incumbent.hpp"
#include "solver/specialised_solvers.hpp"

namespace hs::solver {

namespace {

// Depth-first over jobs in index order; each job tries its fitting bids by descending
// value, then "no bid". Prunes when the optimistic completion cannot beat the best.
class BranchAndBound {
 public:
  BranchAndBound(const CompactProblem& p, Budget& budget)
      : p_(p), budget_(budget), current_(p, budget.effort()), best_(p.jobs, -1),
        suffix_best_(p.jobs + 1, 0.0), bids_by_value_(p.jobs) {
    for (std::int32_t job = p.jobs - 1; job >= 0; --job) {
      double top = 0.0;
      for (std::int32_t k = p.job_bid_begin[job]; k < p.job_bid_begin[job + 1]; ++k) {
        const std::int32_t bid = p.job_bids[k];
        if (!p.usable[bid]) continue;
        bids_by_value_[job].push_back(bid);
        top = std::max(top, p.value[bid]);
      }
      std::sort(bids_by_value_[job].begin(), bids_by_value_[job].end(),
                [&p](std::int32_t a, std::int32_t b) {
                  return p.value[a] > p.value[b] || (p.value[a] == p.value[b] && a < b);
                });
      suffix_best_[job] = suffix_best_[job + 1] + top;
    }
  }

  // True when the search completed (the best found is optimal).
  bool run() {
    search(0);
    return !aborted_;
  }
  const std::vector<std::int32_t>& best() const { return best_; }

 private:
  void search(std::int32_t job) {
    if (aborted_ || (aborted_ = budget_.exhausted())) return;
    if (current_.objective + suffix_best_[job] <= best_value_ + 1e-12) return;
    if (job == p_.jobs) {
      best_value_ = current_.objective;
      best_ = current_.bid_of_job;
      return;
    }
    for (std::int32_t bid : bids_by_value_[job]) {
      if (!current_.ledger.fits(bid)) continue;
      current_.ledger.take(bid);
      current_.bid_of_job[job] = bid;
      current_.objective += p_.value[bid];
      search(job + 1);
      current_.objective -= p_.value[bid];
      current_.bid_of_job[job] = -1;
      current_.ledger.release(bid);
    }
    search(job + 1);
  }

  const CompactProblem& p_;
  Budget& budget_;
  Incumbent current_;
  std::vector<std::int32_t> best_;
  double best_value_ = -1.0;
  std::vector<double> suffix_best_;
  std::vector<std::vector<std::int32_t>> bids_by_value_;
  bool aborted_ = false;
};

}  // namespace

SolveResult ExhaustiveSolver::solve(const WindowProblem& problem, const SolverOptions& options) {
  if (auto defect = find_problem_defect(problem)) return defect_result(*defect);
  if (problem.job_count > kMaxJobs)
    return defect_result("exhaustive solver accepts at most " + std::to_string(kMaxJobs) +
                         " jobs, got " + std::to_string(problem.job_count));
  Budget budget(options.effort_limit > 0 ? options.effort_limit : kDefaultEffort,
                options.time_limit_s);
  const CompactProblem p = compact(problem);
  BranchAndBound search(p, budget);
  const bool complete = search.run();
  const double bound = complete ? objective_of(p, search.best()) : best_bid_bound(p);
  SolveResult result = finish_result(problem, p, search.best(), bound, budget);
  result.bound_source = complete ? BoundSource::Search : BoundSource::BestBids;
  return result;
}

}  // namespace hs::solver
