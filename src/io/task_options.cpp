#include "io/task_options.hpp"

#include <limits>
#include <optional>

#include "io/job_options.hpp"
#include "io/node_gres.hpp"
#include "io/text_file.hpp"

namespace hs {

using namespace text;  // io's parsing helpers

namespace {

constexpr std::int64_t kMaxCount = std::numeric_limits<std::int32_t>::max();
constexpr std::int64_t kMaxMemoryMb = std::int64_t{1} << 40;

[[noreturn]] void refuse(const WrittenOption& o, const InputLocation& where,
                         const std::string& problem) {
  throw InputError(where, o.name, o.value, problem);
}

std::int32_t count_of(const WrittenOption& o, std::string_view digits, const InputLocation& where) {
  try {
    return static_cast<std::int32_t>(parse_int_in(digits, 1, 1'000'000, where, o.name));
  } catch (const InputError& e) {
    refuse(o, where, e.problem());
  }
}

struct Gpus {
  std::string kind;  // "" = any type
  std::int32_t count = 0;
};

// "[type:]N", as --gpus, --gpus-per-node and --gpus-per-task take it.
Gpus gpus_of(const WrittenOption& o, const InputLocation& where) {
  Gpus g;
  std::string_view count = o.value;
  if (const std::size_t colon = o.value.rfind(':'); colon != std::string::npos) {
    g.kind = o.value.substr(0, colon);
    if (!is_gres_type(g.kind)) refuse(o, where, "bad gpu type '" + g.kind + "'");
    count.remove_prefix(colon + 1);
  }
  g.count = count_of(o, count, where);
  return g;
}

bool one_node(const JobRequest& r) { return r.nodes_min == 1 && r.nodes_max == 1; }

// Tasks on every node used, when the request fixes that number; else nullopt.
std::optional<std::int64_t> tasks_per_node(const JobRequest& r) {
  if (r.ntasks_per_node > 0) return r.ntasks_per_node;
  if (one_node(r)) return r.ntasks;
  return std::nullopt;
}

std::int32_t checked(std::int64_t v, const WrittenOption& o, const InputLocation& where) {
  if (v > kMaxCount) refuse(o, where, "too many cores or gpus (" + std::to_string(v) + ")");
  return static_cast<std::int32_t>(v);
}

// -c: every task's cores stay on its node, so cores per node = tasks per node x c; when
// tasks may spread, the job becomes units of c cores (JobRequest::task_cores).
void apply_cpus_per_task(const WrittenOption& o, JobRequest& r, const InputLocation& where) {
  const std::int32_t c = count_of(o, o.value, where);
  if (c == 1) return;
  if (!tasks_per_node(r)) r.task_cores = c;
  r.ntasks = checked(std::int64_t{r.ntasks} * c, o, where);
  if (r.ntasks_per_node > 0)
    r.ntasks_per_node = checked(std::int64_t{r.ntasks_per_node} * c, o, where);
}

// GPUs per node from --gpus-per-node, --gpus-per-task or --gpus (at most one of them).
void apply_gpus(const TaskOptions& t, std::optional<std::int64_t> tasks, JobRequest& r,
                const InputLocation& where) {
  const WrittenOption* given = nullptr;
  for (const WrittenOption* o : {&t.gpus_per_node, &t.gpus_per_task, &t.gpus}) {
    if (!o->given()) continue;
    if (given) refuse(*o, where, "give only one of " + given->name + " and " + o->name);
    given = o;
  }
  if (!given) return;
  for (const GresRequest& g : r.gres)
    if (g.name == "gpu")
      refuse(*given, where, "the job also gives --gres=gpu…; give one of them");
  const Gpus g = gpus_of(*given, where);
  std::int64_t per_node = g.count;
  if (given == &t.gpus_per_task) {
    if (!tasks) {  // units: the count stays per task
      if (!r.units()) r.task_cores = 1;
    } else {
      per_node = *tasks * g.count;
    }
  } else if (r.units()) {
    refuse(*given, where, "with tasks spread as units give --gpus-per-task");
  } else if (given == &t.gpus && !one_node(r)) {
    refuse(*given, where,
           "a job total of gpus over several nodes may be split unevenly by Slurm; give "
           "--gpus-per-node, or -N 1");
  }
  const std::int32_t count = checked(per_node, *given, where);
  r.gres.push_back(GresRequest{"gpu", -1, count, count, g.kind});
}

std::int32_t gpus_per_node(const JobRequest& r) {
  if (r.units()) return -1;  // varies with the tasks each node takes
  for (const GresRequest& g : r.gres)
    if (g.name == "gpu") return g.per_node_min == g.per_node_max ? g.per_node_min : -1;
  return 0;
}

// --cpus-per-gpu: c cores for every GPU, on each of exactly -N nodes.
void apply_cpus_per_gpu(const WrittenOption& o, bool ntasks_given, JobRequest& r,
                        const InputLocation& where) {
  const std::int32_t c = count_of(o, o.value, where);
  const std::int32_t g = gpus_per_node(r);
  if (g <= 0) refuse(o, where, "needs a fixed gpu count per node (--gpus-per-node, --gres=gpu:N)");
  if (ntasks_given || r.ntasks_per_node > 0)
    refuse(o, where, "with -n or --ntasks-per-node the cores per node are not c x gpus; give one");
  if (r.nodes_min <= 0 || r.nodes_min != r.nodes_max)
    refuse(o, where, "needs an exact node count (-N a)");
  r.ntasks_per_node = checked(std::int64_t{c} * g, o, where);
  r.ntasks = checked(std::int64_t{r.ntasks_per_node} * r.nodes_min, o, where);
}

void set_memory(const WrittenOption& o, std::int64_t per_unit, std::int64_t units, JobRequest& r,
                const InputLocation& where) {
  if (units > 0 && per_unit > kMaxMemoryMb / units) refuse(o, where, "memory per node too large");
  r.mem_per_node_mb = per_unit * units;
}

// --mem-per-cpu / --mem-per-gpu: memory per node from the node's cores or gpus.
void apply_memory(const TaskOptions& t, JobRequest& r, const InputLocation& where) {
  const WrittenOption& cpu = t.mem_per_cpu;
  const WrittenOption& gpu = t.mem_per_gpu;
  if (!cpu.given() && !gpu.given()) return;
  const WrittenOption& o = cpu.given() ? cpu : gpu;
  if (cpu.given() && gpu.given())
    refuse(gpu, where, "give only one of " + cpu.name + " and " + gpu.name);
  if (r.mem_per_node_mb > 0) refuse(o, where, "give only one of --mem and " + o.name);
  const std::int64_t per_unit = parse_memory_mb(o.value, where, o.name);
  if (cpu.given()) {
    const std::int64_t cores =
        r.ntasks_per_node > 0 ? r.ntasks_per_node : (one_node(r) ? r.ntasks : 0);
    if (cores == 0)
      refuse(o, where,
             "memory per node would vary with each node's cores; give --ntasks-per-node or -N 1");
    return set_memory(o, per_unit, cores, r, where);
  }
  const std::int32_t g = gpus_per_node(r);
  if (g <= 0) refuse(o, where, "needs a fixed gpu count per node (--gpus-per-node, --gres=gpu:N)");
  set_memory(o, per_unit, g, r, where);
}

}  // namespace

bool TaskOptions::any() const {
  for (const WrittenOption* o : {&cpus_per_task, &gpus, &gpus_per_node, &gpus_per_task,
                                 &cpus_per_gpu, &mem_per_cpu, &mem_per_gpu})
    if (o->given()) return true;
  return false;
}

void apply_task_options(const TaskOptions& t, bool ntasks_given, JobRequest& req,
                        const InputLocation& where) {
  const std::optional<std::int64_t> tasks = tasks_per_node(req);  // before -c scales ntasks
  if (t.cpus_per_task.given() && t.cpus_per_gpu.given())
    refuse(t.cpus_per_gpu, where, "give only one of -c/--cpus-per-task and --cpus-per-gpu");
  const bool per_node_gres = !req.gres.empty();
  if (t.cpus_per_task.given()) apply_cpus_per_task(t.cpus_per_task, req, where);
  apply_gpus(t, tasks, req, where);
  if (req.units() && per_node_gres)
    refuse(t.cpus_per_task.given() ? t.cpus_per_task : t.gpus_per_task, where,
           "--gres is per node; with tasks spread as units give --gpus-per-task");
  if (t.cpus_per_gpu.given()) apply_cpus_per_gpu(t.cpus_per_gpu, ntasks_given, req, where);
  apply_memory(t, req, where);
}

}  // namespace hs
