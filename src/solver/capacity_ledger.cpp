#include "solver/capacity_ledger.hpp"

namespace hs::solver {

CapacityLedger::CapacityLedger(const CompactProblem& problem, std::int64_t& effort)
    : problem_(&problem), effort_(&effort), remaining_(problem.capacity) {}

namespace {

// Dims > 0 fixes the dimension count at compile time so the check unrolls.
template <int Dims>
bool fits_in(const CompactProblem& p, const std::vector<std::int32_t>& remaining,
             std::int32_t begin, std::int32_t end) {
  const std::size_t dims = Dims > 0 ? Dims : static_cast<std::size_t>(p.dims);
  for (std::int32_t u = begin; u < end; ++u) {
    const std::int32_t* need = &p.use_amount[static_cast<std::size_t>(u) * dims];
    const std::int32_t* left = &remaining[static_cast<std::size_t>(p.use_node[u]) * dims];
    for (std::size_t d = 0; d < dims; ++d)
      if (need[d] > left[d]) return false;
  }
  return true;
}

template <int Dims>
void add_amounts(const CompactProblem& p, std::vector<std::int32_t>& remaining, std::int32_t bid,
                 std::int32_t sign) {
  const std::size_t dims = Dims > 0 ? Dims : static_cast<std::size_t>(p.dims);
  for (std::int32_t u = p.use_begin[bid]; u < p.use_begin[bid + 1]; ++u) {
    const std::int32_t* amount = &p.use_amount[static_cast<std::size_t>(u) * dims];
    std::int32_t* left = &remaining[static_cast<std::size_t>(p.use_node[u]) * dims];
    for (std::size_t d = 0; d < dims; ++d) left[d] += sign * amount[d];
  }
}

}  // namespace

bool CapacityLedger::fits(std::int32_t bid) const {
  *effort_ += problem_->use_count(bid) + 1;
  return fits_prepaid(bid);
}

bool CapacityLedger::fits_prepaid(std::int32_t bid) const {
  const CompactProblem& p = *problem_;
  const std::int32_t begin = p.use_begin[bid], end = p.use_begin[bid + 1];
  return with_fixed_dims(p.dims, [&](auto dims) {
    return fits_in<decltype(dims)::value>(p, remaining_, begin, end);
  });
}

void CapacityLedger::take(std::int32_t bid) {
  *effort_ += problem_->use_count(bid) + 1;
  add_uses(bid, -1);
}

void CapacityLedger::release(std::int32_t bid) {
  *effort_ += problem_->use_count(bid) + 1;
  give_back(bid);
}

void CapacityLedger::give_back(std::int32_t bid) { add_uses(bid, +1); }

// remaining += sign * the bid's amounts, with the dimension count fixed at compile time
// where it is usual (the same integer sums in the same order).
void CapacityLedger::add_uses(std::int32_t bid, std::int32_t sign) {
  const CompactProblem& p = *problem_;
  with_fixed_dims(p.dims, [&](auto dims) {
    add_amounts<decltype(dims)::value>(p, remaining_, bid, sign);
  });
}

}  // namespace hs::solver
