#include "cli/parallel_runs.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <map>
#include <stdexcept>

namespace hs::cli {

namespace {

pid_t start_child(const std::function<int()>& task) {
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    const int devnull = open("/dev/null", O_WRONLY);
    if (devnull >= 0) dup2(devnull, STDOUT_FILENO);
    int code = 3;
    try {
      code = task();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "hetsched: run failed: %s\n", e.what());
    }
    std::fflush(nullptr);
    _exit(code);
  }
  return pid;
}

int decode_status(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 3;
}

}  // namespace

std::vector<TaskResult> run_in_processes(const std::vector<std::function<int()>>& tasks,
                                         int parallel) {
  std::vector<TaskResult> results(tasks.size());
  std::map<pid_t, std::size_t> running;
  std::size_t next = 0;
  while (next < tasks.size() || !running.empty()) {
    while (next < tasks.size() && static_cast<int>(running.size()) < std::max(1, parallel)) {
      running[start_child(tasks[next])] = next;
      ++next;
    }
    int status = 0;
    const pid_t done = waitpid(-1, &status, 0);
    if (done < 0) throw std::runtime_error("waitpid failed");
    const auto it = running.find(done);
    if (it == running.end()) continue;
    results[it->second].exit_code = decode_status(status);
    running.erase(it);
  }
  return results;
}

}  // namespace hs::cli
