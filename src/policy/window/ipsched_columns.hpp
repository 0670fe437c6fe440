#pragma once
// IPSCHED's integer program (thesis ch. 3) solved in its column view. A feasible point of
// (3.2)-(3.7) for job j is just a per-node core vector x_.j (t_nj = [x_nj > 0], gres follow),
// and its objective term P_j (1 - Σ_n t_nj / 2|N|) depends only on that vector. So the IP is
// exactly "pick at most one column per job, node capacities hold" over the set of ALL such
// vectors. We solve it over a generated subset of columns (a restricted master problem):
// exhaustive enumeration for tiny instances (then the optimum is the IP's optimum), else a
// few structured columns per job plus residual "pricing" rounds (docs/window-schedulers.md).
#include <cstdint>
#include <span>
#include <vector>

#include "policy/window/candidate.hpp"
#include "policy/window/window_job.hpp"

namespace hs::window {

enum class ColumnShape {
  Packed,      // fewest nodes: most free cores first, fewest spare gres on ties
  GresSaving,  // nodes with the fewest free gres first (keeps GPU nodes for GPU jobs)
  Spread,      // as many nodes as allowed, cores spread evenly (frees cores everywhere)
  BestFit      // largest nodes, then the smallest node that holds the remainder
};

// One column of the given shape for the job on `free`, or false.
bool build_column(const FreeArrays& free, const WindowJob& job, int slot,
                  std::span<const char> mask, ColumnShape shape, Candidate& out);

// build_column for a caller that knows the job's eligible nodes on `free`: those node_fits
// accepts at the job's gres minimum, ascending.
bool build_column_among(const FreeArrays& free, const WindowJob& job, int slot,
                        const std::vector<NodeIndex>& eligible, ColumnShape shape, Candidate& out);

// Every column of the job on `free` (all per-node core vectors satisfying the request),
// at most `cap` of them. Returns false if there are more than `cap`.
bool enumerate_columns(const FreeArrays& free, const WindowJob& job, int slot,
                       std::span<const char> mask, std::int64_t cap, std::vector<Candidate>& out);

// Keeps one copy of each (slot, nodes, cores) column.
class ColumnPool {
 public:
  bool add(Candidate c);
  std::vector<Candidate>& columns() { return columns_; }
  const std::vector<Candidate>& columns() const { return columns_; }

 private:
  std::vector<Candidate> columns_;
  std::vector<std::vector<std::int32_t>> keys_;  // sorted
};

// Initial columns: each shape on the free state for every job, and each shape applied in
// window order with the state updated as if earlier jobs had started.
void initial_columns(const FreeArrays& free, std::span<const WindowJob> window,
                     std::span<const std::vector<char>> masks, ColumnPool& pool);

// Pricing round: columns for the jobs that did not win, on what the winners leave free,
// in window order with the residual updated; then pairwise repacking: for each of the
// first `repack_losers` losing jobs and each winner, the loser is placed on the residual
// plus the winner's resources and the winner re-placed on what is left (at most
// `repack_pairs` pairs in all). Returns how many new columns were added.
int residual_columns(const FreeArrays& residual, std::span<const WindowJob> window,
                     std::span<const std::vector<char>> masks,
                     std::span<const Candidate> winners, int repack_losers, int repack_pairs,
                     ColumnPool& pool);

}  // namespace hs::window
