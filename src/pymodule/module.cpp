// `import hetsched`: the scheduler boundary, the building blocks and the simulator driver.
#include <pybind11/pybind11.h>

#include "policy/python/bindings.hpp"
#include "pymodule/driver.hpp"

PYBIND11_MODULE(hetsched, m) {
  m.doc() = "hetsched: heterogeneous-cluster scheduler boundary and simulator (docs/python.md)";
  hs::python::define_boundary(m);
  hs::python::define_building_blocks(m);
  hs::python::define_window_solver(m);
  hs::python::define_driver(m);
}
