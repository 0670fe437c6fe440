#include <pybind11/operators.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <memory>
#include <tuple>

#include "model/job_nodes.hpp"
#include "model/request_fit.hpp"
#include "policy/heuristic/allocators.hpp"
#include "policy/heuristic/job_units.hpp"
#include "policy/slurm/select.hpp"
#include "policy/python/bindings.hpp"
#include "sim/decision_check.hpp"

namespace py = pybind11;

namespace hs::python {

namespace {

using heuristic::JobUnits;

// The nodes a job may use, kept as C++ bytes so placing units does not convert a list each
// time.
struct NodeMask {
  std::vector<char> usable;
};

std::span<const char> mask_span(const NodeMask* mask) {
  return mask ? std::span<const char>(mask->usable) : std::span<const char>();
}

std::optional<Allocation> place(const Cluster& cluster, const ClusterState& state, const JobUnits& u,
                                const std::optional<std::vector<NodeIndex>>& order, const NodeMask* mask) {
  std::vector<NodeIndex> one_d;
  if (!order) {
    one_d.resize(cluster.nodes.size());
    for (NodeIndex n = 0; n < cluster.node_count(); ++n) one_d[n] = n;
  }
  for (NodeIndex n : order ? *order : one_d)
    if (n < 0 || n >= cluster.node_count()) throw py::index_error("node index " + std::to_string(n) + " out of range");
  const std::span<const char> usable = mask_span(mask);
  if (!usable.empty() && usable.size() != cluster.nodes.size())
    throw py::value_error("node mask is for another cluster");
  return heuristic::place_units(cluster, state, u, order ? *order : one_d, usable);
}

void define_units(py::module_& m) {
  py::class_<NodeMask>(m, "NodeMask")
      .def("__len__", [](const NodeMask& k) { return k.usable.size(); })
      .def("__getitem__", [](const NodeMask& k, std::size_t n) { return k.usable.at(n) != 0; });
  m.def("node_mask", [](const Cluster& c, const Job& j) { return NodeMask{job_node_mask(c, j)}; },
        "the nodes the job may use: its partition, -C and -x");
  py::class_<JobUnits>(m, "JobUnits")
      .def_readonly("count", &JobUnits::count)
      .def_readonly("cores", &JobUnits::cores)
      .def_readonly("mem_mb", &JobUnits::mem_mb)
      .def_readonly("node_mem_mb", &JobUnits::node_mem_mb)
      .def_readonly("max_per_node", &JobUnits::max_per_node)
      .def_readonly("total_cores", &JobUnits::total_cores)
      .def_readonly("contiguous", &JobUnits::contiguous)
      .def_property_readonly("gres", [](const JobUnits& u) { return std::vector<std::int32_t>(u.gres.begin(), u.gres.end()); })
      .def_property_readonly("node_gres", [](const JobUnits& u) {
        return std::vector<std::int32_t>(u.node_gres.begin(), u.node_gres.end());
      })
      .def("total_gres", &JobUnits::total_gres)
      .def("min_nodes", &JobUnits::min_nodes)
      .def(py::self == py::self);
  m.def("job_units", [](const Job& job) {
    auto mapped = heuristic::units_from_request(job);
    if (auto* reason = std::get_if<std::string>(&mapped)) throw py::value_error(*reason);
    return std::get<JobUnits>(mapped);
  }, "the job as identical units (Netti et al.); ValueError with the reason when it is not expressible");
  m.def("units_fitting", [](const Cluster& c, const ClusterState& s, NodeIndex n, const JobUnits& u) {
    return heuristic::units_fitting(c.nodes.at(n), s.node(n), u);
  });
  m.def("units_feasible", [](const Cluster& c, const ClusterState& s, const JobUnits& u, const NodeMask* mask) {
    return heuristic::units_feasible(c, s, u, mask_span(mask));
  }, py::arg("cluster"), py::arg("state"), py::arg("units"), py::arg("mask") = nullptr);
  m.def("place_units", &place, py::arg("cluster"), py::arg("state"), py::arg("units"),
        py::arg("order") = py::none(), py::arg("mask") = nullptr,
        "greedy placement of the units along `order` (default: the 1-D order, first fit); None when they do not fit");
}

// The node order of one of Netti et al.'s allocators that need no pass context.
std::vector<NodeIndex> allocator_order(const std::string& name, const Cluster& cluster,
                                       const ClusterState& state, const JobUnits& units,
                                       const std::string& critical_types) {
  if (name != "ff" && name != "bf" && name != "balanced")
    throw py::value_error("allocator '" + name + "': ff, bf or balanced (weighted and pweighted need a pass context)");
  Params params;
  if (name == "balanced") params.set("critical-types", critical_types);
  auto allocator = heuristic::make_allocator(name, params);
  std::vector<NodeIndex> order;
  allocator->order_nodes(cluster, state, units, order);
  return order;
}

// One allocator with the state it keeps across passes (weighted's weights, pweighted's
// priority counters), for policies that hold the queue themselves.
class StatefulAllocator {
 public:
  StatefulAllocator(const std::string& name, const std::string& critical_types, int priority_bound) {
    Params params;
    if (name == "balanced" || name == "pweighted") params.set("critical-types", critical_types);
    if (name == "pweighted") params.set("priority-bound", std::to_string(priority_bound));
    allocator_ = heuristic::make_allocator(name, params);  // InputError for unknown names
  }

  // `queue`: every waiting job the policy may start this pass, as (job, units, predicted s).
  void begin_pass(const Cluster& cluster, const ClusterState& free,
                  const std::vector<std::tuple<JobRef, JobUnits, Time>>& queue) {
    units_.clear();
    queue_.clear();
    units_.reserve(queue.size());
    for (const auto& [job, units, predicted] : queue) units_.push_back(units);
    for (std::size_t i = 0; i < queue.size(); ++i)
      queue_.push_back({std::get<0>(queue[i]), &units_[i], std::max<Time>(1, std::get<2>(queue[i]))});
    free_ = std::make_unique<ClusterState>(free);
    allocator_->begin_pass({&cluster, free_.get(), queue_});
  }

  std::vector<NodeIndex> order(const Cluster& cluster, const ClusterState& state, const JobUnits& units) {
    std::vector<NodeIndex> order;
    allocator_->order_nodes(cluster, state, units, order);
    return order;
  }

  // As the C++ schedulers allocate: order, place; `record` reports the outcome of a real
  // attempt to start the job now (pweighted's counters), not of planning.
  std::optional<Allocation> allocate(const Cluster& cluster, const ClusterState& state,
                                     const JobUnits& units, const NodeMask* mask, bool record) {
    if (mask && mask->usable.size() != cluster.nodes.size()) throw py::value_error("node mask is for another cluster");
    return heuristic::allocate(*allocator_, cluster, state, units, mask_span(mask), record);
  }

  std::string name() const { return allocator_->name(); }

 private:
  std::unique_ptr<heuristic::Allocator> allocator_;
  std::vector<JobUnits> units_;
  std::vector<heuristic::QueuedJob> queue_;
  std::unique_ptr<ClusterState> free_;
};

void define_allocator(py::module_& m) {
  py::class_<StatefulAllocator>(m, "Allocator",
                                "ff, bf, balanced, weighted or pweighted (Netti et al.), with its state across passes")
      .def(py::init<const std::string&, const std::string&, int>(), py::arg("name"),
           py::arg("critical_types") = "gpu,mic", py::arg("priority_bound") = 10)
      .def_property_readonly("name", &StatefulAllocator::name)
      .def("begin_pass", &StatefulAllocator::begin_pass, py::arg("cluster"), py::arg("free"), py::arg("queue"),
           "once per pass, before any allocation: queue = [(job, units, predicted seconds), ...]")
      .def("order", &StatefulAllocator::order, py::arg("cluster"), py::arg("state"), py::arg("units"))
      .def("allocate", &StatefulAllocator::allocate, py::arg("cluster"), py::arg("state"), py::arg("units"),
           py::arg("mask") = nullptr, py::arg("record") = true,
           "order the nodes and place the units, or None; record=True for a real attempt to start now");
}

void define_selection(py::module_& m) {
  m.def("allocator_order", &allocator_order, py::arg("name"), py::arg("cluster"), py::arg("state"),
        py::arg("units"), py::arg("critical_types") = "gpu,mic",
        "node order of the ff, bf or balanced allocator on `state` (place_units takes it)");
  m.def("slurm_select", [](const Cluster& c, const ClusterState& s, const Job& j, const NodeMask* mask,
                           bool use_topology, bool lowest_top_switch) {
    if (mask && mask->usable.size() != c.nodes.size()) throw py::value_error("node mask is for another cluster");
    const slurm::SelectOptions options{
        .use_topology = use_topology, .usable = mask_span(mask), .lowest_top_switch = lowest_top_switch};
    return slurm::select_nodes(c, s, j, options);
  }, py::arg("cluster"), py::arg("state"), py::arg("job"), py::arg("mask") = nullptr,
     py::arg("use_topology") = true, py::arg("lowest_top_switch") = false,
     "the allocation the Slurm 22.05 model (cons_tres best fit, topology/tree) picks now, or None");
}

void define_checks(py::module_& m) {
  m.def("allocation_problem", [](const Cluster& c, const Job& j, const Allocation& a) {
    return allocation_violates_request(c, j, a);
  }, "why the allocation breaks the job's request (cores, nodes, gres, memory, partition...), or None");
  m.def("never_runnable_reason", [](const Cluster& c, const Job& j) { return never_runnable_reason(c, j); });
  m.def("decision_problem", [](const SystemView& v, const Decisions& d) -> std::optional<std::string> {
    auto p = decision_problem(v, d);
    if (!p) return std::nullopt;
    return p->what;
  }, "the check every policy's decisions get before they are applied: the first problem, or None");
}

}  // namespace

void define_building_blocks(py::module_& m) {
  define_units(m);
  define_selection(m);
  define_allocator(m);
  define_checks(m);
}

}  // namespace hs::python
