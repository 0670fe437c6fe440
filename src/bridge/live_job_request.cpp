#include "bridge/live_job_request.hpp"

#include <algorithm>
#include <exception>

#include "bridge/job_lifecycle.hpp"
#include "model/node_constraint.hpp"
#include "util/error.hpp"

namespace hs::bridge {

namespace {

const InputLocation kListing{"scontrol show job", 0};

// "hetsched:gpu=1-3[,mic=0-1]" in the job's comment: per-node gres ranges.
void apply_comment_ranges(const std::string& comment, Job& job) {
  const std::string prefix = "hetsched:";
  if (comment.rfind(prefix, 0) != 0) return;
  std::size_t pos = prefix.size();
  while (pos < comment.size()) {
    std::size_t comma = comment.find(',', pos);
    if (comma == std::string::npos) comma = comment.size();
    const std::string item = comment.substr(pos, comma - pos);
    pos = comma + 1;
    const std::size_t eq = item.find('='), dash = item.find('-');
    if (eq == std::string::npos || dash == std::string::npos || dash < eq)
      throw InputError(kListing, "Comment", comment,
                       "job " + std::to_string(job.id) + ": expected hetsched:NAME=MIN-MAX");
    const std::string name = item.substr(0, eq);
    std::int32_t lo = 0, hi = 0;
    try {
      lo = std::stoi(item.substr(eq + 1, dash - eq - 1));
      hi = std::stoi(item.substr(dash + 1));
    } catch (const std::exception&) {
      lo = hi = -1;
    }
    if (lo < 0 || hi < lo)
      throw InputError(kListing, "Comment", comment,
                       "job " + std::to_string(job.id) + ": range must be MIN-MAX with 0 <= MIN <= MAX");
    auto it = std::find_if(job.req.gres.begin(), job.req.gres.end(),
                           [&](const GresRequest& g) { return g.name == name; });
    if (it == job.req.gres.end()) it = job.req.gres.insert(job.req.gres.end(), GresRequest{name});
    it->per_node_min = lo;
    it->per_node_max = hi;
  }
}

// The job's node count when the user fixed it (-N k or -N k-k), else 0. A single NumNodes
// value without a dash is Slurm's estimate, not the user's.
std::int32_t fixed_node_count(const LiveJob& live) {
  if (live.num_nodes_text.find('-') == std::string::npos || live.nodes_min != live.nodes_max) return 0;
  return live.nodes_min;
}

}  // namespace

std::int64_t memory_per_node_mb(const LiveJob& live, const LiveMemory& memory) {
  if (!memory.consumable) return 0;
  if (live.min_mem_per_node_mb > 0) return live.min_mem_per_node_mb;
  if (live.min_mem_per_node_mb == 0) return memory.whole_node_mb;
  if (live.min_mem_per_cpu_mb <= 0) return 0;
  std::int64_t cpus_on_one_node = 0;
  if (live.ntasks_per_node > 0) {
    cpus_on_one_node = std::int64_t{live.ntasks_per_node} * live.cpus_per_task;
  } else {  // every other node of the job holds at least one CPU
    cpus_on_one_node = std::min<std::int64_t>(memory.largest_node_cores,
                                              live.cpus - std::max(0, live.nodes_min - 1));
  }
  return std::min(live.min_mem_per_cpu_mb * std::max<std::int64_t>(1, cpus_on_one_node),
                  memory.largest_node_mb);
}

std::string unmodelled_tres(const LiveJob& live) {
  if (!live.other_tres.empty()) return live.other_tres;
  if (!live.gres_per_task.empty() && (live.ntasks_per_node > 0 || live.exclusive || live.contiguous))
    return "--gpus-per-task with --ntasks-per-node, --exclusive or --contiguous";
  if (live.gres_per_job.empty()) return "";
  const std::int32_t k = fixed_node_count(live);
  for (const auto& [name, count] : live.gres_per_job)
    if (k == 0 || count % k != 0) return "--gpus=" + std::to_string(count) + " without a node count that divides it";
  return "";
}

LiveMemory LiveMemory::of(const Cluster& cluster, bool consumable) {
  LiveMemory m;
  m.consumable = consumable;
  for (const Node& n : cluster.nodes) {
    m.largest_node_cores = std::max(m.largest_node_cores, n.cores);
    if (n.memory_mb <= 0) continue;
    m.largest_node_mb = std::max(m.largest_node_mb, n.memory_mb);
    m.whole_node_mb = m.whole_node_mb == 0 ? n.memory_mb : std::min(m.whole_node_mb, n.memory_mb);
  }
  if (m.largest_node_mb == 0) m.consumable = false;  // the cluster file gives no RealMemory
  return m;
}

std::string planned_partition(const LiveJob& live, const std::string& managed) {
  return !managed.empty() && in_partition(live.partition, managed) ? managed
                                                                    : live.partition.substr(0, live.partition.find(','));
}

Job job_from_live(const LiveJob& live, const LiveMemory& memory, const std::string& managed) {
  Job job;
  job.id = live.id;
  job.name = "slurm-" + std::to_string(live.id);
  job.partition = planned_partition(live, managed);
  job.submit = live.submit_epoch;
  JobRequest& r = job.req;
  r.ntasks = live.cpus;
  r.nodes_min = live.nodes_min;
  r.nodes_max = live.nodes_max;
  r.ntasks_per_node = live.ntasks_per_node * live.cpus_per_task;
  r.contiguous = live.contiguous;
  r.exclusive = live.exclusive;
  if (!live.features.empty() || !live.exclude_nodes.empty()) {  // -C, -x
    NodeRules& rules = r.edit_node_rules();
    // A form the model does not know stays empty here: consider_queued hands such jobs to Slurm.
    if (parse_node_constraint(live.features, rules.constraint)) rules.constraint = {};
    rules.exclude = live.exclude_nodes;
  }
  if (!live.req_nodes.empty()) r.edit_node_rules().nodelist = live.req_nodes;  // -w
  r.time_limit = live.time_limit == kNoTime ? 0 : live.time_limit;
  auto add = [&r](const std::string& name, std::int32_t count) {
    const std::size_t colon = name.find(':');
    r.gres.emplace_back(name.substr(0, colon), -1, count, count,
                        colon == std::string::npos ? "" : name.substr(colon + 1));
  };
  for (const auto& [name, count] : live.gres_per_node) add(name, count);
  // -n T -c C (or --gpus-per-task) without a per-node task count: T whole tasks of C cores,
  // each task's gres on its node (the model's units).
  const bool per_task = live.cpus_per_task > 1 || !live.gres_per_task.empty();
  if (per_task && live.ntasks_per_node == 0 && !live.exclusive && !live.contiguous) {
    r.task_cores = std::max(1, live.cpus_per_task);
    for (const auto& [name, count] : live.gres_per_task) add(name, count);
  }
  // --gpus=N on exactly k nodes: N/k on each (slurms_own() hands every other form to Slurm).
  if (const std::int32_t k = fixed_node_count(live); k > 0)
    for (const auto& [name, count] : live.gres_per_job)
      if (count % k == 0) add(name, count / k);
  apply_comment_ranges(user_comment(live.comment), job);
  r.mem_per_node_mb = memory_per_node_mb(live, memory);
  job.run_time = r.time_limit;  // unknown before the job ends; schedulers see limits only
  return job;
}

}  // namespace hs::bridge
