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

}  // namespace

bool CapacityLedger::fits(std::int32_t bid) const {
  const CompactProblem& p = *problem_;
  const std::int32_t begin = p.use_begin[bid], end = p.use_begin[bid + 1];
  *effort_ += end - begin + 1;
  switch (p.dims) {
    case 2: return fits_in<2>(p, remaining_, begin, end);
    case 3: return fits_in<3>(p, remaining_, begin, end);
    default: return fits_in<0>(p, remaining_, begin, end);
  }
}

void CapacityLedger::take(std::int32_t bid) {
  const CompactProblem& p = *problem_;
  const std::int32_t dims = p.dims;
  *effort_ += p.use_count(bid) + 1;
  for (std::int32_t u = p.use_begin[bid]; u < p.use_begin[bid + 1]; ++u)
    for (std::int32_t d = 0; d < dims; ++d)
      remaining_[static_cast<std::size_t>(p.use_node[u]) * dims + d] -=
          p.use_amount[static_cast<std::size_t>(u) * dims + d];
}

void CapacityLedger::release(std::int32_t bid) {
  *effort_ += problem_->use_count(bid) + 1;
  give_back(bid);
}

void CapacityLedger::give_back(std::int32_t bid) {
  const CompactProblem& p = *problem_;
  const std::int32_t dims = p.dims;
  for (std::int32_t u = p.use_begin[bid]; u < p.use_begin[bid + 1]; ++u)
    for (std::int32_t d = 0; d < dims; ++d)
      remaining_[static_cast<std::size_t>(p.use_node[u]) * dims + d] +=
          p.use_amount[static_cast<std::size_t>(u) * dims + d];
}

}  // namespace hs::solver
