#include "util/unwritable.hpp"

#include <linux/magic.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <filesystem>

namespace hs {

namespace fs = std::filesystem;

namespace {

// The longest leading part of `path` that exists ("." for a relative path none of which does).
fs::path nearest_existing(fs::path path) {
  std::error_code ec;
  while (!path.empty() && !fs::exists(path, ec)) {
    if (path == path.parent_path()) break;
    path = path.parent_path();
  }
  return path.empty() ? fs::path(".") : path;
}

std::string quoted(const fs::path& path) { return "'" + path.string() + "'"; }

// The reason an existing directory refuses new entries, or "" when none is found.
std::string directory_refusal(const fs::path& dir) {
  struct statfs fs_info {};
  if (::statfs(dir.c_str(), &fs_info) == 0) {
    if (fs_info.f_type == PROC_SUPER_MAGIC)
      return quoted(dir) + " is on the kernel's proc file system, which holds no user files";
    if (fs_info.f_type == SYSFS_MAGIC)
      return quoted(dir) + " is on the kernel's sysfs file system, which holds no user files";
  }
  struct statvfs vfs_info {};
  if (::statvfs(dir.c_str(), &vfs_info) == 0 && (vfs_info.f_flag & ST_RDONLY))
    return quoted(dir) + " is on a read-only file system";
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    return "permission denied: no write access to " + quoted(dir);
  return "";
}

}  // namespace

std::string why_not_creatable(const std::string& dir, const std::error_code& ec) {
  const fs::path existing = nearest_existing(dir);
  std::error_code ignored;
  if (!fs::is_directory(existing, ignored))
    return quoted(existing) + " exists and is not a directory";
  const std::string refusal = directory_refusal(existing);
  if (!refusal.empty()) return refusal;
  return "cannot create it in " + quoted(existing) + ": " + ec.message();
}

std::string why_not_writable(const std::string& dir) {
  const std::string refusal = directory_refusal(dir);
  return refusal.empty() ? "cannot write files in it" : refusal;
}

}  // namespace hs
