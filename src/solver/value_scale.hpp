#pragma once
// Windows of small bid values, solved on values scaled up by a power of two. The solvers'
// tolerances are absolute (an answer within 1e-6 of the bound counts as optimal; CLP's and
// CBC's own tolerances are 1e-7 and the like), so on values of a millionth a job every
// answer was "optimal": a window of such values was proven optimal 1 % below its optimum,
// and 43 % below at a millionth of that. Multiplying by a power of two is exact in binary
// floating point, so the scaled window has the same answers in the same order of preference.
#include <memory>

#include "solver/window_problem.hpp"

namespace hs::solver {

// The power of two the window's values are multiplied by before solving: 0 when the largest
// value is at least 1 (every replay's window: values of 80 and more), else the one that
// brings the largest into [2^10, 2^11), the range the solvers are measured on.
int value_scale_exponent(const WindowProblem& problem);

// `solver` on every window, scaled by value_scale_exponent when that is not 0; the answer's
// objective and bound in the window's own values, its gap that of the scaled solve (relative
// to a bound of at least 1).
std::unique_ptr<WindowSolver> with_value_scaling(std::unique_ptr<WindowSolver> solver);

}  // namespace hs::solver
