#include "policy/python/pass_watchdog.hpp"

namespace py = pybind11;

namespace hs::python {

namespace {
constexpr auto kPoll = std::chrono::milliseconds(100);

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

PassWatchdog::PassWatchdog(const PassTimeLimit& limit) : limit_(limit) {
  if (limit_.limit.count() <= 0 && !limit_.stop_requested) return;
  cut_off_type();
  pass_thread_ = PyThread_get_thread_ident();
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
  if (cut_) PyThreadState_SetAsyncExc(pass_thread_, nullptr);  // one raised too late
  return cut_;
}

}  // namespace hs::python
