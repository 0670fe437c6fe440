#include "policy/python/python_scheduler.hpp"

#include <pybind11/stl.h>

#include <filesystem>

#include "policy/python/interpreter.hpp"
#include "policy/python/pass_watchdog.hpp"
#include "sim/decision_check.hpp"
#include "util/error.hpp"

namespace py = pybind11;

namespace hs::python {

namespace {

const InputLocation kSpec{"<scheduler spec>", 0};

class PythonScheduler final : public Scheduler {
 public:
  PythonScheduler(py::object policy, std::string label)
      : policy_(std::move(policy)), label_(std::move(label)) {
    if (!py::hasattr(policy_, "decide"))
      throw InputError(kSpec, "scheduler", label_, "the policy object has no decide(view, events) method");
    decide_ = policy_.attr("decide");
    py::object sup = py::getattr(policy_, "supports", py::none());
    try {
      if (!sup.is_none()) support_ = sup.cast<RequestSupport>();
    } catch (const py::cast_error&) {
      throw InputError(kSpec, "supports", label_, "must be a hetsched.RequestSupport");
    }
  }
  ~PythonScheduler() override {
    py::gil_scoped_acquire gil;
    decide_ = py::object();
    policy_ = py::object();
  }

  std::string name() const override { return label_; }
  RequestSupport supports() const override { return support_; }

  Decisions decide(const SystemView& view, std::span<const Event> events) override {
    py::gil_scoped_acquire gil;
    Decisions d;
    std::optional<std::string> failure;
    PassWatchdog watchdog(time_limit_);
    try {
      py::object out = decide_(py::cast(&view, py::return_value_policy::reference),
                               std::vector<Event>(events.begin(), events.end()));
      if (!out.is_none()) d = out.cast<Decisions>();
    } catch (py::error_already_set& e) {
      failure = "decide() raised " + std::string(e.what());
    } catch (const py::cast_error&) {
      failure = "decide() must return a hetsched.Decisions or None";
    }
    const std::optional<std::string> cut = watchdog.finish();
    if (failure && cut) fail(view, "decide() was cut off: " + *cut);
    if (failure) fail(view, *failure);
    if (whole_pass_checked_)
      if (auto problem = decision_problem(view, d)) fail(view, problem->what);
    return d;
  }

  void caller_checks_each_proposal() override { whole_pass_checked_ = false; }
  void limit_pass_time(const PassTimeLimit& limit) override { time_limit_ = limit; }

 private:
  [[noreturn]] void fail(const SystemView& view, const std::string& what) const {
    std::string context = std::to_string(view.pending.size()) + " pending";
    if (!view.pending.empty()) context += ", first job " + std::to_string(view.job(view.pending.front()).id);
    throw PolicyError("scheduler " + label_ + ", pass at time " + std::to_string(view.now) + " (" + context + ")",
                      what, std::string("; nothing of this pass was applied") + (whole_pass_checked_ ? ", the run failed" : ""));
  }

  py::object policy_;
  py::object decide_;
  std::string label_;
  RequestSupport support_;
  bool whole_pass_checked_ = true;
  PassTimeLimit time_limit_;
};

std::string python_error_text(py::error_already_set& e) { return e.what(); }

// Loads the file as a fresh module; its directory goes on sys.path so it can import its
// neighbours.
py::module_ load_policy_file(const std::string& file) {
  namespace fs = std::filesystem;
  if (!fs::is_regular_file(file)) throw InputError(kSpec, "file", file, "no such Python file");
  const std::string dir = fs::absolute(file).parent_path().string();
  py::list path = py::module_::import("sys").attr("path");
  if (!path.contains(dir)) path.insert(0, dir);
  const std::string module_name = "hetsched_policy_" + fs::path(file).stem().string();
  try {
    py::module_ util = py::module_::import("importlib.util");
    py::object spec = util.attr("spec_from_file_location")(module_name, file);
    py::object module = util.attr("module_from_spec")(spec);
    spec.attr("loader").attr("exec_module")(module);
    return module.cast<py::module_>();
  } catch (py::error_already_set& e) {
    throw InputError(kSpec, "file", file, "loading it raised " + python_error_text(e));
  }
}

}  // namespace

std::unique_ptr<Scheduler> make_python_scheduler(const std::string& file, const std::string& class_name,
                                                 Params& params) {
  ensure_interpreter();
  py::gil_scoped_acquire gil;
  py::module_ module = load_policy_file(file);
  if (!py::hasattr(module, class_name.c_str()))
    throw InputError(kSpec, "class", class_name, "not defined in " + file);
  py::dict kwargs;
  for (const auto& [key, value] : params.values())
    kwargs[py::str(key)] = params.get_text(key, value, "passed to " + class_name + "()");
  const std::string label = "py:" + std::filesystem::path(file).filename().string() + ":" + class_name;
  py::object policy;
  try {
    policy = module.attr(class_name.c_str())(**kwargs);
  } catch (py::error_already_set& e) {
    throw InputError(kSpec, "options", py::str(kwargs).cast<std::string>(),
                     class_name + "(...) raised " + python_error_text(e));
  }
  return wrap_python_policy(std::move(policy), label);
}

std::unique_ptr<Scheduler> wrap_python_policy(py::object policy, std::string label) {
  return std::make_unique<PythonScheduler>(std::move(policy), std::move(label));
}

}  // namespace hs::python
