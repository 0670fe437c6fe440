#pragma once
// Remaining node capacity under a partial solution, with fit/take/release of whole bids.
// Every call charges the number of node uses it visits to an effort counter, the
// deterministic unit in which solver work is limited.
#include <cstdint>
#include <vector>

#include "solver/compact_problem.hpp"

namespace hs::solver {

class CapacityLedger {
 public:
  CapacityLedger(const CompactProblem& problem, std::int64_t& effort);
  bool fits(std::int32_t bid) const;
  void take(std::int32_t bid);
  void release(std::int32_t bid);
  // release() without the effort charge: for emptying a reused scratch incumbent, which
  // stands in for a freshly constructed (uncharged) one.
  void give_back(std::int32_t bid);
  // fits() and take() without their charge, for a caller that has charged them in advance.
  bool fits_prepaid(std::int32_t bid) const;
  void take_prepaid(std::int32_t bid) { add_uses(bid, -1); }
  std::int32_t remaining(std::int32_t node, std::int32_t dim) const {
    return remaining_[static_cast<std::size_t>(node) * problem_->dims + dim];
  }

 private:
  void add_uses(std::int32_t bid, std::int32_t sign);

  const CompactProblem* problem_;
  std::int64_t* effort_;
  std::vector<std::int32_t> remaining_;
};

}  // namespace hs::solver
