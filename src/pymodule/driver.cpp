#include "pymodule/driver.hpp"

#include <pybind11/stl.h>

#include <chrono>

#include "cli/run_setup.hpp"
#include "metrics/job_metrics.hpp"
#include "metrics/summary.hpp"
#include "policy/python/python_scheduler.hpp"
#include "policy/registry.hpp"
#include "sim/bind.hpp"
#include "sim/invariant_checker.hpp"
#include "sim/schedule_digest.hpp"
#include "sim/simulator.hpp"
#include "util/error.hpp"

namespace py = pybind11;

namespace hs::python {

namespace {

py::dict job_row(const Cluster& cluster, const Job& job, const JobRecord& rec) {
  py::dict row;
  row["id"] = job.id;
  row["user"] = job.user;
  row["status"] = status_name(rec.status);
  row["submit"] = job.submit;
  row["start"] = rec.start;
  row["end"] = rec.end;
  row["wait"] = job_ran(rec) ? py::int_(rec.start - job.submit) : py::int_(-1);
  row["cores"] = rec.alloc.total_cores();
  py::list nodes;
  rec.alloc.for_each_share([&](const NodeShare& s) { nodes.append(cluster.nodes[s.node].name); });
  row["nodes"] = nodes;
  py::dict gres;
  for (std::size_t t = 0; t < cluster.gres_types.size(); ++t)
    gres[py::str(cluster.gres_types[t])] = rec.alloc.total_gres(static_cast<int>(t));
  row["gres"] = gres;
  row["reason"] = rec.reason;
  return row;
}

// The scheduler from a spec string or a Python object with decide(view, events).
std::unique_ptr<Scheduler> scheduler_from(const py::object& scheduler) {
  if (py::isinstance<py::str>(scheduler)) return make_scheduler(scheduler.cast<std::string>(), {}).scheduler;
  const std::string label = "py:" + py::str(py::type::of(scheduler).attr("__name__")).cast<std::string>();
  return wrap_python_policy(scheduler, label);
}

py::dict run(const Cluster& cluster, const Workload& workload, const py::object& scheduler_arg,
             Time periodic_interval) {
  Workload bound = workload;
  bind_workload(cluster, bound);
  std::unique_ptr<Scheduler> scheduler = scheduler_from(scheduler_arg);
  SimConfig config;
  config.periodic_interval = periodic_interval;
  const auto t0 = std::chrono::steady_clock::now();
  const SimResult result = simulate(cluster, bound, *scheduler, config);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const CheckReport check = check_run(cluster, bound, result);
  py::dict out;
  out["scheduler"] = scheduler->name();
  py::list jobs;
  for (std::size_t j = 0; j < bound.jobs.size(); ++j) jobs.append(job_row(cluster, bound.jobs[j], result.records[j]));
  out["jobs"] = jobs;
  py::dict summary;
  for (const SummaryField& f : summary_fields(summarize(cluster, bound, result))) summary[py::str(f.name)] = f.value;
  out["summary"] = summary;
  out["violations"] = check.violations;
  out["ok"] = check.ok();
  out["digest"] = schedule_digest(result);
  out["passes"] = result.passes;
  out["wall_seconds"] = wall;
  return out;
}

}  // namespace

void define_driver(py::module_& m) {
  py::register_exception<InputError>(m, "InputError", PyExc_ValueError);
  py::register_exception<PolicyError>(m, "PolicyError", PyExc_RuntimeError);
  m.def("load_cluster", [](const std::string& spec) { return cli::load_cluster(spec); },
        "a built-in cluster name (hetsched list clusters) or a slurm.conf path");
  m.def("load_workload", [](const std::string& spec, const Cluster& cluster, std::uint64_t seed,
                            const std::string& add_gpus) {
    return cli::load_workload(spec, cluster, seed, cli::WorkloadInputs{add_gpus, {}});
  }, py::arg("spec"), py::arg("cluster"), py::arg("seed") = 1, py::arg("add_gpus") = "",
     "a job file, SWF trace, sacct dump, or a generator spec drawn with `seed`");
  m.def("run", &run, py::arg("cluster"), py::arg("workload"), py::arg("scheduler"),
        py::arg("periodic_interval") = 0,
        "replays the workload under a scheduler spec ('easy+ff') or a Python policy object; "
        "returns {'scheduler', 'jobs': [per-job dicts], 'summary': {metric: value}, "
        "'violations', 'ok', 'digest', 'passes', 'wall_seconds'}");
  m.def("schedulers", [] {
    std::vector<std::pair<std::string, std::string>> out;
    for (const SchedulerInfo& s : scheduler_list()) out.emplace_back(s.name, s.description);
    return out;
  });
}

}  // namespace hs::python
