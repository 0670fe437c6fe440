#pragma once
// Why a directory cannot be created or written into, in words a user can act on. The errno
// of a failed mkdir alone often misleads: creating /proc/x fails with "No such file or
// directory" although /proc exists.
#include <string>
#include <system_error>

namespace hs {

// Why `dir` could not be created (`ec`: the error the attempt gave), looked up on the
// nearest part of the path that exists: a file where a directory is needed, a kernel
// file system (/proc, /sys), a read-only file system, no write permission, or else the
// system's message.
std::string why_not_creatable(const std::string& dir, const std::error_code& ec);

// Why nothing can be written in the existing directory `dir`: one of the same reasons.
std::string why_not_writable(const std::string& dir);

}  // namespace hs
