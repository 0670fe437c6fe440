#pragma once
// One bridge per managed partition: an exclusive lock (flock) on a file holding the owner's
// pid. The kernel drops the lock when the process dies, even by kill -9, so a restarted
// bridge is never locked out by a dead one.
#include <string>

namespace hs::bridge {

class BridgeLock {
 public:
  // Throws std::runtime_error naming the file and the pid that holds it.
  explicit BridgeLock(std::string path);
  ~BridgeLock();
  BridgeLock(const BridgeLock&) = delete;
  BridgeLock& operator=(const BridgeLock&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  int fd_ = -1;
};

// The default lock file of a cluster's partition ("" = all partitions).
std::string default_lock_path(const std::string& cluster_name, const std::string& partition);

}  // namespace hs::bridge
