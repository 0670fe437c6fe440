#include "cli/slurm_sweep.hpp"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>

#include "cli/exit_codes.hpp"
#include "cli/slurm_array.hpp"

namespace hs::cli {

namespace {

constexpr int kSqueueFailuresTolerated = 12;  // consecutive polls, e.g. a controller restart

struct Counts {
  std::size_t pending = 0, running = 0, done = 0, failed = 0;
  bool operator!=(const Counts& o) const {
    return pending != o.pending || running != o.running || done != o.done || failed != o.failed;
  }
};

std::string write_task_script(const SlurmSweep& sweep) {
  const std::string path = sweep.state_dir + "/task.sh";
  std::ofstream out(path);
  out << "#!/bin/sh\n# One run of a hetsched sweep per array task (hetsched --executor slurm).\n"
      << "exec " << sweep.task_command << " \"$SLURM_ARRAY_TASK_ID\"\n";
  if (!out) throw std::runtime_error("cannot write " + path);
  return path;
}

std::string log_path(const SlurmSweep& sweep, const std::string& job, std::size_t run) {
  return sweep.state_dir + "/logs/" + job + "_" + std::to_string(run) + ".log";
}

std::vector<std::size_t> missing_runs(const SlurmSweep& sweep, const std::vector<std::size_t>& of) {
  std::vector<std::size_t> missing;
  for (std::size_t i : of)
    if (!sweep.finished(i)) missing.push_back(i);
  return missing;
}

// Polls squeue until no task of `job` is pending or running; returns each task's last state.
std::map<std::size_t, std::string> follow(const SlurmSweep& sweep, const ExecutorSpec& executor,
                                          const std::string& job,
                                          const std::vector<std::size_t>& tasks) {
  std::map<std::size_t, std::string> last;
  Counts shown{~0u, 0, 0, 0};
  int squeue_failures = 0;
  for (;;) {
    std::map<std::size_t, std::string> states;
    try {
      states = array_task_states(job);
      squeue_failures = 0;
    } catch (const std::runtime_error& e) {
      if (++squeue_failures > kSqueueFailuresTolerated) throw;
      std::printf("slurm: %s (retrying)\n", e.what());
      sleep(static_cast<unsigned>(executor.poll_seconds));
      continue;
    }
    Counts c;
    for (std::size_t i : tasks) {
      const auto it = states.find(i);
      if (it != states.end()) last[i] = it->second;
      const TaskPhase phase = it == states.end() ? TaskPhase::finished : phase_of(it->second);
      if (phase == TaskPhase::pending) ++c.pending;
      else if (phase == TaskPhase::running) ++c.running;
      else if (sweep.finished(i)) ++c.done;
      else ++c.failed;
    }
    if (c != shown)
      std::printf("slurm job %s: %zu pending, %zu running, %zu done, %zu failed (of %zu)\n",
                  job.c_str(), c.pending, c.running, c.done, c.failed, tasks.size());
    std::fflush(stdout);
    shown = c;
    if (c.pending + c.running == 0) return last;
    sleep(static_cast<unsigned>(executor.poll_seconds));
  }
}

std::string failure_detail(const SlurmSweep& sweep, const std::string& job, std::size_t run,
                           const std::map<std::size_t, std::string>& last) {
  const auto it = last.find(run);
  std::string state = "left the queue";
  if (it != last.end())
    state = phase_of(it->second) == TaskPhase::finished ? it->second
                                                        : state + " (last seen " + it->second + ")";
  return state + " without complete outputs, log " + log_path(sweep, job, run);
}

}  // namespace

std::vector<TaskResult> run_on_slurm(const SlurmSweep& sweep, const ExecutorSpec& executor) {
  std::filesystem::create_directories(sweep.state_dir + "/logs");
  ArrayRequest request{write_task_script(sweep), {}, sweep.state_dir + "/logs/%A_%a.log",
                       "hetsched-sweep", sweep.workdir};
  std::vector<std::size_t> all(sweep.runs);
  for (std::size_t i = 0; i < sweep.runs; ++i) all[i] = i;
  request.indices = missing_runs(sweep, all);
  std::printf("slurm: %zu run(s), %zu already done in %s\n", sweep.runs,
              sweep.runs - request.indices.size(), sweep.state_dir.c_str());
  std::map<std::size_t, std::string> details;
  for (int attempt = 0; !request.indices.empty(); ++attempt) {
    const std::string job = submit_array(request, executor);
    std::printf("slurm: submitted job array %s (%zu task(s), attempt %d of %d)\n", job.c_str(),
                request.indices.size(), attempt + 1, executor.retries + 1);
    const auto last = follow(sweep, executor, job, request.indices);
    request.indices = missing_runs(sweep, request.indices);
    for (std::size_t i : request.indices) {
      details[i] = failure_detail(sweep, job, i, last);
      std::printf("slurm: run %zu (%s) %s\n", i, sweep.describe(i).c_str(), details[i].c_str());
    }
    if (attempt == executor.retries) break;
    if (!request.indices.empty())
      std::printf("slurm: resubmitting %zu failed run(s)\n", request.indices.size());
  }
  std::fflush(stdout);
  std::vector<TaskResult> results(sweep.runs);
  for (std::size_t i = 0; i < sweep.runs; ++i) {
    const auto code = sweep.finished(i);
    results[i].exit_code = code ? *code : int(kExitInternal);
    if (!code) results[i].detail = details[i];
  }
  return results;
}

}  // namespace hs::cli
