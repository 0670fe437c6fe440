# Python bindings are optional: with python3-dev and pybind11-dev (scripts/install-deps.sh)
# the CLI accepts `py:file.py:Class` schedulers and build/python/ holds `import hetsched`.
option(HETSCHED_WITH_PYTHON "Python schedulers and bindings (needs python3-dev, pybind11-dev)" ON)
set(HETSCHED_PYTHON OFF)
# CPython is not ASan-instrumented: under the sanitizers (scripts/test-sanitizers.sh) the
# bindings are left out and their tests report themselves skipped.
set(HETSCHED_SANITIZED OFF)
if(CMAKE_CXX_FLAGS MATCHES "-fsanitize")
  set(HETSCHED_SANITIZED ON)
endif()
if(HETSCHED_WITH_PYTHON AND HETSCHED_SANITIZED)
  message(STATUS "hetsched: Python bindings OFF in a sanitizer build (CPython is not instrumented)")
elseif(HETSCHED_WITH_PYTHON)
  find_package(Python3 COMPONENTS Interpreter Development)
  set(PYBIND11_FINDPYTHON ON)
  find_package(pybind11 2.6 CONFIG QUIET)
  if(Python3_FOUND AND pybind11_FOUND)
    set(HETSCHED_PYTHON ON)
    # The static area libraries also go into the Python module, a shared object.
    set(CMAKE_POSITION_INDEPENDENT_CODE ON)
    # PIC alone makes every function interposable, which stops inlining across functions and
    # cost the simulator about 10 % (backfill-easy on SDSC-SP2); nothing here is interposed.
    add_compile_options(-fno-semantic-interposition)
    # libpython is linked into executables only: inside `python3` the interpreter is
    # already there, and a second copy in the module would break it.
    add_library(hs_python_link INTERFACE)
    target_link_libraries(hs_python_link INTERFACE pybind11::headers Python3::Module
      "$<$<NOT:$<BOOL:$<TARGET_PROPERTY:HETSCHED_PY_EXTENSION>>>:Python3::Python>")
    message(STATUS "hetsched: Python ${Python3_VERSION} bindings on (pybind11 ${pybind11_VERSION})")
  else()
    message(STATUS "hetsched: Python bindings OFF: python3-dev or pybind11-dev missing "
                   "(scripts/install-deps.sh installs both); py: schedulers unavailable")
  endif()
endif()
