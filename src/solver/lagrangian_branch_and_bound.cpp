#include "solver/lagrangian_branch_and_bound.hpp"

#include <algorithm>
#include <limits>

namespace hs::solver {

namespace {

class Search {
 public:
  Search(const CompactProblem& p, const PricedBids& priced, const std::vector<std::int32_t>& jobs,
         Budget& budget, std::int64_t effort_cap, const Incumbent& incumbent)
      : p_(p), jobs_(jobs), budget_(budget), effort_cap_(effort_cap), current_(incumbent),
        best_value_(incumbent.objective), options_(jobs.size()), suffix_(jobs.size() + 1, 0.0) {
    root_ = priced.capacity_value;
    for (std::int32_t job : jobs_) {
      const std::int32_t bid = current_.bid_of_job[job];
      if (bid < 0) continue;
      current_.ledger.release(bid);
      current_.bid_of_job[job] = -1;
      current_.objective -= p.value[bid];
    }
    for (std::int32_t bid : current_.bid_of_job)
      if (bid >= 0) root_ += priced.reduced[bid];
    build_options(priced.reduced);
  }

  bool run() {
    search(0, root_);
    return !aborted_;
  }
  bool improved() const { return !best_choice_.empty(); }
  const std::vector<std::int32_t>& best_choice() const { return best_choice_; }

 private:
  struct Option {
    std::int32_t bid;  // -1 = job does not start
    double reduced;
  };

  // Per free job: usable bids and "none", by descending reduced value.
  void build_options(const std::vector<double>& reduced) {
    for (std::size_t i = jobs_.size(); i-- > 0;) {
      const std::int32_t job = jobs_[i];
      std::vector<Option>& list = options_[i];
      list.push_back({-1, 0.0});
      for (std::int32_t k = p_.job_bid_begin[job]; k < p_.job_bid_begin[job + 1]; ++k) {
        const std::int32_t bid = p_.job_bids[k];
        if (p_.usable[bid]) list.push_back({bid, reduced[bid]});
      }
      std::stable_sort(list.begin(), list.end(),
                       [](const Option& a, const Option& b) { return a.reduced > b.reduced; });
      suffix_[i] = suffix_[i + 1] + std::max(0.0, list.front().reduced);
    }
    budget_.effort() += static_cast<std::int64_t>(p_.bid_count() / 8 + jobs_.size());
  }

  bool cannot_improve(double optimistic) const {
    return optimistic <= best_value_ + optimality_tolerance(best_value_);
  }

  void search(std::size_t depth, double fixed_part) {
    if (aborted_) return;
    if (budget_.spent() >= effort_cap_ || budget_.exhausted()) {
      aborted_ = true;
      return;
    }
    ++budget_.effort();
    if (cannot_improve(fixed_part + suffix_[depth])) return;
    if (depth == jobs_.size()) {
      if (current_.objective > best_value_) {
        best_value_ = current_.objective;
        best_choice_ = current_.bid_of_job;
      }
      return;
    }
    const std::int32_t job = jobs_[depth];
    for (const Option& option : options_[depth]) {
      if (cannot_improve(fixed_part + option.reduced + suffix_[depth + 1])) break;  // sorted
      if (option.bid < 0) {
        search(depth + 1, fixed_part);
        continue;
      }
      if (!current_.ledger.fits(option.bid)) continue;
      current_.ledger.take(option.bid);
      current_.bid_of_job[job] = option.bid;
      current_.objective += p_.value[option.bid];
      search(depth + 1, fixed_part + option.reduced);
      current_.objective -= p_.value[option.bid];
      current_.bid_of_job[job] = -1;
      current_.ledger.release(option.bid);
    }
  }

  const CompactProblem& p_;
  const std::vector<std::int32_t>& jobs_;
  Budget& budget_;
  std::int64_t effort_cap_;
  Incumbent current_;
  double best_value_;
  double root_ = 0.0;
  std::vector<std::vector<Option>> options_;
  std::vector<double> suffix_;
  std::vector<std::int32_t> best_choice_;
  bool aborted_ = false;
};

}  // namespace

PricedBids price_bids(const CompactProblem& p, const std::vector<double>& lambda,
                      std::int64_t& effort) {
  PricedBids priced;
  priced.reduced.assign(p.bid_count(), -std::numeric_limits<double>::infinity());
  for (std::int32_t b = 0; b < p.bid_count(); ++b) {
    if (!p.usable[b]) continue;
    double use = 0.0;
    for (std::int32_t u = p.use_begin[b]; u < p.use_begin[b + 1]; ++u)
      for (std::int32_t d = 0; d < p.dims; ++d)
        use += lambda[static_cast<std::size_t>(p.use_node[u]) * p.dims + d] *
               p.use_amount[static_cast<std::size_t>(u) * p.dims + d];
    priced.reduced[b] = p.value[b] - use;
  }
  for (std::size_t e = 0; e < lambda.size(); ++e) priced.capacity_value += lambda[e] * p.capacity[e];
  effort += static_cast<std::int64_t>(p.use_node.size()) + p.bid_count();
  return priced;
}

bool lagrangian_branch_and_bound(const CompactProblem& problem, const PricedBids& priced,
                                 const std::vector<std::int32_t>& free_jobs, Budget& budget,
                                 std::int64_t effort_cap, Incumbent& best) {
  Search search(problem, priced, free_jobs, budget, effort_cap, best);
  const bool complete = search.run();
  if (search.improved()) best = incumbent_of(problem, search.best_choice(), budget.effort());
  return complete;
}

}  // namespace hs::solver
