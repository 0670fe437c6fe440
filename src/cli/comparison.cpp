#include "cli/comparison.hpp"
#include "cli/version.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>

#include "cli/exit_codes.hpp"
#include "cli/matrix_command.hpp"
#include "cli/parallel_runs.hpp"
#include "cli/run_setup.hpp"
#include "cli/single_run.hpp"
#include "cli/slurm_array.hpp"
#include "cli/comparison_slurm.hpp"
#include "metrics/outputs.hpp"
#include "policy/registry.hpp"
#include "report/paired.hpp"
#include "util/error.hpp"
#include "util/params.hpp"

namespace hs::cli {

namespace {

const std::vector<std::string> kHeadlineMetrics = {
    "utilization",          "gpu_utilization",    "mic_utilization",
    "wait_mean",            "wait_p95",           "wait_max",
    "slowdown_mean",        "bounded_slowdown_mean", "bounded_slowdown_p95",
    "user_fairness_jain",   "packing_factor_mean",   "fragmentation_mean",
    "spread_mean",          "switch_level_mean",  "queue_time_mean",
    "last_end"};

// Everything a child process needs; built once in the parent before forking.
struct Prepared {
  const ComparisonSpec* spec;
  Cluster cluster;
  std::vector<OptionDefault> site_options;  // the Slurm model's defaults from slurm.conf
  std::vector<Workload> workloads;  // one per repetition (a task loads only its own)
  std::vector<std::vector<std::string>> options;  // per scheduler: the --opt items it reads
};

std::string run_label(const std::string& spec) {
  std::string label;
  for (char c : spec) label += std::isalnum(static_cast<unsigned char>(c)) || c == '-' ? c : '_';
  return label;
}

std::string run_dir(const ComparisonSpec& s, std::size_t sched, std::size_t rep) {
  return s.out_dir + "/runs/" + run_label(s.schedulers[sched]) + "/r" + std::to_string(rep);
}

// One run inside a child process: simulate, audit, write outputs and the checker verdict.
int run_one(const Prepared& p, std::size_t sched, std::size_t rep) {
  const ComparisonSpec& s = *p.spec;
  RunRequest request;
  request.scheduler_spec = s.schedulers[sched];
  request.options = p.options[sched];
  request.slurm_site_options = p.site_options;
  const RunOutcome run = run_checked(p.cluster, p.workloads[rep], request);
  const std::string dir = run_dir(s, sched, rep);
  write_run_outputs(dir, p.cluster, run.bound, run.result, run.summary);
  // Written last and renamed into place: a run killed midway never leaves a check.txt, which is
  // how a restarted Slurm sweep tells finished runs from the rest.
  const std::string check_path = dir + "/check.txt";
  std::ofstream check(check_path + ".part");
  check << "hetsched " << version_string() << "\n"
        << "scheduler " << run.scheduler_name << " [" << run.effective_options << "]\n"
        << "seed " << s.seed + rep << "\nwall_seconds " << run.wall_seconds << "\n"
        << "violations " << run.check.violations.size() << "\n";
  for (const auto& v : run.check.violations) check << v << "\n";
  check.close();
  std::filesystem::rename(check_path + ".part", check_path);
  return run.check.ok() ? kExitOk : kExitViolations;
}

// Every scheduler spec is built once here, so a bad name or option is one clear error
// before any child starts; each --opt item must be read by at least one scheduler.
std::vector<std::vector<std::string>> options_per_scheduler(
    const ComparisonSpec& spec, const std::vector<OptionDefault>& site_options) {
  const InputLocation where{"<command line>", 0};
  std::vector<std::vector<std::string>> per_scheduler;
  std::set<std::string> labels, read_items;
  for (const std::string& sched : spec.schedulers) {
    if (!labels.insert(run_label(sched)).second)
      throw InputError(where, "--scheduler", sched, "given twice");
    per_scheduler.push_back(options_read_by(sched, spec.options));
    make_scheduler(sched, per_scheduler.back(), site_options);
    read_items.insert(per_scheduler.back().begin(), per_scheduler.back().end());
  }
  for (const std::string& opt : spec.options) {
    const Params items = Params::parse(opt, "<--opt>");
    for (const auto& [k, v] : items.values())
      if (read_items.count(k + "=" + v) == 0)
        throw InputError(where, "--opt", k + "=" + v, "no compared scheduler reads this option");
  }
  return per_scheduler;
}

// `only_rep` >= 0: load just that repetition's workload (a single task).
Prepared prepare(const ComparisonSpec& spec, int only_rep = -1) {
  Prepared p{&spec, {}, {}, {}, {}};
  p.cluster = load_cluster(spec.cluster, &p.site_options, spec.workload);
  if (spec.eurora_queues) add_eurora_queues(p.cluster);
  p.options = options_per_scheduler(spec, p.site_options);
  prepare_output_dir(spec.out_dir);
  p.workloads.resize(static_cast<std::size_t>(spec.repeat));
  for (int r = 0; r < spec.repeat; ++r)
    if (only_rep < 0 || r == only_rep)
      p.workloads[r] = load_workload(spec.workload, p.cluster, spec.seed + r,
                                     WorkloadInputs{spec.add_gpus, spec.swf_partitions});
  return p;
}

ComparisonInput report_input(const Prepared& p, const std::string& command) {
  const ComparisonSpec& s = *p.spec;
  ComparisonInput in;
  in.title = s.workload + " on " + p.cluster.name;
  in.cluster_text = describe_cluster(p.cluster);
  in.workload_text = s.workload + ", " + std::to_string(p.workloads.front().jobs.size()) +
                     " jobs, seeds " + std::to_string(s.seed) + ".." +
                     std::to_string(s.seed + s.repeat - 1);
  for (const std::string& t : describe_inputs(WorkloadInputs{s.add_gpus, s.swf_partitions}, s.seed))
    in.workload_text += ", " + t;
  for (const std::string& note : p.workloads.front().notes) in.workload_text += "; " + note;
  in.command = command;
  in.version = version_string();
  for (std::size_t i = 0; i < s.schedulers.size(); ++i) {
    SchedulerRuns runs{s.schedulers[i], {}};
    for (int r = 0; r < s.repeat; ++r) runs.run_dirs.push_back(run_dir(s, i, r));
    in.schedulers.push_back(runs);
  }
  in.headline_metrics = kHeadlineMetrics;
  in.capacity.push_back(static_cast<double>(p.cluster.total_cores()));
  for (std::size_t t = 0; t < p.cluster.gres_types.size(); ++t)
    in.capacity.push_back(static_cast<double>(p.cluster.total_gres(static_cast<int>(t))));
  return in;
}

void collect_failures(const ComparisonSpec& s, const std::vector<TaskResult>& results,
                      ComparisonResult& out) {
  for (std::size_t i = 0; i < results.size(); ++i) {
    const int code = results[i].exit_code;
    if (code == kExitOk) continue;
    const std::size_t sched = i / s.repeat, rep = i % s.repeat;
    const bool violations = code == kExitViolations;
    out.failures.push_back(s.schedulers[sched] + " seed " + std::to_string(s.seed + rep) +
                           (violations ? ": checker violations (see " + run_dir(s, sched, rep) +
                                             "/check.txt)"
                                       : ": failed with exit code " + std::to_string(code)) +
                           (results[i].detail.empty() ? "" : " (" + results[i].detail + ")"));
    out.exit_code = std::max(out.exit_code, violations ? int(kExitViolations) : int(kExitInternal));
  }
}

bool integral(double v) { return v == std::floor(v) && std::abs(v) < 1e15; }

std::string format_cell(double mean, double std, std::size_t reps) {
  char buf[64];
  const double mag = std::abs(mean);
  const bool whole = integral(mean) && integral(std);
  const char* fmt = mag >= 1000 || whole ? "%.0f" : (mag >= 10 ? "%.2f" : "%.3f");
  std::snprintf(buf, sizeof buf, fmt, mean);
  std::string cell = buf;
  if (reps > 1) {
    std::snprintf(buf, sizeof buf, fmt, std);
    cell += std::string(" ± ") + buf;
  }
  return cell;
}

// Terminal columns of UTF-8 text (continuation bytes take no column).
std::size_t display_width(const std::string& text) {
  std::size_t w = 0;
  for (unsigned char c : text) w += (c & 0xC0) != 0x80;
  return w;
}

}  // namespace

ComparisonResult run_comparison(const ComparisonSpec& spec, const std::string& command_text) {
  if (spec.executor.slurm) check_slurm_ready(spec.executor);  // before anything is written
  const Prepared prepared = prepare(spec);
  ComparisonResult out;
  out.jobs = prepared.workloads.front().jobs.size();
  out.cluster_text = describe_cluster(prepared.cluster);
  std::vector<std::function<int()>> tasks;
  for (std::size_t i = 0; i < spec.schedulers.size(); ++i)
    for (int r = 0; r < spec.repeat; ++r)
      tasks.push_back([&prepared, i, r] { return run_one(prepared, i, static_cast<std::size_t>(r)); });
  const auto t0 = std::chrono::steady_clock::now();
  const auto results =
      spec.executor.slurm ? run_comparison_on_slurm(spec) : run_in_processes(tasks, spec.parallel);
  out.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  out.runs = results.size();
  collect_failures(spec, results, out);
  if (out.exit_code == kExitInternal) return out;
  out.input = report_input(prepared, command_text);
  out.rows = aggregate_summaries(out.input);
  if (spec.write_report) out.files = write_comparison_report(out.input, spec.out_dir);
  return out;
}

std::string comparison_run_dir(const ComparisonSpec& spec, std::size_t scheduler, std::size_t rep) {
  return run_dir(spec, scheduler, rep);
}

int run_comparison_task(const ComparisonSpec& spec, std::size_t index) {
  const std::size_t runs = spec.schedulers.size() * static_cast<std::size_t>(spec.repeat);
  if (index >= runs)
    throw InputError({"<command line>", 0}, "task index", std::to_string(index),
                     "the sweep has runs 0.." + std::to_string(runs - 1));
  const std::size_t rep = index % spec.repeat;
  const Prepared prepared = prepare(spec, static_cast<int>(rep));
  return run_one(prepared, index / spec.repeat, rep);
}

// Headline metrics first (in their listed order), then the rest in summary order.
std::vector<MetricRow> headline_first(const std::vector<MetricRow>& rows,
                                      const std::vector<std::string>& headline) {
  std::vector<MetricRow> ordered;
  for (const auto& name : headline)
    for (const auto& row : rows)
      if (row.metric == name) ordered.push_back(row);
  for (const auto& row : rows)
    if (std::find(headline.begin(), headline.end(), row.metric) == headline.end())
      ordered.push_back(row);
  return ordered;
}

void print_comparison_table(const ComparisonResult& result, std::size_t repetitions) {
  std::vector<std::vector<std::string>> cells = {{"metric"}};
  for (const auto& runs : result.input.schedulers) cells[0].push_back(runs.scheduler);
  for (const auto& row : headline_first(result.rows, result.input.headline_metrics)) {
    std::vector<std::string> line = {row.metric};
    for (std::size_t i = 0; i < row.mean.size(); ++i)
      line.push_back(format_cell(row.mean[i], row.std[i], repetitions));
    cells.push_back(line);
  }
  std::vector<std::size_t> width(cells[0].size(), 0);
  for (const auto& line : cells)
    for (std::size_t c = 0; c < line.size(); ++c) width[c] = std::max(width[c], display_width(line[c]));
  for (const auto& line : cells) {
    for (std::size_t c = 0; c < line.size(); ++c) {
      const std::string pad(width[c] - display_width(line[c]), ' ');
      std::cout << (c == 0 ? line[c] + pad : "  " + pad + line[c]);
    }
    std::cout << "\n";
  }
  std::vector<std::string> names;
  for (const auto& runs : result.input.schedulers) names.push_back(runs.scheduler);
  const auto paired =
      report::paired_differences(result.rows, names, result.input.headline_metrics);
  if (!paired.empty()) std::cout << "\nagainst " << names.front() << ":\n";
  for (const auto& d : paired) std::cout << "  " << report::describe_difference(d) << "\n";
}

}  // namespace hs::cli
