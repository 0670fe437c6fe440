#pragma once
// A scheduler written in Python. The registry builds one from
// "py:path/to/file.py:ClassName[:key=value,...]": the file is loaded as a module, the class
// is called with the options as keyword arguments (strings), and its decide(view, events)
// runs once per pass. Every answer goes through decision_problem() before it is returned
// (unless the caller checks each proposal itself: Scheduler::caller_checks_each_proposal);
// an exception or a refused decision becomes a PolicyError.
#include <memory>
#include <string>

#include <pybind11/pybind11.h>

#include "sim/scheduler.hpp"
#include "util/params.hpp"

namespace hs::python {

// `file` and `class_name` from the spec; every option in `params` goes to the class.
std::unique_ptr<Scheduler> make_python_scheduler(const std::string& file, const std::string& class_name,
                                                 Params& params);

// Wraps a policy object that already exists (the Python module's driver), named `label`.
std::unique_ptr<Scheduler> wrap_python_policy(pybind11::object policy, std::string label);

}  // namespace hs::python
