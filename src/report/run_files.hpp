#pragma once
// The parts of one run directory (written by metrics/outputs.hpp) that the report reads.
#include <cstdint>
#include <string>
#include <vector>

namespace hs::report {

// summary.csv: metric names and values in file order.
struct SummaryFile {
  std::string file;
  std::vector<std::string> metrics;
  std::vector<double> values;
};
SummaryFile read_summary_file(const std::string& path);

// What one job holds on one node, by node name (the report has no cluster; node positions
// are assigned later from all names seen).
struct NodeUse {
  std::string node;
  std::int32_t cores = 0;
  std::int64_t gres = 0;  // all generic resources on this node (any type)
};

// One jobs.csv row that ran (Completed or Killed); other rows are only counted.
struct JobRun {
  std::int64_t id = 0;
  std::int64_t start = 0;
  std::int64_t end = 0;
  std::int64_t wait = 0;
  std::vector<std::int64_t> gres;  // totals per gres type (JobsFile::gres_names order)
  std::vector<NodeUse> nodes;
};

struct JobsFile {
  std::string file;
  std::vector<std::string> gres_names;  // columns between "cores" and "allocation"
  std::vector<JobRun> ran;              // in file order
  std::int64_t not_run = 0;             // rejected or stalled rows
};
JobsFile read_jobs_file(const std::string& path);

// Parses "n[0001-0004]:4c+2gpu;n0005:4c+512M" (metrics' allocation_text): one NodeUse per
// node of each hostlist, in order. `file`/`line` for errors.
std::vector<NodeUse> parse_allocation(const std::string& text, const std::string& file, long line);

// usage.csv: step series, each row holding until the next row's time.
struct UsageFile {
  std::string file;
  std::vector<std::string> resources;  // "cores" then each gres type (memory is not read)
  std::vector<std::int64_t> time;
  std::vector<std::vector<double>> used;  // used[resource][row]
};
UsageFile read_usage_file(const std::string& path);
// queue.csv (time, pending, running) in the same shape: resources {"pending", "running"}.
UsageFile read_queue_file(const std::string& path);

}  // namespace hs::report
