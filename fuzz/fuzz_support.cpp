#include "fuzz_support.hpp"

#include <unistd.h>
#include <zlib.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "bridge/job_eligibility.hpp"
#include "bridge/scontrol_jobs.hpp"
#include "bridge/slurm_nodes.hpp"
#include "io/job_file.hpp"
#include "io/sacct_reader.hpp"
#include "io/slurm_conf.hpp"
#include "io/swf_reader.hpp"
#include "site_conf.hpp"
#include "solver/solvers.hpp"
#include "util/error.hpp"
#include "window_file/window_file.hpp"

namespace hs::fuzz {

namespace {

struct ScratchDir {
  std::string path;
  ScratchDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "hetsched-fuzz-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("fuzz: cannot create a scratch directory");
    path = pattern;
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

const std::string& scratch_dir() {
  static const ScratchDir dir;
  return dir.path;
}

std::string write_scratch(const std::string& name, std::string_view bytes) {
  const std::string path = scratch_dir() + "/" + name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("fuzz: cannot write " + path);
  return path;
}

std::string gzip(std::string_view text) {
  z_stream z{};
  deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&z, text.size()) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

// slurm.conf: the first part (before a line "%%"); the second is inc.conf next to it, which
// the first may Include.
void slurm_conf(std::string_view bytes) {
  const auto parts = split_parts(bytes, 2);
  const std::string conf = write_scratch("slurm.conf", parts[0]);
  write_scratch("inc.conf", parts.size() > 1 ? parts[1] : std::string_view{});
  load_slurm_conf(conf);
}

// gres.conf or topology.conf next to the fixed slurm.conf of site_conf.hpp.
void site_file(const std::string& name, std::string_view bytes) {
  const std::string dir = scratch_dir() + "/site";
  std::filesystem::create_directories(dir);
  const std::string conf = write_scratch("site/slurm.conf", kSiteSlurmConf);
  write_scratch("site/" + name, bytes);
  load_slurm_conf(conf);
}

// gzip-compressed SWF: the bytes after the first are compressed, then cut short when the
// first byte is odd, so that both whole and truncated gzip streams reach the reader.
void swf_gzip(std::string_view bytes) {
  if (bytes.empty()) return;
  const auto control = static_cast<unsigned char>(bytes[0]);
  std::string compressed = gzip(bytes.substr(1));
  if (control & 1) compressed.resize(compressed.size() * (control >> 1) / 128);
  read_swf(write_scratch("trace.swf.gz", compressed));
}

// A window file: parsed, written and parsed again, which must give the same bytes.
void window_file_target(std::string_view bytes) {
  const window_file::WindowFile file = window_file::parse_window_json(bytes, "<fuzz>");
  std::ostringstream first, second;
  window_file::write_window_json(first, file);
  window_file::write_window_json(second, window_file::parse_window_json(first.str(), "<written>"));
  if (first.str() != second.str()) throw std::logic_error("fuzz: window file does not round-trip");
}

// A window file of a size that solves in milliseconds, solved by every solver that counts
// effort under a small limit: each answer must pass the independent check, stay within the
// limit and lie at or below its own bound. A window the reader took must never be called
// malformed by a solver (exhaustive only takes windows of up to 24 jobs, so it gets 12).
void window_solve_target(std::string_view bytes) {
  const window_file::WindowFile file = window_file::parse_window_json(bytes, "<fuzz>");
  const solver::WindowProblem& problem = file.problem;
  if (problem.job_count > 40 || problem.node_count > 200 || problem.bids.size() > 400 ||
      problem.dims > 4)
    return;
  constexpr std::int64_t kLimit = 50'000;
  // On windows of a few jobs the exhaustive search gives the optimum every claim is held to.
  std::optional<double> optimum;
  if (problem.job_count <= 10) {
    const solver::SolveResult r = solver::make_window_solver("exhaustive")->solve(problem, {});
    if (r.status == solver::SolveStatus::Optimal) optimum = r.solution.objective;
  }
  for (const std::string& name : solver::window_solver_names()) {
    if (!solver::counts_effort(name) || (name == "exhaustive" && problem.job_count > 12)) continue;
    solver::SolverOptions options;
    options.effort_limit = kLimit;
    const solver::SolveResult r = solver::make_window_solver(name)->solve(problem, options);
    const std::string who = "fuzz: " + name + " ";
    if (r.call != solver::CallStatus::Ok) throw std::logic_error(who + "failed: " + r.message);
    if (auto defect = solver::check_solution(problem, r.solution))
      throw std::logic_error(who + "answer refused by the check: " + *defect);
    if (r.effort - r.bound_effort > kLimit) throw std::logic_error(who + "passed its effort limit");
    const double slack = 1e-6 * (1.0 + std::abs(r.bound));
    if (r.bound + slack < r.solution.objective) throw std::logic_error(who + "bound below its answer");
    if (optimum)
      if (auto defect = solver::check_claims(problem, r, *optimum)) throw std::logic_error(who + *defect);
  }
}

using Target = void (*)(std::string_view);

const std::map<std::string, Target>& targets() {
  static const std::map<std::string, Target> table{
      {"slurm_conf", slurm_conf},
      {"gres_conf", [](std::string_view b) { site_file("gres.conf", b); }},
      {"topology_conf", [](std::string_view b) { site_file("topology.conf", b); }},
      {"swf", [](std::string_view b) { read_swf(write_scratch("trace.swf", b)); }},
      {"swf_gzip", swf_gzip},
      {"job_file", [](std::string_view b) { read_job_file(write_scratch("workload.jobs", b)); }},
      {"sacct", [](std::string_view b) { read_sacct(write_scratch("dump.sacct", b)); }},
      {"scontrol_jobs",
       [](std::string_view b) {
         for (const auto& job : bridge::parse_scontrol_jobs(b, "<fuzz>"))
           bridge::first_array_tasks(job.array_tasks, 64);  // what the bridge splits ahead
       }},
      {"scontrol_nodes",
       [](std::string_view b) {
         for (const auto& node : bridge::parse_scontrol_nodes(b, "<fuzz>"))
           bridge::node_unavailable_reason(node);
       }},
      {"scontrol_reservations",
       [](std::string_view b) { bridge::parse_scontrol_reservations(b, "<fuzz>"); }},
      {"scontrol_partitions",
       [](std::string_view b) {
         for (const auto& p : bridge::parse_scontrol_partitions(b, "<fuzz>"))
           bridge::partition_limit_reason(p, 3600, 2, 4);  // what the bridge asks of each
       }},
      {"window_file", window_file_target},
      {"window_solve", window_solve_target},
  };
  return table;
}

}  // namespace

const std::vector<std::string>& target_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& [name, target] : targets()) out.push_back(name);
    return out;
  }();
  return names;
}

void run_target(const std::string& name, std::string_view bytes) {
  const auto it = targets().find(name);
  if (it == targets().end()) throw std::invalid_argument("fuzz: no target '" + name + "'");
  try {
    it->second(bytes);
  } catch (const InputError&) {
  }
}

std::vector<std::string_view> split_parts(std::string_view text, std::size_t max_parts) {
  std::vector<std::string_view> parts;
  constexpr std::string_view kCut = "\n%%\n";
  while (parts.size() + 1 < max_parts) {
    const std::size_t at = text.find(kCut);
    if (at == std::string_view::npos) break;
    parts.push_back(text.substr(0, at));
    text.remove_prefix(at + kCut.size());
  }
  parts.push_back(text);
  return parts;
}

}  // namespace hs::fuzz
