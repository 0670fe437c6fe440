#include "bridge/bridge_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace hs::bridge {

BridgeLock::BridgeLock(std::string path) : path_(std::move(path)) {
  fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0)
    throw std::runtime_error("cannot open the bridge lock " + path_ + ": " + std::strerror(errno));
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    char owner[32] = {};
    [[maybe_unused]] auto n = ::pread(fd_, owner, sizeof owner - 1, 0);
    ::close(fd_);
    fd_ = -1;
    throw std::runtime_error("another bridge (pid " + std::string(owner[0] ? owner : "?") +
                             ") already manages this partition: " + path_ + " is locked");
  }
  const std::string pid = std::to_string(::getpid());
  [[maybe_unused]] auto t = ::ftruncate(fd_, 0);
  [[maybe_unused]] auto w = ::pwrite(fd_, pid.data(), pid.size(), 0);
}

BridgeLock::~BridgeLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the lock; the file stays for the next one
}

std::string default_lock_path(const std::string& cluster_name, const std::string& partition) {
  const char* dir = std::getenv("XDG_RUNTIME_DIR");
  std::string name = cluster_name + "-" + (partition.empty() ? "all" : partition);
  for (char& c : name)
    if (c == '/' || c == ' ') c = '_';
  return std::string(dir && *dir ? dir : "/tmp") + "/hetsched-bridge-" + name + ".lock";
}

}  // namespace hs::bridge
