// The window problem of the co-allocation schedulers and its solvers, for Python: build a
// window (nodes' capacities, jobs' bids), solve it with any registered solver, check an
// answer independently.
#include <pybind11/stl.h>

#include "policy/python/bindings.hpp"
#include "solver/solvers.hpp"
#include "solver/window_problem.hpp"

namespace py = pybind11;

namespace hs::python {

namespace {

using solver::WindowProblem;

solver::NodeUse node_use(std::int32_t node, const std::vector<std::int32_t>& amounts) {
  if (amounts.size() > static_cast<std::size_t>(solver::kMaxDims))
    throw py::value_error("a node use has at most " + std::to_string(solver::kMaxDims) + " dimensions");
  solver::NodeUse use{node, {}};
  for (std::size_t d = 0; d < amounts.size(); ++d) use.amount[d] = amounts[d];
  return use;
}

py::dict solve_window(const WindowProblem& problem, const std::string& name, std::int64_t effort,
                      std::uint64_t seed) {
  const auto window_solver = solver::make_window_solver(name);  // InputError for unknown names
  solver::SolverOptions options;
  options.effort_limit = effort;
  options.seed = seed;
  const solver::SolveResult r = window_solver->solve(problem, options);
  const char* status = "error";
  switch (r.status) {
    case solver::SolveStatus::Optimal: status = "optimal"; break;
    case solver::SolveStatus::Feasible: status = "feasible"; break;
    case solver::SolveStatus::Infeasible: status = "infeasible"; break;
    case solver::SolveStatus::NoSolution: status = "no solution"; break;
    case solver::SolveStatus::Error: status = "error"; break;
  }
  py::dict out;
  out["status"] = status;
  out["bid_of_job"] = r.solution.bid_of_job;
  out["objective"] = r.solution.objective;
  out["bound"] = r.bound;
  out["gap"] = r.gap;
  out["effort"] = r.effort;
  out["message"] = r.message;
  // The same independent check a window scheduler applies before it starts anything.
  const bool has_answer = r.call == solver::CallStatus::Ok &&
                          (r.status == solver::SolveStatus::Optimal || r.status == solver::SolveStatus::Feasible);
  out["check"] = has_answer ? solver::check_solution(problem, r.solution) : std::nullopt;
  return out;
}

std::optional<std::string> check_answer(const WindowProblem& problem, const std::vector<std::int32_t>& bid_of_job,
                                        double objective) {
  return solver::check_solution(problem, solver::WindowSolution{bid_of_job, objective});
}

}  // namespace

void define_window_solver(py::module_& m) {
  py::class_<solver::NodeUse>(m, "NodeUse")
      .def(py::init(&node_use), py::arg("node"), py::arg("amounts"))
      .def_readonly("node", &solver::NodeUse::node)
      .def_property_readonly("amounts", [](const solver::NodeUse& u) {
        return std::vector<std::int32_t>(u.amount.begin(), u.amount.end());
      });
  py::class_<solver::Bid>(m, "Bid")
      .def(py::init([](std::int32_t job, double value, std::vector<solver::NodeUse> uses) {
             return solver::Bid{job, value, std::move(uses)};
           }),
           py::arg("job"), py::arg("value"), py::arg("uses"))
      .def_readonly("job", &solver::Bid::job)
      .def_readonly("value", &solver::Bid::value)
      .def_readonly("uses", &solver::Bid::uses);
  py::class_<WindowProblem>(m, "WindowProblem",
                            "one window: capacity per node and dimension (row-major), jobs' bids")
      .def(py::init([](std::int32_t jobs, std::int32_t nodes, std::int32_t dims,
                       std::vector<std::int32_t> capacity, std::vector<solver::Bid> bids) {
             if (dims < 1 || dims > solver::kMaxDims) throw py::value_error("dims must be 1.." + std::to_string(solver::kMaxDims));
             if (capacity.size() != static_cast<std::size_t>(nodes) * static_cast<std::size_t>(dims))
               throw py::value_error("capacity needs nodes * dims entries");
             return WindowProblem{jobs, nodes, dims, std::move(capacity), std::move(bids)};
           }),
           py::arg("jobs"), py::arg("nodes"), py::arg("dims"), py::arg("capacity"), py::arg("bids"))
      .def_readonly("job_count", &WindowProblem::job_count)
      .def_readonly("node_count", &WindowProblem::node_count)
      .def_readonly("dims", &WindowProblem::dims)
      .def_readonly("capacity", &WindowProblem::capacity)
      .def_readonly("bids", &WindowProblem::bids);
  m.def("window_solvers", &solver::window_solver_names, "the registered window solvers");
  m.def("solve_window", &solve_window, py::arg("problem"), py::arg("solver") = "lagrangian",
        py::arg("effort") = 0, py::arg("seed") = 1,
        "solve a window: dict with status, bid_of_job, objective, bound, gap, effort, message and "
        "check (None when the answer passed the independent check, else the problem)");
  m.def("check_window_answer", &check_answer, py::arg("problem"), py::arg("bid_of_job"), py::arg("objective"),
        "the independent check of an answer (one bid per job, capacities, objective): None or the problem");
}

}  // namespace hs::python
