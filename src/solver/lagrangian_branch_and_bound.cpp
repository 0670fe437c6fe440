#include "solver/lagrangian_branch_and_bound.hpp"

#include <algorithm>

namespace hs::solver {

namespace {

class Search {
 public:
  Search(const CompactProblem& p, const std::vector<double>& lambda, Budget& budget,
         std::int64_t effort_cap, double incumbent_value)
      : p_(p), budget_(budget), effort_cap_(effort_cap), current_(p, budget.effort()),
        best_value_(incumbent_value), options_(p.jobs), suffix_(p.jobs + 1, 0.0) {
    std::vector<double> reduced(p.bid_count(), 0.0);
    for (std::int32_t b = 0; b < p.bid_count(); ++b) {
      double priced = 0.0;
      for (std::int32_t u = p.use_begin[b]; u < p.use_begin[b + 1]; ++u)
        for (std::int32_t d = 0; d < p.dims; ++d)
          priced += lambda[static_cast<std::size_t>(p.use_node[u]) * p.dims + d] *
                    p.use_amount[static_cast<std::size_t>(u) * p.dims + d];
      reduced[b] = p.value[b] - priced;
    }
    budget.effort() += static_cast<std::int64_t>(p.use_node.size()) + p.bid_count();
    for (std::size_t e = 0; e < lambda.size(); ++e) root_ += lambda[e] * p.capacity[e];
    build_options(reduced);
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

  // Per job: usable bids and "none", by descending reduced value.
  void build_options(const std::vector<double>& reduced) {
    for (std::int32_t job = p_.jobs - 1; job >= 0; --job) {
      std::vector<Option>& list = options_[job];
      list.push_back({-1, 0.0});
      for (std::int32_t k = p_.job_bid_begin[job]; k < p_.job_bid_begin[job + 1]; ++k) {
        const std::int32_t bid = p_.job_bids[k];
        if (p_.usable[bid]) list.push_back({bid, reduced[bid]});
      }
      std::stable_sort(list.begin(), list.end(),
                       [](const Option& a, const Option& b) { return a.reduced > b.reduced; });
      suffix_[job] = suffix_[job + 1] + std::max(0.0, list.front().reduced);
    }
  }

  void search(std::int32_t job, double fixed_part) {
    if (aborted_) return;
    if (budget_.spent() >= effort_cap_ || budget_.exhausted()) {
      aborted_ = true;
      return;
    }
    ++budget_.effort();
    if (fixed_part + suffix_[job] <= best_value_ + optimality_tolerance(best_value_)) return;
    if (job == p_.jobs) {
      if (current_.objective > best_value_) {
        best_value_ = current_.objective;
        best_choice_ = current_.bid_of_job;
      }
      return;
    }
    for (const Option& option : options_[job]) {
      if (fixed_part + option.reduced + suffix_[job + 1] <=
          best_value_ + optimality_tolerance(best_value_))
        break;  // options are sorted: no later one can do better
      if (option.bid < 0) {
        search(job + 1, fixed_part);
        continue;
      }
      if (!current_.ledger.fits(option.bid)) continue;
      current_.ledger.take(option.bid);
      current_.bid_of_job[job] = option.bid;
      current_.objective += p_.value[option.bid];
      search(job + 1, fixed_part + option.reduced);
      current_.objective -= p_.value[option.bid];
      current_.bid_of_job[job] = -1;
      current_.ledger.release(option.bid);
    }
  }

  const CompactProblem& p_;
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

bool lagrangian_branch_and_bound(const CompactProblem& problem, const std::vector<double>& lambda,
                                 Budget& budget, std::int64_t effort_cap, Incumbent& best) {
  Search search(problem, lambda, budget, effort_cap, best.objective);
  const bool complete = search.run();
  if (search.improved()) {
    Incumbent rebuilt(problem, budget.effort());
    for (std::int32_t bid : search.best_choice())
      if (bid >= 0) {
        rebuilt.ledger.take(bid);
        rebuilt.bid_of_job[problem.job_of_bid[bid]] = bid;
        rebuilt.objective += problem.value[bid];
      }
    best = std::move(rebuilt);
  }
  return complete;
}

}  // namespace hs::solver
