#pragma once
// The Python interpreter a C++ program (the CLI, a test) embeds for py: schedulers.
namespace hs::python {

// Starts the interpreter once, with the built-in module `hetsched` (the boundary and the
// building blocks) importable; does nothing inside a Python process. The interpreter lives
// until the process ends.
void ensure_interpreter();

}  // namespace hs::python
