#include "cli/reproduce_command.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include "cli/args.hpp"
#include "cli/executor_spec.hpp"
#include "cli/exit_codes.hpp"
#include "cli/repro_data.hpp"
#include "cli/repro_document.hpp"
#include "cli/repro_runner.hpp"
#include "cli/version.hpp"
#include "util/error.hpp"
#include "util/unwritable.hpp"

namespace hs::cli {

namespace {

using namespace repro;

Args reproduce_args() {
  Args args("reproduce",
            "Reruns the experiments behind the source documents' result tables and writes a\n"
            "markdown document with the published numbers and ours side by side, the exact\n"
            "commands, checker violations and notes on every large difference. Experiments\n"
            "sharing a cluster and a workload run as one comparison (identical inputs).");
  args.declare({"tables", "LIST",
                "comma list of table ids (002-V,002-VI,000-5,000-6,000-7,003-A.1..003-A.5,"
                "004-2,004-3)", "all"});
  args.declare({"repeat", "R", "repetitions per experiment (seeds seed..seed+R-1)", "5"});
  args.declare({"parallel", "P", "runs at once (processes, local executor)", "2"});
  args.declare({"executor", "local|slurm[:K=V,..]",
                "where runs execute: local processes, or one Slurm job array per comparison (docs/sweeps.md)", "local"});
  args.declare({"seed", "N", "first seed", "1"});
  args.declare({"quick", "", "tiny subset on reduced workloads, R = 1 (a smoke test)", ""});
  args.declare({"reuse", "", "take groups already finished in --out with at least --repeat repetitions instead of rerunning them", ""});
  args.declare({"document-only", "", "run nothing: document the groups finished in --out, list the rest", ""});
  args.declare({"workloads", "LIST", "keep only rows of these published workload labels (e.g. I.1,wl=5,apr2015)", "all"});
  args.declare({"out", "DIR", "run directories, per-group result.csv, reproduction.md", "out/reproduce"});
  args.declare({"doc", "FILE", "write the document here, not to DIR/reproduction.md (e.g. docs/reproduction.md)", ""});
  args.declare({"repro-dir", "DIR", "published/*.csv, experiments.csv and notes/", "repro"});
  return args;
}

std::vector<std::string> chosen_tables(const Args& args) {
  std::vector<std::string> out;
  const std::string list = args.get("tables", "all");
  if (list == "all") {
    for (const auto& t : repro_tables()) out.push_back(t.id);
    return out;
  }
  std::stringstream in(list);
  std::string id;
  while (std::getline(in, id, ',')) {
    if (id.empty()) continue;
    if (!find_table(id)) throw InputError({"<command line>", 0}, "--tables", id, "unknown table id");
    out.push_back(id);
  }
  if (out.empty()) throw InputError({"<command line>", 0}, "--tables", list, "empty list");
  return out;
}

std::string joined_command(int argc, char** argv) {
  std::string text = "hetsched";
  for (int i = 1; i < argc; ++i) text += std::string(" ") + argv[i];
  return text;
}

// The document goes under --out unless --doc names a file: a user's run never overwrites
// the project's docs/reproduction.md unless asked to.
std::string document_path(const Args& args, const std::string& out_dir) {
  const std::string doc = args.get("doc", "");
  return doc.empty() ? (std::filesystem::path(out_dir) / "reproduction.md").string() : doc;
}

void write_document(const std::string& path, const std::string& text) {
  const std::string parent = std::filesystem::path(path).parent_path().string();
  std::error_code ec;
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  if (ec)
    throw InputError({"<command line>", 0}, "--doc", path,
                     "cannot create its directory: " + why_not_creatable(parent, ec));
  std::ofstream out(path);
  if (!out) throw InputError({"<command line>", 0}, "--doc", path, "cannot write the file");
  out << text;
}

void print_progress(std::size_t i, std::size_t n, const RunGroup& g, const GroupResult& r) {
  std::printf("[%zu/%zu] %s on %s (%s): ", i + 1, n, g.workload.c_str(), g.cluster.c_str(),
              g.tables.front().c_str());
  if (r.skipped)
    std::printf("not run\n");
  else if (!r.ran)
    std::printf("FAILED: %s\n", r.error.c_str());
  else
    std::printf("%zu jobs, %zu scheduler(s) x %d, %zu violation(s), %.1f s%s\n", r.jobs,
                g.schedulers.size(), r.repeat, r.violations, r.wall_seconds,
                r.reused ? " (reused)" : "");
  std::fflush(stdout);
}

}  // namespace

int run_reproduce_command(int argc, char** argv) {
  Args args = reproduce_args();
  args.parse(argc, argv, 2);
  if (args.help_requested()) {
    std::cout << args.usage();
    return kExitOk;
  }
  const auto t0 = std::chrono::steady_clock::now();
  DocumentInput doc;
  doc.tables = chosen_tables(args);
  RunSettings& s = doc.settings;
  s.quick = args.has("quick");
  s.reuse = args.has("reuse");
  s.document_only = args.has("document-only");
  if (args.has("workloads")) {
    std::stringstream list(args.get("workloads", ""));
    std::string w;
    while (std::getline(list, w, ',')) if (!w.empty()) s.workloads.insert(w);
  }
  s.repeat = static_cast<int>(args.get_int("repeat", 5, 1, 1000));
  s.parallel = static_cast<int>(args.get_int("parallel", 2, 1, 256));
  s.seed = static_cast<std::uint64_t>(args.get_int("seed", 1, 0, INT64_MAX / 2));
  s.out_dir = args.get("out", "out/reproduce");
  s.executor = parse_executor(args.get("executor", "local"));
  const std::string dir = args.get("repro-dir", "repro");
  doc.notes_dir = dir + "/notes";
  doc.command = joined_command(argc, argv);
  doc.published = read_published_dir(dir + "/published");
  doc.experiments = read_experiments(dir + "/experiments.csv");
  doc.groups = plan_groups(doc.experiments,
                           std::set<std::string>(doc.tables.begin(), doc.tables.end()), s);
  std::cout << "hetsched " << version_string() << " reproduce: " << doc.tables.size()
            << " table(s), " << doc.groups.size() << " comparison(s), "
            << (s.quick ? 1 : s.repeat) << " repetition(s)" << (s.quick ? " (quick)" : "")
            << "\n" << std::flush;
  int code = kExitOk;
  for (std::size_t i = 0; i < doc.groups.size(); ++i) {
    doc.results.push_back(run_group(doc.groups[i], s));
    const GroupResult& r = doc.results.back();
    print_progress(i, doc.groups.size(), doc.groups[i], r);
    if (!r.ran && !r.skipped) code = kExitInternal;
    else if ((r.violations || r.failed_runs) && code == kExitOk) code = kExitViolations;
  }
  doc.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const std::string path = document_path(args, s.out_dir);
  write_document(path, render_document(doc));
  std::printf("document   %s\nwall time  %.1f s\n", path.c_str(), doc.wall_seconds);
  return code;
}

}  // namespace hs::cli
