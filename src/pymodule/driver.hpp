#pragma once
#include <pybind11/pybind11.h>

namespace hs::python {

// load_cluster, load_workload, run (a replay with a spec or a Python policy object, results
// as plain lists and dicts), schedule_digest, and the errors InputError and PolicyError.
void define_driver(pybind11::module_& m);

}  // namespace hs::python
