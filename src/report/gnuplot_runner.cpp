#include "report/gnuplot_runner.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace hs::report {

namespace {

bool executable(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

constexpr int kKilled = -1;
constexpr int kLost = -2;

// Waits for `pid` up to `timeout_s`; kills it when the time is up. Returns the wait status,
// kKilled when it had to be killed, kLost when waitpid fails (e.g. SIGCHLD ignored).
int wait_with_limit(pid_t pid, double timeout_s) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  int status = 0;
  while (true) {
    const pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid) return status;
    if (r < 0) return kLost;
    if (std::chrono::steady_clock::now() >= deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      return kKilled;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

std::string first_lines(const std::string& path, int count) {
  std::ifstream in(path);
  std::string line, text;
  for (int i = 0; i < count && std::getline(in, line); ++i) {
    if (line.empty()) {
      --i;
      continue;
    }
    text += (text.empty() ? "" : " / ") + line;
  }
  return text;
}

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", s);
  return buf;
}

}  // namespace

std::string find_program(const std::string& program) {
  if (program.empty()) return "";
  if (program.find('/') != std::string::npos) return executable(program) ? program : "";
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + program;
    if (executable(candidate)) return candidate;
  }
  return "";
}

PlotRun run_gnuplot(const std::string& gnuplot_path, const std::string& dir,
                    const std::string& script, double timeout_s) {
  const std::string err_file = (std::filesystem::path(dir) / (script + ".stderr")).string();
  const pid_t pid = ::fork();
  if (pid < 0) return {false, "cannot start gnuplot (fork failed)"};
  if (pid == 0) {  // child: only async-signal-safe calls until exec
    const int null_fd = ::open("/dev/null", O_WRONLY);
    const int err_fd = ::open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (null_fd >= 0) ::dup2(null_fd, STDOUT_FILENO);
    if (err_fd >= 0) ::dup2(err_fd, STDERR_FILENO);
    if (::chdir(dir.c_str()) != 0) ::_exit(126);
    const char* argv[] = {gnuplot_path.c_str(), script.c_str(), nullptr};
    ::execv(gnuplot_path.c_str(), const_cast<char* const*>(argv));
    ::_exit(127);
  }
  const int status = wait_with_limit(pid, timeout_s);
  const std::string err = first_lines(err_file, 3);
  std::error_code ec;
  std::filesystem::remove(err_file, ec);
  if (status == kKilled)
    return {false, "gnuplot timed out after " + seconds_text(timeout_s) + " s"};
  if (status == kLost) return {false, "lost track of the gnuplot process (waitpid failed)"};
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return {true, err};
  if (WIFEXITED(status))
    return {false, "gnuplot exited with status " + std::to_string(WEXITSTATUS(status)) +
                       (err.empty() ? "" : ": " + err)};
  return {false, "gnuplot was killed by signal " + std::to_string(WTERMSIG(status))};
}

}  // namespace hs::report
