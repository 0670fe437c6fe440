#pragma once
// Waiting on a child process with a wall-clock deadline: its output pipe read until EOF, its
// exit awaited, and the child killed (SIGKILL) at the deadline, so that a hung child never
// blocks the parent past it.
#include <sys/types.h>

#include <chrono>
#include <string>

namespace hs::child {

using Clock = std::chrono::steady_clock;

// Appends what `fd` yields to `bytes` until EOF (true) or the deadline (false).
bool read_until_eof(int fd, Clock::time_point deadline, std::string& bytes);

// Waits for `pid` to exit and returns its wait status; at the deadline kills it first (with
// its process group, when the child leads one, so that no grandchild lives on) and sets
// `killed`.
int reap(pid_t pid, Clock::time_point deadline, bool& killed);

}  // namespace hs::child
