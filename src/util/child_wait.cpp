#include "util/child_wait.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>

namespace hs::child {

namespace {

int milliseconds_until(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  return static_cast<int>(std::clamp<std::int64_t>(left.count(), 0, 1 << 30));
}

}  // namespace

bool read_until_eof(int fd, Clock::time_point deadline, std::string& bytes) {
  char buffer[1 << 16];
  while (true) {
    pollfd watch{fd, POLLIN, 0};
    const int ready = ::poll(&watch, 1, milliseconds_until(deadline));
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) return false;
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (got <= 0) return true;
    bytes.append(buffer, static_cast<std::size_t>(got));
  }
}

int reap(pid_t pid, Clock::time_point deadline, bool& killed) {
  int status = 0;
  while (true) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) return status;
    if (done < 0 && errno != EINTR) return status;
    if (Clock::now() >= deadline) {
      ::kill(-pid, SIGKILL);  // its process group, where it leads one (nothing otherwise)
      ::kill(pid, SIGKILL);
      killed = true;
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      return status;
    }
    ::usleep(1000);
  }
}

}  // namespace hs::child
