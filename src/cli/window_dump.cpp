#include "cli/window_dump.hpp"

#include <cstdio>
#include <filesystem>

#include "util/error.hpp"
#include "window_file/window_file.hpp"

namespace hs::cli {

std::string dumped_window_name(std::int64_t pass, Time now, int solve) {
  char name[96];
  std::snprintf(name, sizeof name, "pass-%06lld-t%lld-s%d.json", static_cast<long long>(pass),
                static_cast<long long>(now), solve);
  return name;
}

namespace {

window_file::WindowFile file_of(const window::SolveRecord& record, const std::string& scheduler) {
  window_file::WindowFile file;
  file.problem = *record.problem;
  file.dimension_names = record.dimension_names;
  if (record.node_names.size() == static_cast<std::size_t>(file.problem.node_count))
    file.node_names = record.node_names;
  if (record.job_ids.size() == static_cast<std::size_t>(file.problem.job_count))
    file.job_names = record.job_ids;
  window_file::ReplayRecord replay;
  replay.pass = record.pass;
  replay.time = record.now;
  replay.solve = record.solve;
  replay.scheduler = scheduler;
  replay.solver = record.solver;
  replay.effort_limit = record.effort_limit;
  replay.time_limit_s = record.time_limit_s;
  replay.enumerate_bids = record.enumerate_bids;
  replay.status = window_file::solve_status_name(record.result->status);
  replay.objective = record.result->solution.objective;
  replay.bound = record.result->bound;
  file.replay = replay;
  return file;
}

}  // namespace

window::SolveObserver make_window_dumper(const std::string& dir, const std::string& scheduler) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir))
    throw InputError({"<command line>", 0}, "--dump-windows", dir,
                     "cannot create the directory: " + ec.message());
  return [dir, scheduler](const window::SolveRecord& record) {
    const std::string path =
        (std::filesystem::path(dir) / dumped_window_name(record.pass, record.now, record.solve))
            .string();
    window_file::write_window_file(path, file_of(record, scheduler));
  };
}

}  // namespace hs::cli
