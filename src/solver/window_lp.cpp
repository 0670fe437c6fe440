#include "solver/window_lp.hpp"

#include <cstdint>
#include <vector>

#include "solver/conflict_cliques.hpp"

namespace hs::solver {

namespace {

void add_columns(const CompactProblem& p, MipModel& model) {
  model.maximize = true;
  model.columns.resize(static_cast<std::size_t>(p.bid_count()));
  for (std::int32_t b = 0; b < p.bid_count(); ++b) {
    model.columns[b].objective = p.value[b];
    model.columns[b].upper = p.usable[b] ? 1.0 : 0.0;
  }
}

void add_job_rows(const CompactProblem& p, MipModel& model, std::vector<std::int32_t>& job_row) {
  job_row.assign(static_cast<std::size_t>(p.jobs), -1);
  for (std::int32_t j = 0; j < p.jobs; ++j) {
    MipRow row;
    for (std::int32_t k = p.job_bid_begin[j]; k < p.job_bid_begin[j + 1]; ++k)
      if (p.usable[p.job_bids[k]]) row.columns.push_back(p.job_bids[k]);
    if (row.columns.size() < 2) continue;
    row.coefficients.assign(row.columns.size(), 1.0);
    row.upper = 1.0;
    job_row[j] = static_cast<std::int32_t>(model.rows.size());
    model.rows.push_back(std::move(row));
  }
}

// Per (node, dimension) row: the usable bids' uses, their amounts and the amounts' sum.
struct ResourceRows {
  std::vector<MipRow> rows;
  std::vector<std::int64_t> load;
};

ResourceRows collect_uses(const CompactProblem& p) {
  ResourceRows r;
  const std::size_t count = static_cast<std::size_t>(p.nodes) * p.dims;
  r.rows.resize(count);
  r.load.assign(count, 0);
  for (std::int32_t b = 0; b < p.bid_count(); ++b) {
    if (!p.usable[b]) continue;
    for (std::int32_t u = p.use_begin[b]; u < p.use_begin[b + 1]; ++u)
      for (std::int32_t d = 0; d < p.dims; ++d) {
        const std::int32_t amount = p.use_amount[static_cast<std::size_t>(u) * p.dims + d];
        if (amount == 0) continue;
        const std::size_t row = static_cast<std::size_t>(p.use_node[u]) * p.dims + d;
        r.rows[row].columns.push_back(b);
        r.rows[row].coefficients.push_back(amount);
        r.load[row] += amount;
      }
  }
  return r;
}

// The bids of `row` that take more than half of `capacity`, as a clique row (if ≥ 2).
void add_clique(const MipRow& row, std::int32_t capacity, MipModel& model) {
  MipRow clique;
  for (std::size_t k = 0; k < row.columns.size(); ++k)
    if (2.0 * row.coefficients[k] > capacity) clique.columns.push_back(row.columns[k]);
  if (clique.columns.size() < 2) return;
  clique.coefficients.assign(clique.columns.size(), 1.0);
  clique.upper = 1.0;
  model.rows.push_back(std::move(clique));
}

// True when row `a` with capacity `ca` is implied by row `b` with capacity `cb`: every
// column of a is in b with at least its coefficient, and cb <= ca (x >= 0). Both rows list
// their columns in ascending order.
bool dominated(const MipRow& a, std::int64_t ca, const MipRow& b, std::int64_t cb) {
  if (cb > ca || a.columns.size() > b.columns.size()) return false;
  std::size_t k = 0;
  for (std::size_t i = 0; i < a.columns.size(); ++i) {
    while (k < b.columns.size() && b.columns[k] < a.columns[i]) ++k;
    if (k == b.columns.size() || b.columns[k] != a.columns[i] ||
        b.coefficients[k] < a.coefficients[i])
      return false;
  }
  return true;
}

// Per (node, dimension) row: false when a neighbouring node's row of the same dimension that
// is kept implies it. Forward, a row implied by the next node's row goes (of a run of equal
// rows only the last stays); backward, one implied by the previous node's kept row.
std::vector<bool> undominated_rows(const CompactProblem& p, const ResourceRows& uses) {
  const std::size_t count = uses.rows.size(), step = static_cast<std::size_t>(p.dims);
  std::vector<bool> keep(count, true);
  auto implied = [&](std::size_t a, std::size_t b) {
    return dominated(uses.rows[a], p.capacity[a], uses.rows[b], p.capacity[b]);
  };
  for (std::size_t row = 0; row + step < count; ++row)
    if (implied(row, row + step)) keep[row] = false;
  for (std::size_t row = step; row < count; ++row)
    if (keep[row] && keep[row - step] && implied(row, row - step)) keep[row] = false;
  return keep;
}

}  // namespace

WindowLp window_lp(const CompactProblem& p, const WindowLpOptions& options) {
  WindowLp lp;
  MipModel& model = lp.model;
  add_columns(p, model);
  add_job_rows(p, model, lp.job_row);
  ResourceRows uses = collect_uses(p);
  const std::vector<bool> keep = options.drop_dominated_rows
                                     ? undominated_rows(p, uses)
                                     : std::vector<bool>(uses.rows.size(), true);
  for (std::size_t row = 0; row < uses.rows.size(); ++row) {
    const std::int32_t capacity = p.capacity[row];
    if (uses.load[row] <= capacity || !keep[row]) continue;  // can never bind, or implied
    if (options.clique_rows) add_clique(uses.rows[row], capacity, model);
    uses.rows[row].upper = capacity;
    lp.capacity_rows.push_back(static_cast<std::int32_t>(model.rows.size()));
    model.rows.push_back(std::move(uses.rows[row]));
  }
  return lp;
}

std::vector<MipRow> conflict_clique_rows(const CompactProblem& p, const WindowLp& lp,
                                         std::int64_t work_limit, std::int64_t& work) {
  std::vector<CapacityRowView> views;
  views.reserve(lp.capacity_rows.size());
  for (std::int32_t row : lp.capacity_rows) {
    const MipRow& capacity_row = lp.model.rows[static_cast<std::size_t>(row)];
    views.push_back({&capacity_row, static_cast<std::int64_t>(capacity_row.upper)});
  }
  ConflictCliques found = conflict_cliques(p, views, work_limit);
  work = found.work;
  std::vector<MipRow> rows;
  for (std::vector<std::int32_t>& clique : found.cliques) {
    MipRow row;
    row.coefficients.assign(clique.size(), 1.0);
    row.columns = std::move(clique);
    row.upper = 1.0;
    rows.push_back(std::move(row));
  }
  return rows;
}

bool clp_available() {
#ifdef HETSCHED_HAVE_CBC
  return true;
#else
  return false;
#endif
}

}  // namespace hs::solver
