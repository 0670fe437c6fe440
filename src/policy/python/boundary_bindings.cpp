#include <pybind11/operators.h>
#include <pybind11/stl.h>

#include <algorithm>

#include "policy/python/bindings.hpp"
#include "policy/python/pass_watchdog.hpp"
#include "sim/scheduler.hpp"

namespace py = pybind11;

namespace hs::python {

namespace {

constexpr auto kRef = py::return_value_policy::reference;
constexpr auto kRefInternal = py::return_value_policy::reference_internal;

// Per-type counts as a list as long as the cluster's gres types (Python side), padded to
// the fixed array (C++ side).
std::vector<std::int32_t> gres_list(const GresCounts& g) { return {g.begin(), g.end()}; }

GresCounts gres_array(const std::vector<std::int32_t>& v) {
  if (v.size() > static_cast<std::size_t>(kMaxGresTypes))
    throw py::value_error("at most " + std::to_string(kMaxGresTypes) + " gres counts");
  GresCounts g{};
  std::copy(v.begin(), v.end(), g.begin());
  return g;
}

// Python may hand any allocation to a state: bad node indices and releases beyond capacity
// are Python errors here, never a C++ assertion.
void check_nodes(const ClusterState& state, const Allocation& a) {
  for (const NodeShare& sh : a.shares)
    if (sh.node < 0 || sh.node >= state.node_count())
      throw py::index_error("node index " + std::to_string(sh.node) + " out of range");
}

void checked_release(ClusterState& state, const Cluster& cluster, const Allocation& a) {
  check_nodes(state, a);
  ClusterState after = state;
  for (const NodeShare& sh : a.shares) {
    const Node& node = cluster.nodes[sh.node];
    NodeFree f = after.node(sh.node);
    bool over = sh.cores < 0 || f.cores + sh.cores > node.cores;
    for (int t = 0; t < kMaxGresTypes; ++t) over |= sh.gres[t] < 0 || f.gres[t] + sh.gres[t] > node.gres[t];
    if (over) throw py::value_error("release exceeds the capacity of node " + node.name);
  }
  state.release(a);
}

// Per node the smaller of two states' free amounts (what is free now and also spare later).
ClusterState lesser_state(const ClusterState& a, const ClusterState& b) {
  if (a.node_count() != b.node_count()) throw py::value_error("states of different clusters");
  return lesser_of(a, b);
}

void define_cluster(py::module_& m) {
  py::class_<Node>(m, "Node")
      .def_readonly("name", &Node::name)
      .def_readonly("cores", &Node::cores)
      .def_property_readonly("gres", [](const Node& n) { return gres_list(n.gres); })
      .def_readonly("memory_mb", &Node::memory_mb)
      .def_readonly("weight", &Node::weight)
      .def_readonly("features", &Node::features);
  py::class_<Partition>(m, "Partition")
      .def_readonly("name", &Partition::name)
      .def_readonly("nodes", &Partition::nodes)
      .def_readonly("max_time", &Partition::max_time)
      .def_readonly("is_default", &Partition::is_default);
  py::class_<Cluster>(m, "Cluster")
      .def_readonly("name", &Cluster::name)
      .def_readonly("gres_types", &Cluster::gres_types)
      .def_readonly("partitions", &Cluster::partitions)
      .def("node_count", &Cluster::node_count)
      .def("node", [](const Cluster& c, NodeIndex n) -> const Node& { return c.nodes.at(n); }, kRefInternal)
      .def_property_readonly("nodes", [](const Cluster& c) { return c.nodes; })
      .def("gres_index", [](const Cluster& c, const std::string& t) { return c.gres_index(t); })
      .def("total_cores", &Cluster::total_cores)
      .def("total_gres", &Cluster::total_gres)
      .def("leaf_switch_of", [](const Cluster& c, NodeIndex n) {
        return c.topology ? c.topology->leaf_of_node.at(n) : -1;
      });
}

void define_job(py::module_& m) {
  py::class_<GresRequest>(m, "GresRequest")
      .def_readonly("name", &GresRequest::name)
      .def_readonly("type", &GresRequest::type)
      .def_readonly("per_node_min", &GresRequest::per_node_min)
      .def_readonly("per_node_max", &GresRequest::per_node_max)
      .def_readonly("kind", &GresRequest::kind);
  py::class_<JobRequest>(m, "JobRequest")
      .def_readonly("ntasks", &JobRequest::ntasks)
      .def_readonly("nodes_min", &JobRequest::nodes_min)
      .def_readonly("nodes_max", &JobRequest::nodes_max)
      .def_readonly("nodes_from_partition", &JobRequest::nodes_from_partition)
      .def_readonly("ntasks_per_node", &JobRequest::ntasks_per_node)
      .def_readonly("gres", &JobRequest::gres)
      .def_readonly("contiguous", &JobRequest::contiguous)
      .def_readonly("mem_per_node_mb", &JobRequest::mem_per_node_mb)
      .def_readonly("time_limit", &JobRequest::time_limit)
      .def_readonly("exclusive", &JobRequest::exclusive)
      .def("gres_min", &JobRequest::gres_min)
      .def("gres_max", &JobRequest::gres_max);
  py::class_<Job>(m, "Job")
      .def_readonly("id", &Job::id)
      .def_readonly("name", &Job::name)
      .def_readonly("user", &Job::user)
      .def_readonly("partition", &Job::partition)
      .def_readonly("submit", &Job::submit)
      .def_readonly("run_time", &Job::run_time)
      .def_readonly("req", &Job::req, kRefInternal);
  py::class_<Workload>(m, "Workload")
      .def_readonly("name", &Workload::name)
      .def("__len__", [](const Workload& w) { return w.jobs.size(); })
      .def("job", [](const Workload& w, JobRef j) -> const Job& { return w.jobs.at(j); }, kRefInternal)
      .def_readonly("notes", &Workload::notes);
}

void define_allocation(py::module_& m) {
  py::class_<NodeShare>(m, "NodeShare")
      .def(py::init([](NodeIndex node, std::int32_t cores, const std::vector<std::int32_t>& gres,
                       std::int64_t mem_mb) { return NodeShare{node, cores, gres_array(gres), mem_mb}; }),
           py::arg("node"), py::arg("cores"), py::arg("gres") = std::vector<std::int32_t>{},
           py::arg("mem_mb") = 0)
      .def_readwrite("node", &NodeShare::node)
      .def_readwrite("cores", &NodeShare::cores)
      .def_property("gres", [](const NodeShare& s) { return gres_list(s.gres); },
                    [](NodeShare& s, const std::vector<std::int32_t>& g) { s.gres = gres_array(g); })
      .def_readwrite("mem_mb", &NodeShare::mem_mb)
      .def("__repr__", [](const NodeShare& s) {
        return "NodeShare(node=" + std::to_string(s.node) + ", cores=" + std::to_string(s.cores) + ")";
      });
  py::class_<Allocation>(m, "Allocation")
      .def(py::init<>())
      .def(py::init([](std::vector<NodeShare> shares) { return Allocation{std::move(shares)}; }))
      .def_readwrite("shares", &Allocation::shares)
      .def("total_cores", &Allocation::total_cores)
      .def("total_gres", &Allocation::total_gres)
      .def("node_count", &Allocation::node_count)
      .def("nodes", &Allocation::nodes)
      .def(py::self == py::self);
  py::class_<NodeFree>(m, "NodeFree")
      .def_readonly("cores", &NodeFree::cores)
      .def_property_readonly("gres", [](const NodeFree& f) { return gres_list(f.gres); })
      .def_readonly("mem_mb", &NodeFree::mem_mb);
  // A state refers to its cluster: `cluster` is kept for checked releases.
  py::class_<ClusterState>(m, "ClusterState")
      .def(py::init<const Cluster&>(), py::keep_alive<1, 2>(), "everything free")
      .def("copy", [](const ClusterState& s) { return ClusterState(s); }, py::keep_alive<0, 1>())
      .def("node", [](const ClusterState& s, NodeIndex n) -> const NodeFree& {
        if (n < 0 || n >= s.node_count()) throw py::index_error("node index " + std::to_string(n) + " out of range");
        return s.node(n);
      }, kRefInternal)
      .def("node_count", &ClusterState::node_count)
      .def("free_cores", &ClusterState::free_cores)
      .def("can_hold", [](const ClusterState& s, const Allocation& a) {
        check_nodes(s, a);
        return s.can_hold(a);
      })
      .def("take", [](ClusterState& s, const Allocation& a) {
        check_nodes(s, a);
        if (!s.can_hold(a)) throw py::value_error("allocation does not fit this state");
        s.take(a);
      })
      .def("release", &checked_release, py::arg("cluster"), py::arg("alloc"),
           "gives the allocation back; ValueError when a node would exceed its capacity");
  m.def("lesser_state", &lesser_state, py::keep_alive<0, 1>(),
        "per node the smaller free amounts of two states (e.g. free now and spare at a reservation)");
}

void define_boundary_types(py::module_& m) {
  py::enum_<EventKind>(m, "EventKind")
      .value("Submitted", EventKind::Submitted)
      .value("Ended", EventKind::Ended)
      .value("NodesChanged", EventKind::NodesChanged)
      .value("Withdrawn", EventKind::Withdrawn);
  py::class_<Event>(m, "Event").def_readonly("kind", &Event::kind).def_readonly("job", &Event::job);
  py::class_<RunningJob>(m, "RunningJob")
      .def_readonly("job", &RunningJob::job)
      .def_readonly("start", &RunningJob::start)
      .def_readonly("limit_end", &RunningJob::limit_end)
      .def_property_readonly("alloc", [](const RunningJob& r) -> const Allocation& { return *r.alloc; }, kRef);
  // Valid only during decide(): keep nothing of it (copy what you need).
  py::class_<SystemView>(m, "SystemView")
      .def_readonly("now", &SystemView::now)
      .def_property_readonly("cluster", [](const SystemView& v) -> const Cluster& { return *v.cluster; }, kRef)
      .def_property_readonly("free", [](const SystemView& v) -> const ClusterState& { return *v.free; }, kRef)
      .def_property_readonly("pending", [](const SystemView& v) {
        return std::vector<JobRef>(v.pending.begin(), v.pending.end());
      })
      .def_property_readonly("running", [](const SystemView& v) {
        return std::vector<RunningJob>(v.running.begin(), v.running.end());
      })
      .def("job", &SystemView::job, kRef);
  py::class_<StartDecision>(m, "StartDecision")
      .def_readonly("job", &StartDecision::job)
      .def_readonly("alloc", &StartDecision::alloc);
  py::class_<Rejection>(m, "Rejection")
      .def_readonly("job", &Rejection::job)
      .def_readonly("reason", &Rejection::reason);
  py::class_<Decisions>(m, "Decisions")
      .def(py::init<>())
      .def("start", [](Decisions& d, JobRef j, Allocation a) { d.starts.push_back({j, std::move(a)}); },
           py::arg("job"), py::arg("alloc"))
      .def("reject", [](Decisions& d, JobRef j, std::string why) { d.rejections.push_back({j, std::move(why)}); },
           py::arg("job"), py::arg("reason"))
      .def_readonly("starts", &Decisions::starts)
      .def_readonly("rejections", &Decisions::rejections)
      .def_readwrite("wake_at", &Decisions::wake_at);
  py::class_<RequestSupport>(m, "RequestSupport")
      .def(py::init([](bool mask, bool required, bool exclusive) { return RequestSupport{mask, required, exclusive}; }),
           py::arg("node_mask") = false, py::arg("required_nodes") = false, py::arg("exclusive") = false)
      .def_readwrite("node_mask", &RequestSupport::node_mask)
      .def_readwrite("required_nodes", &RequestSupport::required_nodes)
      .def_readwrite("exclusive", &RequestSupport::exclusive);
}

}  // namespace

void define_boundary(py::module_& m) {
  m.attr("NO_TIME") = kNoTime;
  // Raised in a pass cut off for its time (the bridge's --policy-time-limit) or a stop.
  m.attr("PassCutOff") = py::reinterpret_borrow<py::object>(PassWatchdog::cut_off_type());
  define_cluster(m);
  define_job(m);
  define_allocation(m);
  define_boundary_types(m);
}

}  // namespace hs::python
