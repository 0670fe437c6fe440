#include "bridge/scontrol_process.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "util/child_wait.hpp"

namespace hs::bridge {

int run_process(const std::vector<std::string>& argv, std::string& output, std::chrono::seconds limit) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    setpgid(0, 0);  // a group of its own: killed at the limit with anything it started
    dup2(fds[1], STDOUT_FILENO);
    dup2(fds[1], STDERR_FILENO);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    const std::string message = "cannot run " + argv[0] + ": " + std::strerror(errno) + "\n";
    [[maybe_unused]] auto ignored = write(STDOUT_FILENO, message.data(), message.size());
    _exit(127);
  }
  close(fds[1]);
  output.clear();
  const auto deadline = child::Clock::now() + limit;
  child::read_until_eof(fds[0], deadline, output);
  close(fds[0]);
  bool killed = false;
  const int status = child::reap(pid, deadline, killed);
  if (killed) {
    output += (output.empty() || output.back() == '\n' ? "" : "\n") + std::string("killed after ") +
              std::to_string(limit.count()) + " s without finishing";
    return kKilledAtLimit;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// A listing, or SlurmUnavailable with scontrol's own words (e.g. "Unable to contact slurm
// controller (connect failure)").
std::string ScontrolProcess::listing(const std::vector<std::string>& argv) const {
  std::string output;
  if (run_process(argv, output, limit_) == 0) return output;
  while (!output.empty() && output.back() == '\n') output.pop_back();
  std::string command;
  for (const std::string& a : argv) command += (command.empty() ? "" : " ") + a;
  throw SlurmUnavailable(command + " failed: " + output);
}

std::string ScontrolProcess::list_jobs() {
  return listing({"scontrol", "show", "job", "--details", "--oneliner"});
}

std::string ScontrolProcess::list_nodes() {
  return listing({"scontrol", "show", "node", "--oneliner"});
}

std::string ScontrolProcess::list_reservations() {
  return listing({"scontrol", "show", "reservation", "--oneliner"});
}

std::string ScontrolProcess::list_partitions() {
  return listing({"scontrol", "show", "partition", "--oneliner"});
}

bool ScontrolProcess::run(const std::vector<std::string>& argv, std::string& error) {
  std::string line;
  for (const std::string& a : argv) line += (line.empty() ? "" : " ") + a;
  if (dry_run_) {
    echo_ << "  (dry run) " << line << "\n";
    return true;
  }
  std::string output;
  const int status = run_process(argv, output, limit_);
  if (status == 0) return true;
  while (!output.empty() && output.back() == '\n') output.pop_back();
  error = "exit " + std::to_string(status) + (output.empty() ? "" : ": " + output);
  return false;
}

}  // namespace hs::bridge
