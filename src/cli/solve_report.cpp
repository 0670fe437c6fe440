#include "cli/solve_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>

#include <nlohmann/json.hpp>

namespace hs::cli {

namespace {

std::string number(double v) {
  char text[64];
  std::snprintf(text, sizeof text, "%.12g", v);
  return text;
}

std::string check_line(const SolveReport& r) {
  if (!r.has_solution) return "no solution to check";
  if (r.defect) return "FAILED: " + *r.defect;
  return "OK: one bid per job at most, no capacity exceeded, objective = sum of won bids";
}

nlohmann::ordered_json chosen_bids(const SolveReport& r, const solver::WindowProblem& p) {
  nlohmann::ordered_json chosen = nlohmann::ordered_json::array();
  const auto& bid_of_job = r.result.solution.bid_of_job;
  for (std::size_t j = 0; j < bid_of_job.size(); ++j) {
    const std::int32_t b = bid_of_job[j];
    if (b < 0 || static_cast<std::size_t>(b) >= p.bids.size()) continue;
    chosen.push_back({{"job", j}, {"bid", b}, {"value", p.bids[b].value}});
  }
  return chosen;
}

// Bids that draw more than some node's whole capacity: valid input, but they can never win.
std::size_t bids_that_never_fit(const solver::WindowProblem& p) {
  const auto never = [&p](const solver::Bid& bid) { return !solver::fits_empty_cluster(p, bid); };
  return static_cast<std::size_t>(std::count_if(p.bids.begin(), p.bids.end(), never));
}

std::string never_fit_note(const solver::WindowProblem& p) {
  const std::size_t n = bids_that_never_fit(p);
  return n == 0 ? std::string()
                : "; never fit: " + std::to_string(n) + " (more than a node's capacity)";
}

}  // namespace

std::string replay_verdict(const SolveReport& r) {
  if (!r.replay) return "";
  if (r.replay->time_limit_s > 0.0) return "not comparable: the replay's solve had a wall-clock limit";
  if (r.replay->solver != r.solver || r.replay->effort_limit != r.effort_limit ||
      r.exact_bids > 0)
    return "not comparable: solver or effort differ from the replay's";
  const double a = r.result.solution.objective, b = r.replay->objective;
  return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(b)) ? "reproduced" : "differs";
}

void print_solve_report(std::ostream& out, const window_file::WindowFile& file,
                        const SolveReport& r) {
  const solver::WindowProblem& p = file.problem;
  std::int32_t started = 0;
  for (std::int32_t b : r.result.solution.bid_of_job) started += b >= 0;
  out << "window     " << r.window_path << ": " << p.job_count << " jobs, " << p.node_count
      << " nodes x " << p.dims << " dimensions, " << p.bids.size() << " bids"
      << never_fit_note(p) << "\n"
      << "solver     " << r.solver << ", effort limit "
      << (r.effort_limit > 0 ? std::to_string(r.effort_limit) : std::string("default"))
      << (r.exact_bids > 0 ? ", exact for windows of <= " + std::to_string(r.exact_bids) + " bids"
                           : std::string())
      << "\n"
      << "status     " << window_file::solve_status_name(r.result.status)
      << (r.result.message.empty() ? "" : " (" + r.result.message + ")") << "\n"
      << "objective  " << number(r.result.solution.objective) << " (" << started << " of "
      << p.job_count << " jobs start"
      << (r.result.parts > 0 ? "; " + std::to_string(r.result.parts) + " independent parts proven apart"
                             : std::string())
      << ")\n"
      << "bound      " << number(r.result.bound) << " (gap " << number(r.result.gap) << ", from "
      << solver::bound_source_name(r.result.bound_source) << ")\n"
      << "effort     " << r.result.effort << " units"
      << (r.result.bound_effort > 0 ? " (" + std::to_string(r.result.effort - r.result.bound_effort) +
                                          " search, " + std::to_string(r.result.bound_effort) +
                                          " bound after it)"
                                    : std::string());
  char ms[32];
  std::snprintf(ms, sizeof ms, ", %.3f ms\n", 1e3 * r.result.seconds);
  out << ms
      << "check      " << check_line(r) << "\n";
  if (r.replay)
    out << "replay     pass " << r.replay->pass << " at t=" << r.replay->time << " (solve "
        << r.replay->solve << ", " << r.replay->scheduler << ", " << r.replay->solver
        << "): objective " << number(r.replay->objective) << "; " << replay_verdict(r) << "\n";
}

void write_solve_json(std::ostream& out, const window_file::WindowFile& file,
                      const SolveReport& r) {
  nlohmann::ordered_json doc;
  doc["format"] = "hetsched-window-solution";
  doc["version"] = 1;
  doc["window"] = r.window_path;
  doc["solver"] = r.solver;
  doc["effort_limit"] = r.effort_limit;
  doc["exact_bids"] = r.exact_bids;
  doc["status"] = window_file::solve_status_name(r.result.status);
  doc["objective"] = r.result.solution.objective;
  doc["bound"] = r.result.bound;
  doc["gap"] = r.result.gap;
  doc["bound_source"] = solver::bound_source_name(r.result.bound_source);
  doc["effort"] = r.result.effort;
  doc["bound_effort"] = r.result.bound_effort;
  doc["parts"] = r.result.parts;
  doc["bids_never_fit"] = bids_that_never_fit(file.problem);
  doc["check"] = r.has_solution ? (r.defect ? "failed: " + *r.defect : "ok") : "no solution";
  if (r.replay) {
    doc["replay_objective"] = r.replay->objective;
    doc["replay"] = replay_verdict(r);
  }
  doc["chosen"] = chosen_bids(r, file.problem);
  out << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

}  // namespace hs::cli
