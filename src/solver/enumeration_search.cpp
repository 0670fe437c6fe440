#include "solver/enumeration_search.hpp"

#include <algorithm>

#include "solver/incumbent.hpp"

namespace hs::solver {

namespace {

// Jobs in index order; each tries its fitting bids by descending value (ties: lower index),
// then "no bid". A branch is cut when even every remaining job's best value cannot lift
// it past the best so far by the gain asked for.
class Enumeration {
 public:
  Enumeration(const CompactProblem& p, Budget& budget, std::int64_t effort_cap, double floor,
              double min_gain)
      : p_(p), budget_(budget), effort_cap_(effort_cap), min_gain_(min_gain),
        current_(p, budget.effort()), best_value_(floor), suffix_best_(p.jobs + 1, 0.0),
        bids_by_value_(p.jobs) {
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

  EnumerationResult run() {
    const std::int64_t setup = p_.bid_count() + p_.jobs;
    if (budget_.spent() + setup > effort_cap_) return std::move(result_);
    budget_.effort() += setup;
    search(0);
    result_.complete = !aborted_;
    result_.objective = best_value_;
    return std::move(result_);
  }

 private:
  void search(std::int32_t job) {
    if (aborted_ || (aborted_ = budget_.spent() + 1 > effort_cap_ || budget_.exhausted())) return;
    ++budget_.effort();
    if (current_.objective + suffix_best_[job] <= best_value_ + min_gain_) return;
    if (job == p_.jobs) {
      best_value_ = current_.objective;
      result_.bid_of_job = current_.bid_of_job;
      result_.improved = true;
      return;
    }
    for (std::int32_t bid : bids_by_value_[job]) {
      // A bid's fit test, take and release are charged before the test, so that a stop
      // deeper down never leaves a charge to pass the cap while the search unwinds.
      const std::int64_t step = p_.use_count(bid) + 1;
      if (aborted_ || (aborted_ = budget_.spent() + 3 * step > effort_cap_)) return;
      budget_.effort() += 3 * step;
      if (!current_.ledger.fits_prepaid(bid)) continue;
      current_.ledger.take_prepaid(bid);
      current_.bid_of_job[job] = bid;
      current_.objective += p_.value[bid];
      search(job + 1);
      current_.objective -= p_.value[bid];
      current_.bid_of_job[job] = -1;
      current_.ledger.give_back(bid);
    }
    search(job + 1);
  }

  const CompactProblem& p_;
  Budget& budget_;
  std::int64_t effort_cap_;
  double min_gain_;
  Incumbent current_;
  double best_value_;
  std::vector<double> suffix_best_;
  std::vector<std::vector<std::int32_t>> bids_by_value_;
  EnumerationResult result_;
  bool aborted_ = false;
};

}  // namespace

EnumerationResult enumerate_choices(const CompactProblem& problem, Budget& budget,
                                    std::int64_t effort_cap, double floor, double min_gain) {
  return Enumeration(problem, budget, effort_cap, floor, min_gain).run();
}

}  // namespace hs::solver
