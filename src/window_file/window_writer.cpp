// The window-file writer: header fields one per line, one node, job or bid per line.
#include <filesystem>
#include <fstream>
#include <ostream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "window_file/window_file.hpp"

namespace hs::window_file {

namespace {

// One JSON scalar in the shortest form that reads back to the same value.
template <typename T>
std::string scalar(const T& value) {
  return nlohmann::json(value).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string amounts(const solver::Amounts& a, std::int32_t dims) {
  std::string text = "[";
  for (std::int32_t d = 0; d < dims; ++d) text += (d ? ", " : "") + std::to_string(a[d]);
  return text + "]";
}

void write_nodes(std::ostream& out, const WindowFile& file) {
  const solver::WindowProblem& p = file.problem;
  out << "  \"nodes\": [";
  for (std::int32_t n = 0; n < p.node_count; ++n) {
    solver::Amounts cap{};
    for (std::int32_t d = 0; d < p.dims; ++d) cap[d] = p.cap(n, d);
    out << (n ? ",\n" : "\n") << "    {";
    if (!file.node_names.empty()) out << "\"name\": " << scalar(file.node_names[n]) << ", ";
    out << "\"capacity\": " << amounts(cap, p.dims) << "}";
  }
  out << (p.node_count ? "\n  ],\n" : "],\n");
}

void write_jobs(std::ostream& out, const WindowFile& file) {
  const std::int32_t jobs = file.problem.job_count;
  out << "  \"jobs\": [";
  for (std::int32_t j = 0; j < jobs; ++j) {
    out << (j ? ",\n" : "\n") << "    {";
    if (!file.job_names.empty()) out << "\"name\": " << scalar(file.job_names[j]);
    out << "}";
  }
  out << (jobs ? "\n  ],\n" : "],\n");
}

void write_bids(std::ostream& out, const solver::WindowProblem& p) {
  out << "  \"bids\": [";
  for (std::size_t b = 0; b < p.bids.size(); ++b) {
    const solver::Bid& bid = p.bids[b];
    out << (b ? ",\n" : "\n") << "    {\"job\": " << bid.job << ", \"value\": " << scalar(bid.value)
        << ", \"uses\": [";
    for (std::size_t u = 0; u < bid.uses.size(); ++u)
      out << (u ? ", " : "") << "{\"node\": " << bid.uses[u].node
          << ", \"amount\": " << amounts(bid.uses[u].amount, p.dims) << "}";
    out << "]}";
  }
  out << (p.bids.empty() ? "]" : "\n  ]");
}

void write_replay(std::ostream& out, const ReplayRecord& r) {
  out << ",\n  \"replay\": {\"pass\": " << r.pass << ", \"time\": " << r.time
      << ", \"solve\": " << r.solve << ", \"scheduler\": " << scalar(r.scheduler)
      << ", \"solver\": " << scalar(r.solver) << ", \"effort_limit\": " << r.effort_limit
      << ", \"time_limit_s\": " << scalar(r.time_limit_s)
      << ", \"enumerate_bids\": " << r.enumerate_bids << ", \"status\": " << scalar(r.status)
      << ", \"objective\": " << scalar(r.objective) << ", \"bound\": " << scalar(r.bound) << "}";
}

}  // namespace

void write_window_json(std::ostream& out, const WindowFile& file) {
  out << "{\n  \"format\": " << scalar(std::string(kFormatName)) << ",\n  \"version\": "
      << kFormatVersion << ",\n  \"dimensions\": [";
  for (std::size_t d = 0; d < static_cast<std::size_t>(file.problem.dims); ++d)
    out << (d ? ", " : "")
        << scalar(d < file.dimension_names.size() ? file.dimension_names[d]
                                                  : "d" + std::to_string(d));
  out << "],\n";
  write_nodes(out, file);
  write_jobs(out, file);
  write_bids(out, file.problem);
  if (file.replay) write_replay(out, *file.replay);
  out << "\n}\n";
}

void write_window_file(const std::string& path, const WindowFile& file) {
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error("cannot write " + temporary);
    write_window_json(out, file);
    if (!out.flush()) throw std::runtime_error("cannot write " + temporary);
  }
  std::filesystem::rename(temporary, path);
}

std::string solve_status_name(solver::SolveStatus status) {
  switch (status) {
    case solver::SolveStatus::Optimal: return "optimal";
    case solver::SolveStatus::Feasible: return "feasible";
    case solver::SolveStatus::Infeasible: return "infeasible";
    case solver::SolveStatus::NoSolution: return "no-solution";
    case solver::SolveStatus::Error: return "error";
  }
  return "error";
}

}  // namespace hs::window_file
