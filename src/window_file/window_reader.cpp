// The window-file reader: JSON text -> WindowFile, every defect an InputError with the
// field's JSON path (docs/window-format.md).
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "solver/compact_problem.hpp"
#include "util/error.hpp"
#include "window_file/json_field.hpp"
#include "window_file/window_file.hpp"

namespace hs::window_file {

namespace {

constexpr std::int64_t kMaxInt32 = std::numeric_limits<std::int32_t>::max();
constexpr std::size_t kMaxCount = static_cast<std::size_t>(kMaxInt32);

std::vector<std::string> read_dimensions(const JsonField& root) {
  const JsonField dims = root.member("dimensions");
  const std::size_t n = dims.array_size(1, solver::kMaxDims);
  std::vector<std::string> names;
  for (std::size_t d = 0; d < n; ++d) names.push_back(dims.element(d).as_string());
  return names;
}

// Fills `amounts` from an array of exactly `dims` non-negative 32-bit integers.
void read_amounts(const JsonField& field, std::int32_t dims, std::int32_t* amounts) {
  field.array_size(static_cast<std::size_t>(dims), static_cast<std::size_t>(dims));
  for (std::int32_t d = 0; d < dims; ++d)
    amounts[d] = static_cast<std::int32_t>(field.element(d).as_integer(0, kMaxInt32));
}

void read_nodes(const JsonField& root, WindowFile& file) {
  const JsonField nodes = root.member("nodes");
  const std::size_t n = nodes.array_size(0, kMaxCount);
  solver::WindowProblem& p = file.problem;
  p.node_count = static_cast<std::int32_t>(n);
  p.capacity.assign(n * static_cast<std::size_t>(p.dims), 0);
  bool named = false;
  std::vector<std::string> names(n);
  for (std::size_t i = 0; i < n; ++i) {
    const JsonField node = nodes.element(i);
    node.expect_object({"name", "capacity"});
    if (node.has("name")) {
      names[i] = node.member("name").as_string();
      named = true;
    }
    read_amounts(node.member("capacity"), p.dims, &p.capacity[i * static_cast<std::size_t>(p.dims)]);
  }
  if (named) file.node_names = std::move(names);
}

void read_jobs(const JsonField& root, WindowFile& file) {
  const JsonField jobs = root.member("jobs");
  const std::size_t n = jobs.array_size(0, kMaxCount);
  file.problem.job_count = static_cast<std::int32_t>(n);
  bool named = false;
  std::vector<std::string> names(n);
  for (std::size_t i = 0; i < n; ++i) {
    const JsonField job = jobs.element(i);
    job.expect_object({"name"});
    if (job.has("name")) {
      names[i] = job.member("name").as_string();
      named = true;
    }
  }
  if (named) file.job_names = std::move(names);
}

solver::NodeUse read_use(const JsonField& field, const solver::WindowProblem& p,
                         std::int32_t previous_node) {
  field.expect_object({"node", "amount"});
  solver::NodeUse use;
  const JsonField node = field.member("node");
  use.node = static_cast<std::int32_t>(node.as_integer(0, p.node_count - 1));
  if (use.node <= previous_node)
    node.fail("nodes of a bid's uses must be strictly ascending (previous: " +
              std::to_string(previous_node) + ")");
  read_amounts(field.member("amount"), p.dims, use.amount.data());
  return use;
}

// `total` is the sum of the values read so far: every objective and bound the solvers form
// is at most that sum, so it must stay finite.
solver::Bid read_bid(const JsonField& field, const solver::WindowProblem& p, double& total) {
  field.expect_object({"job", "value", "uses"});
  solver::Bid bid;
  bid.job = static_cast<std::int32_t>(field.member("job").as_integer(0, p.job_count - 1));
  const JsonField value = field.member("value");
  bid.value = value.as_number();
  if (!(bid.value > 0.0)) value.fail("a bid's value must be > 0");
  total += bid.value;
  if (!std::isfinite(total))
    value.fail("the bids' values add up past the largest floating-point number");
  const JsonField uses = field.member("uses");
  const std::size_t n = uses.array_size(0, static_cast<std::size_t>(p.node_count));
  std::int32_t previous = -1;
  for (std::size_t u = 0; u < n; ++u) {
    bid.uses.push_back(read_use(uses.element(u), p, previous));
    previous = bid.uses.back().node;
  }
  return bid;
}

void read_bids(const JsonField& root, solver::WindowProblem& p) {
  const JsonField bids = root.member("bids");
  const std::size_t n = bids.array_size(0, kMaxCount);
  p.bids.reserve(n);
  double total = 0.0;
  for (std::size_t b = 0; b < n; ++b) p.bids.push_back(read_bid(bids.element(b), p, total));
}

ReplayRecord read_replay(const JsonField& field) {
  field.expect_object({"pass", "time", "solve", "scheduler", "solver", "effort_limit",
                       "time_limit_s", "enumerate_bids", "status", "objective", "bound"});
  ReplayRecord r;
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  r.pass = field.member("pass").as_integer(0, kMax);
  r.time = field.member("time").as_integer(0, kMax);
  r.solve = static_cast<std::int32_t>(field.member("solve").as_integer(1, kMaxInt32));
  r.scheduler = field.member("scheduler").as_string();
  r.solver = field.member("solver").as_string();
  r.effort_limit = field.member("effort_limit").as_integer(0, kMax);
  r.time_limit_s = field.member("time_limit_s").as_number();
  if (field.has("enumerate_bids"))  // absent in files written before session 18: off
    r.enumerate_bids = static_cast<std::int32_t>(field.member("enumerate_bids").as_integer(0, kMaxInt32));
  r.status = field.member("status").as_string();
  r.objective = field.member("objective").as_number();
  r.bound = field.member("bound").as_number();
  return r;
}

void read_header(const JsonField& root) {
  root.expect_object({"format", "version", "dimensions", "nodes", "jobs", "bids", "replay"});
  const JsonField format = root.member("format");
  if (format.as_string() != kFormatName)
    format.fail("expected \"" + std::string(kFormatName) + "\"");
  root.member("version").as_integer(kFormatVersion, kFormatVersion);
}

nlohmann::json parse_text(std::string_view text, const std::string& label) {
  try {
    return nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::exception& e) {  // syntax, and numbers out of range
    throw InputError({label, 0}, "$", "", std::string("not valid JSON: ") + e.what());
  }
}

}  // namespace

WindowFile parse_window_json(std::string_view text, const std::string& label) {
  const nlohmann::json document = parse_text(text, label);
  const JsonField root(document, "$", label);
  read_header(root);
  WindowFile file;
  file.dimension_names = read_dimensions(root);
  file.problem.dims = static_cast<std::int32_t>(file.dimension_names.size());
  read_nodes(root, file);
  read_jobs(root, file);
  read_bids(root, file.problem);
  if (root.has("replay")) file.replay = read_replay(root.member("replay"));
  // The reader's checks cover the solver's; this guards against them drifting apart.
  if (auto defect = solver::find_problem_defect(file.problem))
    throw InputError({label, 0}, "$", "", "not a valid window: " + *defect);
  return file;
}

WindowFile read_window_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw InputError({path, 0}, "file", path, "is a directory, not a window file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError({path, 0}, "file", path, "cannot open the window file");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw InputError({path, 0}, "file", path, "cannot read the window file");
  return parse_window_json(text.str(), path);
}

}  // namespace hs::window_file
