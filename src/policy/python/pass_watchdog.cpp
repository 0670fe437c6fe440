#include "policy/python/pass_watchdog.hpp"

#include <csignal>

namespace py = pybind11;

namespace hs::python {

namespace {
constexpr auto kPoll = std::chrono::milliseconds(100);
constexpr int kCutOffSignal = SIGUSR2;

std::atomic<bool> g_signal_installed{false};
// A pass is being cut off: the signal's handler raises only then, so a signal taken in after
// its pass ended (or sent by someone else) does nothing.
std::atomic<bool> g_cut_wanted{false};

std::string seconds_text(std::chrono::milliseconds ms) {
  const auto whole = ms.count() / 1000, tenths = ms.count() % 1000 / 100;
  return std::to_string(whole) + (tenths ? "." + std::to_string(tenths) : "") + " s";
}
}  // namespace

py::handle PassWatchdog::cut_off_type() {
  static PyObject* type = PyErr_NewExceptionWithDoc(
      "hetsched.PassCutOff", "A pass ran past its time limit or outlived a stop request.", PyExc_BaseException,
      nullptr);
  return type;
}

void PassWatchdog::install_cut_off_signal() {
  if (g_signal_installed) return;
  py::module_::import("signal").attr("signal")(kCutOffSignal, py::cpp_function([](py::args) {
    if (!g_cut_wanted) return;
    PyErr_SetNone(cut_off_type().ptr());
    throw py::error_already_set();
  }));
  g_signal_installed = true;
}

PassWatchdog::PassWatchdog(const PassTimeLimit& limit) : limit_(limit) {
  if (limit_.limit.count() <= 0 && !limit_.stop_requested) return;
  cut_off_type();
  pass_thread_ = PyThread_get_thread_ident();
  pass_pthread_ = pthread_self();
  deadline_ = limit_.limit.count() > 0 ? std::chrono::steady_clock::now() + limit_.limit
                                       : std::chrono::steady_clock::time_point::max();
  thread_ = std::thread([this] { watch(); });
}

PassWatchdog::~PassWatchdog() {
  if (!thread_.joinable()) return;
  py::gil_scoped_acquire gil;  // finish() was skipped by an exception: still withdraw a cut-off
  finish();
}

std::optional<std::string> PassWatchdog::reason_to_cut() const {
  if (limit_.stop_requested && limit_.stop_requested()) return "it was still running when a stop was requested";
  if (std::chrono::steady_clock::now() >= deadline_)
    return "it ran past the pass time limit of " + seconds_text(limit_.limit);
  return std::nullopt;
}

void PassWatchdog::watch() {
  std::unique_lock lock(mutex_);
  while (!done_) {
    wake_.wait_for(lock, kPoll);
    if (done_) break;
    auto reason = reason_to_cut();
    if (!reason) continue;
    if (!cut_) cut_ = std::move(reason);
    lock.unlock();  // never wait for the GIL while holding the lock finish() takes
    {
      py::gil_scoped_acquire gil;
      if (!done_) PyThreadState_SetAsyncExc(pass_thread_, cut_off_type().ptr());
    }
    if (g_signal_installed && !done_) {  // a pass in a system call runs no bytecodes
      g_cut_wanted = true;
      pthread_kill(pass_pthread_, kCutOffSignal);
    }
    lock.lock();
  }
}

std::optional<std::string> PassWatchdog::finish() {
  if (!thread_.joinable()) return std::nullopt;
  {
    std::lock_guard lock(mutex_);
    done_ = true;
  }
  wake_.notify_all();
  {
    py::gil_scoped_release release;  // the watchdog may be waiting for the GIL
    thread_.join();
  }
  std::lock_guard lock(mutex_);
  g_cut_wanted = false;
  if (cut_) PyThreadState_SetAsyncExc(pass_thread_, nullptr);  // one raised too late
  return cut_;
}

}  // namespace hs::python
