#pragma once
// Cuts off a Python pass that runs too long or outlives a stop request. Python code can only
// be interrupted between bytecodes, and only from a thread holding the GIL: a watchdog thread
// takes the GIL (the pass's thread yields it every few milliseconds) and raises
// hetsched.PassCutOff, a BaseException so that `except Exception` does not swallow it, in the
// pass's thread; it raises again every 100 ms while the pass goes on. A pass blocked in a
// system call (a sleep, a read that never returns) does not run bytecodes: where the embedded
// interpreter has the cut-off signal (SIGUSR2, whose Python handler raises PassCutOff only
// while a cut-off is wanted), the watchdog also sends it to the pass's thread, which ends the
// call with EINTR and runs the handler there. That needs the pass in the main thread (as in
// the CLI); elsewhere such a pass is cut off when its call returns.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <pthread.h>
#include <string>
#include <thread>

#include <pybind11/pybind11.h>

#include "sim/scheduler.hpp"

namespace hs::python {

class PassWatchdog {
 public:
  // In the pass's thread, holding the GIL, just before the pass. Does nothing without a
  // limit or a stop request to watch.
  explicit PassWatchdog(const PassTimeLimit& limit);
  ~PassWatchdog();
  PassWatchdog(const PassWatchdog&) = delete;
  PassWatchdog& operator=(const PassWatchdog&) = delete;

  // After the pass, holding the GIL: ends the watch and says why the pass was cut off, if it
  // was. A cut-off raised after the pass had ended is withdrawn.
  std::optional<std::string> finish();

  // The exception type the watchdog raises (created on first use, with the GIL held).
  static pybind11::handle cut_off_type();

  // Gives the embedded interpreter the cut-off signal's handler. Once, in the main thread,
  // with the GIL held; never in someone else's Python process (the importable module).
  static void install_cut_off_signal();

 private:
  void watch();
  std::optional<std::string> reason_to_cut() const;

  PassTimeLimit limit_;
  std::chrono::steady_clock::time_point deadline_;
  unsigned long pass_thread_ = 0;
  pthread_t pass_pthread_{};
  std::mutex mutex_;
  std::condition_variable wake_;
  std::atomic<bool> done_{false};
  std::optional<std::string> cut_;  // under mutex_
  std::thread thread_;
};

}  // namespace hs::python
