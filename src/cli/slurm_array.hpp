#pragma once
// Slurm's client commands for one job array, kept at the edge: sinfo and sbatch --version
// before anything is written, sbatch --array to submit, squeue to follow the tasks. The
// parsing halves are pure functions, tested without a cluster.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "cli/executor_spec.hpp"

namespace hs::cli {

// sbatch, squeue and sinfo answer, and the partition asked for exists; InputError naming
// --executor otherwise (e.g. "sbatch not found in PATH", "unknown partition 'x'").
void check_slurm_ready(const ExecutorSpec& executor);

struct ArrayRequest {
  std::string script;                // the batch script every task runs
  std::vector<std::size_t> indices;  // array task ids
  std::string log_pattern;           // sbatch --output, with %A (job) and %a (task)
  std::string job_name, workdir;
};

// Submits one array; returns its job id. std::runtime_error with sbatch's words if it fails.
std::string submit_array(const ArrayRequest& request, const ExecutorSpec& executor);

// The array's tasks squeue still lists: task id -> state (PENDING, RUNNING, CANCELLED, ...).
// Empty once Slurm has forgotten the job. std::runtime_error when squeue itself fails.
std::map<std::size_t, std::string> array_task_states(const std::string& job_id);

enum class TaskPhase { pending, running, finished };
TaskPhase phase_of(const std::string& squeue_state);

// "0-3,7,9-10%4": the --array value for these ids (sorted, unique), at most `max_running`
// at once when > 0.
std::string array_list(std::vector<std::size_t> indices, int max_running);

// squeue -h -r -o "%K %T" output -> task id -> state; lines that are not "ID STATE" are
// skipped.
std::map<std::size_t, std::string> parse_task_states(const std::string& squeue_output);

// The job id in `sbatch --parsable` output ("123" or "123;cluster"); empty if none.
std::string parse_job_id(const std::string& sbatch_output);

}  // namespace hs::cli
