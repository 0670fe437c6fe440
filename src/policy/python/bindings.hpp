#pragma once
// The `hetsched` Python module's parts. The scheduler boundary and the building blocks are
// defined here, below the CLI, so the interpreter the CLI embeds offers them too; the
// importable module adds the simulator driver (src/pymodule).
#include <pybind11/pybind11.h>

namespace hs::python {

// Cluster, Node, Job, JobRequest, Allocation, NodeShare, ClusterState, Event, RunningJob,
// SystemView, StartDecision, Rejection, Decisions, RequestSupport.
void define_boundary(pybind11::module_& m);

// The request/allocation checker, the decision checker, node masks, job units and their
// greedy placement (the allocators of Netti et al. are node orders over it).
void define_building_blocks(pybind11::module_& m);
// The window problem (nodes, capacities, bids), every registered window solver and the
// independent check of an answer.
void define_window_solver(pybind11::module_& m);

}  // namespace hs::python
