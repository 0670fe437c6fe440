#include "cli/window_passes_csv.hpp"

#include <cstdio>
#include <fstream>

#include "policy/window/pass_summary.hpp"
#include "util/error.hpp"

namespace hs::cli {

namespace {

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

std::string row(std::size_t index, const window::PassStats& p) {
  const bool solved = p.solves > 0;
  return std::to_string(index) + ',' + std::to_string(p.now) + ',' + std::to_string(p.window) +
         ',' + std::to_string(p.bids) + ',' + std::to_string(p.solves) + ',' +
         std::to_string(p.started) + ',' + (solved ? number(p.objective) : "") + ',' +
         (solved ? number(p.bound) : "") + ',' + (solved ? number(window::bound_gap(p)) : "") +
         ',' + (p.proven ? "1" : "0") + ',' + std::to_string(p.effort) + ',' +
         (p.repeated ? "1" : "0") + ',' + (p.timed_out ? "1" : "0") + ',' +
         (p.fallback ? "1" : "0") + ',' + std::to_string(p.rejected_proposals) + ',' +
         (solved ? solver::bound_source_name(p.bound_source) : "") + '\n';
}

}  // namespace

void write_window_passes_csv(const std::string& path, const std::vector<window::PassStats>& passes) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw InputError({path, 0}, "--out", path, "cannot write the window pass table");
  out << "pass,time,window,bids,solves,started,objective,bound,gap,proven,effort,repeated,"
         "timed_out,fallback,refused,bound_source\n";
  for (std::size_t i = 0; i < passes.size(); ++i) out << row(i, passes[i]);
  if (!out) throw InputError({path, 0}, "--out", path, "cannot write the window pass table");
}

}  // namespace hs::cli
