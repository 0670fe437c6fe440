#pragma once
// Windows of very small or very large bid values, solved on values scaled by a power of
// two. The solvers' tolerances are absolute (an answer within 1e-6 of the bound counts as
// optimal; CLP's and CBC's own are 1e-7 and the like), so on values of a millionth a job
// every answer was "optimal" (1-66 % below the optimum at values of 1e-9 and 1e-12), and
// CLP aborts the process on objective coefficients of 1e25 and more. Multiplying by a power
// of two is exact in binary floating point, so the scaled window has the same answers in
// the same order of preference.
#include <memory>

#include "solver/window_problem.hpp"

namespace hs::solver {

// The power of two the window's values are multiplied by before solving: 0 when the largest
// value lies in [1, 2^64) (every replay's window: values from 80 to about 10^10), else the
// one that brings the largest into [2^10, 2^11), a range the solvers are measured on.
int value_scale_exponent(const WindowProblem& problem);

// `solver` on every window, scaled by value_scale_exponent when that is not 0; the answer's
// objective and bound in the window's own values, its gap that of the scaled solve (relative
// to a bound of at least 1).
std::unique_ptr<WindowSolver> with_value_scaling(std::unique_ptr<WindowSolver> solver);

}  // namespace hs::solver
