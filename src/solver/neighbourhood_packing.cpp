#include "solver/neighbourhood_packing.hpp"

#include <algorithm>

namespace hs::solver {

namespace {

constexpr double kMinGain = 1e-9;

class Packer {
 public:
  Packer(const CompactProblem& p, const std::vector<std::int32_t>& members, Budget& budget,
         std::int64_t effort_cap, const Incumbent& incumbent)
      : p_(p), members_(members), budget_(budget), effort_cap_(effort_cap),
        ledger_(incumbent.ledger), chosen_(members.size(), -1), options_(members.size()) {
    for (std::int32_t job : members_)
      if (const std::int32_t bid = incumbent.bid_of_job[job]; bid >= 0) ledger_.release(bid);
    for (std::size_t m = 0; m < members_.size(); ++m) build_options(m, incumbent.bid_of_job[members_[m]]);
  }

  bool run() { return search(0); }
  const std::vector<std::int32_t>& chosen() const { return chosen_; }

 private:
  // The member's usable bids that fit what the fixed jobs leave: its current bid first,
  // then by descending value.
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
  }

  std::int32_t fitting_count(std::size_t m, std::int32_t stop_at) const {
    std::int32_t count = 0;
    for (std::int32_t bid : options_[m])
      if (ledger_.fits(bid) && ++count >= stop_at) break;
    return count;
  }

  // The unplaced member with the fewest fitting bids; -1 if none is left, -2 if one has none.
  std::int64_t most_constrained() const {
    std::int64_t pick = -1;
    std::int32_t fewest = INT32_MAX;
    for (std::size_t m = 0; m < members_.size(); ++m) {
      if (chosen_[m] >= 0) continue;
      const std::int32_t count = fitting_count(m, fewest);
      if (count == 0) return -2;
      if (count < fewest) {
        fewest = count;
        pick = static_cast<std::int64_t>(m);
      }
    }
    return pick;
  }

  bool search(std::size_t placed) {
    if (placed == members_.size()) return true;
    if (budget_.spent() >= effort_cap_ || budget_.exhausted()) return false;
    ++budget_.effort();
    const std::int64_t pick = most_constrained();
    if (pick < 0) return false;
    const auto m = static_cast<std::size_t>(pick);
    for (std::int32_t bid : options_[m]) {
      if (!ledger_.fits(bid)) continue;
      ledger_.take(bid);
      chosen_[m] = bid;
      if (search(placed + 1)) return true;
      chosen_[m] = -1;
      ledger_.release(bid);
      if (budget_.spent() >= effort_cap_) return false;
    }
    return false;
  }

  const CompactProblem& p_;
  const std::vector<std::int32_t>& members_;
  Budget& budget_;
  std::int64_t effort_cap_;
  CapacityLedger ledger_;
  std::vector<std::int32_t> chosen_;                 // per member, -1 = not placed yet
  std::vector<std::vector<std::int32_t>> options_;   // per member
};

}  // namespace

bool repack_to_start_all(const CompactProblem& problem, const std::vector<std::int32_t>& members,
                         Budget& budget, std::int64_t effort, Incumbent& incumbent) {
  Packer packer(problem, members, budget, budget.spent() + effort, incumbent);
  if (!packer.run()) return false;
  double change = 0.0;
  for (std::size_t m = 0; m < members.size(); ++m) {
    const std::int32_t old = incumbent.bid_of_job[members[m]];
    change += problem.value[packer.chosen()[m]] - (old >= 0 ? problem.value[old] : 0.0);
  }
  if (change <= kMinGain) return false;
  for (std::int32_t job : members)
    if (const std::int32_t old = incumbent.bid_of_job[job]; old >= 0) incumbent.ledger.release(old);
  for (std::size_t m = 0; m < members.size(); ++m) {
    const std::int32_t bid = packer.chosen()[m];
    incumbent.ledger.take(bid);
    incumbent.bid_of_job[members[m]] = bid;
  }
  incumbent.objective += change;
  return true;
}

}  // namespace hs::solver
