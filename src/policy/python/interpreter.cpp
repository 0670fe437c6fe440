#include "policy/python/interpreter.hpp"

#include <pybind11/embed.h>

#include "policy/python/bindings.hpp"
#include "policy/python/pass_watchdog.hpp"

namespace py = pybind11;

namespace hs::python {

namespace {

PyObject* init_embedded_hetsched() {
  static PyModuleDef def{};
  auto m = py::module_::create_extension_module(
      "hetsched", "hetsched's scheduler boundary and building blocks (embedded)", &def);
  try {
    define_boundary(m);
    define_building_blocks(m);
    define_window_solver(m);
    return m.release().ptr();
  } catch (py::error_already_set& e) {
    e.restore();
    return nullptr;
  }
}

}  // namespace

void ensure_interpreter() {
  if (Py_IsInitialized()) return;
  // Appended before start-up: registering it later is not allowed.
  PyImport_AppendInittab("hetsched", &init_embedded_hetsched);
  py::initialize_interpreter();
  PassWatchdog::install_cut_off_signal();
}

}  // namespace hs::python
