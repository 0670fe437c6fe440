#include "solver/neighbourhood_packing.hpp"

#include <algorithm>

namespace hs::solver {

namespace {

constexpr double kMinGain = 1e-9;

constexpr std::int32_t kUnplaced = -1;
constexpr std::int32_t kDropped = -2;

class Packer {
 public:
  Packer(const CompactProblem& p, const std::vector<std::int32_t>& members, int max_drops,
         Budget& budget, std::int64_t effort_cap, const Incumbent& incumbent)
      : p_(p), members_(members), budget_(budget), effort_cap_(effort_cap),
        ledger_(incumbent.ledger), drops_left_(max_drops), old_value_(members.size(), 0.0),
        best_gain_(members.size(), 0.0), chosen_(members.size(), kUnplaced),
        options_(members.size()) {
    for (std::size_t m = 0; m < members_.size(); ++m)
      if (const std::int32_t bid = incumbent.bid_of_job[members_[m]]; bid >= 0) {
        ledger_.release(bid);
        old_value_[m] = p_.value[bid];
      }
    const std::int32_t target = members_.front();
    for (std::int32_t k = p_.job_bid_begin[target]; k < p_.job_bid_begin[target + 1]; ++k)
      if (p_.usable[p_.job_bids[k]]) target_top_ = std::max(target_top_, p_.value[p_.job_bids[k]]);
    for (std::size_t m = 0; m < members_.size(); ++m) build_options(m, incumbent.bid_of_job[members_[m]]);
  }

  bool run() { return search(0); }
  // Per member: its new bid, or kDropped.
  const std::vector<std::int32_t>& chosen() const { return chosen_; }

 private:
  // The member's usable bids that fit what the fixed jobs leave: its current bid first,
  // then by descending value. Also its best possible change of value, for the bound.
  void build_options(std::size_t m, std::int32_t current) {
    const std::int32_t job = members_[m];
    std::vector<std::int32_t>& list = options_[m];
    for (std::int32_t k = p_.job_bid_begin[job]; k < p_.job_bid_begin[job + 1]; ++k) {
      const std::int32_t bid = p_.job_bids[k];
      if (p_.usable[bid] && ledger_.fits(bid)) list.push_back(bid);
    }
    std::sort(list.begin(), list.end(), [&](std::int32_t a, std::int32_t b) {
      if ((a == current) != (b == current)) return a == current;
      return p_.value[a] > p_.value[b] || (p_.value[a] == p_.value[b] && a < b);
    });
    budget_.effort() += sort_effort(list.size());
    double top = droppable(m) ? 0.0 : -old_value_[m];
    for (std::int32_t bid : list) top = std::max(top, p_.value[bid] - old_value_[m]);
    best_gain_[m] = top;
    optimistic_ += top;
  }

  // Only a started job worth less than the target's best bid may be left out.
  bool droppable(std::size_t m) const {
    return m != 0 && drops_left_ > 0 && old_value_[m] > 0.0 && old_value_[m] < target_top_;
  }

  std::int32_t fitting_count(std::size_t m, std::int32_t stop_at) const {
    std::int32_t count = 0;
    for (std::int32_t bid : options_[m])
      if (ledger_.fits(bid) && ++count >= stop_at) break;
    return count;
  }

  // The undecided member with the fewest fitting bids; -1 if one has none and cannot be
  // left out.
  std::int64_t most_constrained() {
    budget_.effort() += static_cast<std::int64_t>(members_.size());
    std::int64_t pick = -1;
    std::int32_t fewest = INT32_MAX;
    for (std::size_t m = 0; m < members_.size(); ++m) {
      if (chosen_[m] != kUnplaced) continue;
      const std::int32_t count = fitting_count(m, fewest);
      if (count == 0 && !droppable(m)) return -1;
      if (count < fewest) {
        fewest = count;
        pick = static_cast<std::int64_t>(m);
      }
    }
    return pick;
  }

  bool decide(std::size_t m, std::int32_t bid, std::size_t decided) {
    const double change = (bid >= 0 ? p_.value[bid] : 0.0) - old_value_[m];
    if (gain_ + change + optimistic_ - best_gain_[m] <= kMinGain) return false;
    if (bid >= 0) ledger_.take(bid);
    else --drops_left_;
    chosen_[m] = bid;
    gain_ += change;
    optimistic_ -= best_gain_[m];
    if (search(decided + 1)) return true;
    optimistic_ += best_gain_[m];
    gain_ -= change;
    chosen_[m] = kUnplaced;
    if (bid >= 0) ledger_.release(bid);
    else ++drops_left_;
    return false;
  }

  bool search(std::size_t decided) {
    if (decided == members_.size()) return gain_ > kMinGain;
    if (budget_.spent() >= effort_cap_ || budget_.exhausted()) return false;
    ++budget_.effort();
    const std::int64_t pick = most_constrained();
    if (pick < 0) return false;
    const auto m = static_cast<std::size_t>(pick);
    for (std::int32_t bid : options_[m]) {
      if (!ledger_.fits(bid)) continue;
      if (decide(m, bid, decided)) return true;
      if (budget_.spent() >= effort_cap_) return false;
    }
    return droppable(m) && decide(m, kDropped, decided);
  }

  const CompactProblem& p_;
  const std::vector<std::int32_t>& members_;
  Budget& budget_;
  std::int64_t effort_cap_;
  CapacityLedger ledger_;
  int drops_left_;
  double target_top_ = 0.0;                          // the target's most valuable bid
  std::vector<double> old_value_;                    // per member, 0 if not started
  std::vector<double> best_gain_;                    // per member: best new value - old
  double gain_ = 0.0;                                // change of value of decided members
  double optimistic_ = 0.0;                          // sum of best_gain_ of undecided ones
  std::vector<std::int32_t> chosen_;                 // per member
  std::vector<std::vector<std::int32_t>> options_;   // per member
};

}  // namespace

std::int64_t repacking_reserve(const CompactProblem& p, const std::vector<std::int32_t>& members) {
  std::int64_t options = 0, largest_bids = 0, sorts = 0;
  for (std::int32_t job : members) {
    std::int64_t usable = 0, largest = 0;
    for (std::int32_t k = p.job_bid_begin[job]; k < p.job_bid_begin[job + 1]; ++k) {
      const std::int32_t bid = p.job_bids[k];
      largest = std::max<std::int64_t>(largest, p.use_count(bid) + 1);
      if (!p.usable[bid]) continue;
      options += p.use_count(bid) + 1;
      ++usable;
    }
    largest_bids += largest;
    sorts += sort_effort(static_cast<std::size_t>(usable));
  }
  const auto count = static_cast<std::int64_t>(members.size());
  // set-up: releases, fit tests, sorts; a step: its count, the scan for the most
  // constrained member, a take and the releases of unwinding; applying: releases and takes.
  return (largest_bids + options + sorts) + (1 + count + options + 2 * largest_bids) + 2 * largest_bids;
}

bool repack_neighbourhood(const CompactProblem& problem, const std::vector<std::int32_t>& members,
                          int max_drops, Budget& budget, std::int64_t effort, Incumbent& incumbent) {
  Packer packer(problem, members, max_drops, budget, budget.spent() + effort, incumbent);
  if (!packer.run()) return false;
  for (std::int32_t job : members)
    if (const std::int32_t old = incumbent.bid_of_job[job]; old >= 0) {
      incumbent.ledger.release(old);
      incumbent.objective -= problem.value[old];
      incumbent.bid_of_job[job] = -1;
    }
  for (std::size_t m = 0; m < members.size(); ++m) {
    const std::int32_t bid = packer.chosen()[m];
    if (bid < 0) continue;
    incumbent.ledger.take(bid);
    incumbent.bid_of_job[members[m]] = bid;
    incumbent.objective += problem.value[bid];
  }
  return true;
}

}  // namespace hs::solver
