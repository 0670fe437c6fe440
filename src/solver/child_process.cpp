#include "solver/child_process.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>

#include "util/child_wait.hpp"

namespace hs::solver {

namespace {

using child::Clock;

bool write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t written = ::write(fd, data, size);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return false;
    data += written;
    size -= static_cast<std::size_t>(written);
  }
  return true;
}

[[noreturn]] void run_child(const std::function<std::string()>& work, int fd) {
  const int null_fd = ::open("/dev/null", O_WRONLY);
  if (null_fd >= 0) ::dup2(null_fd, STDOUT_FILENO);
  std::string payload;
  try {
    payload = work();
  } catch (...) {
    ::_exit(3);
  }
  const std::uint64_t size = payload.size();
  const bool ok = write_all(fd, reinterpret_cast<const char*>(&size), sizeof size) &&
                  write_all(fd, payload.data(), payload.size());
  ::_exit(ok ? 0 : 4);
}

ChildOutcome judge(int status, std::string bytes) {
  ChildOutcome outcome;
  if (WIFSIGNALED(status)) {
    outcome.kind = ChildOutcome::Kind::Crashed;
    outcome.message = std::string("child died of signal ") + std::to_string(WTERMSIG(status)) +
                      " (" + ::strsignal(WTERMSIG(status)) + ")";
    return outcome;
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    outcome.kind = ChildOutcome::Kind::Crashed;
    outcome.message = "child exited with code " + std::to_string(WEXITSTATUS(status));
    return outcome;
  }
  std::uint64_t size = 0;
  if (bytes.size() < sizeof size ||
      (std::memcpy(&size, bytes.data(), sizeof size), bytes.size() - sizeof size != size)) {
    outcome.kind = ChildOutcome::Kind::Crashed;
    outcome.message = "child returned an incomplete payload";
    return outcome;
  }
  outcome.kind = ChildOutcome::Kind::Completed;
  outcome.payload = bytes.substr(sizeof size);
  return outcome;
}

}  // namespace

ChildOutcome run_in_child(const std::function<std::string()>& work, double hard_limit_s) {
  ChildOutcome outcome;
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    outcome.message = std::string("pipe failed: ") + std::strerror(errno);
    return outcome;
  }
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    outcome.message = std::string("fork failed: ") + std::strerror(errno);
    return outcome;
  }
  if (pid == 0) {
    ::close(fds[0]);
    run_child(work, fds[1]);
  }
  ::close(fds[1]);
  const auto deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(hard_limit_s));
  std::string bytes;
  child::read_until_eof(fds[0], deadline, bytes);
  ::close(fds[0]);
  bool killed = false;
  const int status = child::reap(pid, deadline, killed);
  if (killed) {
    outcome.kind = ChildOutcome::Kind::Killed;
    outcome.message = "child killed after the hard limit of " + std::to_string(hard_limit_s) + " s";
    return outcome;
  }
  return judge(status, std::move(bytes));
}

}  // namespace hs::solver
