#include "cli/slurm_array.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <stdexcept>

#include "bridge/scontrol_process.hpp"
#include "util/error.hpp"

namespace hs::cli {

namespace {

const InputLocation kCommandLine{"<command line>", 0};

std::string trimmed(std::string text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  return text;
}

// Runs a Slurm client; a missing binary is the user's environment, reported as such.
int run_slurm(const std::vector<std::string>& argv, std::string& output) {
  const int status = bridge::run_process(argv, output);
  if (status == 127 && output.rfind("cannot run ", 0) == 0)
    throw InputError(kCommandLine, "--executor", "slurm",
                     argv[0] + " not found in PATH: the slurm executor needs Slurm's client "
                     "commands (sbatch, squeue, sinfo) on this host");
  return status;
}

std::vector<std::string> partitions_listed(const std::string& sinfo_output) {
  std::vector<std::string> names;
  std::istringstream in(sinfo_output);
  std::string name;
  while (in >> name) {
    if (!name.empty() && name.back() == '*') name.pop_back();  // the default partition
    names.push_back(name);
  }
  return names;
}

}  // namespace

void check_slurm_ready(const ExecutorSpec& executor) {
  std::string output;
  for (const char* tool : {"sbatch", "squeue"})
    if (run_slurm({tool, "--version"}, output) != 0)
      throw InputError(kCommandLine, "--executor", executor.text,
                       std::string(tool) + " --version failed: " + trimmed(output));
  if (run_slurm({"sinfo", "-h", "-o", "%P"}, output) != 0)
    throw InputError(kCommandLine, "--executor", executor.text,
                     "sinfo cannot reach the cluster: " + trimmed(output));
  if (executor.partition.empty()) return;
  const auto names = partitions_listed(output);
  if (std::find(names.begin(), names.end(), executor.partition) != names.end()) return;
  std::string known;
  for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
  throw InputError(kCommandLine, "--executor", "partition=" + executor.partition,
                   "unknown partition (sinfo lists: " + known + ")");
}

std::string submit_array(const ArrayRequest& request, const ExecutorSpec& executor) {
  std::vector<std::string> argv = {"sbatch", "--parsable",
                                   "--array=" + array_list(request.indices, executor.array_max),
                                   "--job-name=" + request.job_name,
                                   "--output=" + request.log_pattern,
                                   "--chdir=" + request.workdir,
                                   "--cpus-per-task=" + std::to_string(executor.cpus)};
  if (!executor.partition.empty()) argv.push_back("--partition=" + executor.partition);
  if (!executor.time.empty()) argv.push_back("--time=" + executor.time);
  if (!executor.account.empty()) argv.push_back("--account=" + executor.account);
  if (!executor.mem.empty()) argv.push_back("--mem=" + executor.mem);
  argv.push_back(request.script);
  std::string output;
  const int status = run_slurm(argv, output);
  const std::string id = status == 0 ? parse_job_id(output) : "";
  if (id.empty())
    throw std::runtime_error("sbatch failed (exit " + std::to_string(status) +
                             "): " + trimmed(output));
  return id;
}

std::map<std::size_t, std::string> array_task_states(const std::string& job_id) {
  std::string output;
  const int status = run_slurm({"squeue", "-h", "-r", "-t", "all", "-j", job_id, "-o", "%K %T"}, output);
  if (status == 0) return parse_task_states(output);
  if (output.find("Invalid job id") != std::string::npos) return {};  // purged: all finished
  throw std::runtime_error("squeue failed (exit " + std::to_string(status) + "): " +
                           trimmed(output));
}

TaskPhase phase_of(const std::string& state) {
  if (state == "PENDING" || state == "CONFIGURING" || state == "REQUEUED" ||
      state == "REQUEUE_HOLD" || state == "REQUEUE_FED" || state == "RESV_DEL_HOLD")
    return TaskPhase::pending;
  if (state == "RUNNING" || state == "COMPLETING" || state == "SUSPENDED" ||
      state == "STOPPED" || state == "SIGNALING" || state == "STAGE_OUT" || state == "RESIZING")
    return TaskPhase::running;
  return TaskPhase::finished;
}

std::string array_list(std::vector<std::size_t> indices, int max_running) {
  std::sort(indices.begin(), indices.end());
  indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
  std::string text;
  for (std::size_t i = 0; i < indices.size();) {
    std::size_t j = i;
    while (j + 1 < indices.size() && indices[j + 1] == indices[j] + 1) ++j;
    text += (text.empty() ? "" : ",") + std::to_string(indices[i]);
    if (j > i) text += "-" + std::to_string(indices[j]);
    i = j + 1;
  }
  if (max_running > 0) text += "%" + std::to_string(max_running);
  return text;
}

std::map<std::size_t, std::string> parse_task_states(const std::string& squeue_output) {
  std::map<std::size_t, std::string> states;
  std::istringstream in(squeue_output);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string id, state;
    if (!(fields >> id >> state) || id.empty() ||
        !std::all_of(id.begin(), id.end(), [](unsigned char c) { return std::isdigit(c); }))
      continue;
    states[std::stoul(id)] = state;
  }
  return states;
}

std::string parse_job_id(const std::string& sbatch_output) {
  std::istringstream in(sbatch_output);
  std::string line;
  while (std::getline(in, line)) {
    const std::string id = trimmed(line.substr(0, line.find(';')));
    if (!id.empty() &&
        std::all_of(id.begin(), id.end(), [](unsigned char c) { return std::isdigit(c); }))
      return id;
  }
  return "";
}

}  // namespace hs::cli
