#include "solver/mip_model.hpp"

#include <algorithm>
#include <cmath>

namespace hs::solver {

namespace {

std::optional<std::string> find_row_defect(const MipModel& model, std::size_t r) {
  const MipRow& row = model.rows[r];
  const std::string label = "rows[" + std::to_string(r) + "]";
  if (row.columns.size() != row.coefficients.size())
    return label + " has " + std::to_string(row.columns.size()) + " columns but " +
           std::to_string(row.coefficients.size()) + " coefficients";
  if (std::isnan(row.lower) || std::isnan(row.upper) || row.lower > row.upper)
    return label + " has invalid bounds";
  std::vector<std::int32_t> sorted = row.columns;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
    return label + " names a column twice";
  for (std::size_t k = 0; k < row.columns.size(); ++k) {
    if (row.columns[k] < 0 || static_cast<std::size_t>(row.columns[k]) >= model.columns.size())
      return label + " has column index out of range: " + std::to_string(row.columns[k]);
    if (!std::isfinite(row.coefficients[k])) return label + " has a non-finite coefficient";
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> find_model_defect(const MipModel& model) {
  for (std::size_t c = 0; c < model.columns.size(); ++c) {
    const MipColumn& col = model.columns[c];
    if (std::isnan(col.lower) || std::isnan(col.upper) || col.lower > col.upper ||
        !std::isfinite(col.objective))
      return "columns[" + std::to_string(c) + "] has invalid bounds or objective";
  }
  for (std::size_t r = 0; r < model.rows.size(); ++r)
    if (auto defect = find_row_defect(model, r)) return defect;
  if (!model.column_names.empty() && model.column_names.size() != model.columns.size())
    return "column_names has " + std::to_string(model.column_names.size()) + " names for " +
           std::to_string(model.columns.size()) + " columns";
  if (!model.row_names.empty() && model.row_names.size() != model.rows.size())
    return "row_names has " + std::to_string(model.row_names.size()) + " names for " +
           std::to_string(model.rows.size()) + " rows";
  return std::nullopt;
}

MipModel window_to_mip(const WindowProblem& problem) {
  MipModel model;
  model.maximize = true;
  std::vector<std::vector<std::int32_t>> bids_of_job(problem.job_count);
  const std::size_t entries = static_cast<std::size_t>(problem.node_count) * problem.dims;
  std::vector<MipRow> capacity_rows(entries);
  for (std::size_t b = 0; b < problem.bids.size(); ++b) {
    const Bid& bid = problem.bids[b];
    MipColumn column;
    column.objective = bid.value;
    for (const NodeUse& use : bid.uses)
      for (std::int32_t d = 0; d < problem.dims; ++d)
        if (use.amount[d] > problem.cap(use.node, d)) column.upper = 0.0;
    model.columns.push_back(column);
    model.column_names.push_back("b" + std::to_string(b) + "_j" + std::to_string(bid.job));
    bids_of_job[bid.job].push_back(static_cast<std::int32_t>(b));
    for (const NodeUse& use : bid.uses)
      for (std::int32_t d = 0; d < problem.dims; ++d)
        if (use.amount[d] > 0) {
          MipRow& row = capacity_rows[static_cast<std::size_t>(use.node) * problem.dims + d];
          row.columns.push_back(static_cast<std::int32_t>(b));
          row.coefficients.push_back(use.amount[d]);
        }
  }
  for (std::size_t j = 0; j < bids_of_job.size(); ++j) {
    const auto& bids = bids_of_job[j];
    if (bids.size() < 2) continue;
    MipRow row;
    row.columns = bids;
    row.coefficients.assign(bids.size(), 1.0);
    row.upper = 1.0;
    model.rows.push_back(std::move(row));
    model.row_names.push_back("job" + std::to_string(j));
  }
  for (std::size_t e = 0; e < entries; ++e) {
    if (capacity_rows[e].columns.empty()) continue;
    capacity_rows[e].upper = problem.capacity[e];
    model.rows.push_back(std::move(capacity_rows[e]));
    model.row_names.push_back("cap_n" + std::to_string(e / problem.dims) + "_d" +
                              std::to_string(e % problem.dims));
  }
  return model;
}

double max_violation(const MipModel& model, const std::vector<double>& values) {
  if (values.size() != model.columns.size()) return kMipInfinity;
  double worst = 0.0;
  for (std::size_t c = 0; c < values.size(); ++c) {
    const MipColumn& col = model.columns[c];
    worst = std::max({worst, col.lower - values[c], values[c] - col.upper});
    if (col.integer) worst = std::max(worst, std::fabs(values[c] - std::round(values[c])));
  }
  for (const MipRow& row : model.rows) {
    double activity = 0.0;
    for (std::size_t k = 0; k < row.columns.size(); ++k)
      activity += row.coefficients[k] * values[row.columns[k]];
    worst = std::max({worst, row.lower - activity, activity - row.upper});
  }
  return worst;
}

}  // namespace hs::solver
