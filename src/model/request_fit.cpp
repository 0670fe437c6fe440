#include "model/request_fit.hpp"

#include <algorithm>
#include <functional>
#include <limits>

#include "model/job_nodes.hpp"

namespace hs {

namespace {

std::string str(std::int64_t v) { return std::to_string(v); }

// -N as a closed range. Slurm: "-N a" alone means exactly a nodes; no -N means any count.
struct NodeRange {
  std::int32_t min = 1;
  std::int32_t max = std::numeric_limits<std::int32_t>::max();
};

NodeRange node_range(const JobRequest& r) {
  NodeRange range;
  if (r.nodes_min > 0) range.min = r.nodes_min;
  if (r.nodes_max > 0)
    range.max = r.nodes_max;
  else if (r.nodes_min > 0)
    range.max = r.nodes_min;
  return range;
}

// Memory a share must carry on node n: the request where memory is modelled, else 0.
std::int64_t share_mem_for(const Node& n, const JobRequest& r) {
  return n.memory_mb > 0 ? r.mem_per_node_mb : 0;
}

std::string limit_text(Time t) { return t == kNoTime ? "UNLIMITED" : str(t) + " s"; }

// The limit a job asked for, or without -t (0) its partition's DefaultTime, else MaxTime, as
// Slurm fills it in; 0 when there is no partition to take one from.
Time limit_with_default(const Partition* p, Time requested) {
  if (requested != 0 || !p) return requested;
  return p->default_time != kNoTime ? p->default_time : p->max_time;
}

// A units job: whole tasks, each on one node, and none of the per-node shapes beside them.
std::optional<std::string> malformed_units(const JobRequest& r, const NodeRange& range) {
  if (r.ntasks % r.task_cores != 0)
    return "ntasks " + str(r.ntasks) + " cores is not a multiple of " + str(r.task_cores) +
           " cores per task";
  if (r.ntasks_per_node > 0) return "tasks per node and units together";
  if (r.exclusive) return "--exclusive with tasks spread as units is not modelled";
  if (r.contiguous) return "--contiguous with tasks spread as units is not modelled";
  if (r.has_gres_range()) return "a gres range per task is not modelled";
  if (r.unit_count() < range.min)
    return str(r.unit_count()) + " tasks is below the minimum node count " + str(range.min);
  return std::nullopt;
}

// Values that make a request meaningless regardless of the cluster.
std::optional<std::string> malformed_reason(const Job& job) {
  const JobRequest& r = job.req;
  if (r.ntasks <= 0) return "ntasks must be positive, got " + str(r.ntasks);
  if (r.nodes_min < 0) return "negative nodes_min " + str(r.nodes_min);
  if (r.nodes_max < 0) return "negative nodes_max " + str(r.nodes_max);
  if (r.nodes_max > 0 && r.nodes_min > r.nodes_max)
    return "node range " + str(r.nodes_min) + "-" + str(r.nodes_max) + " is empty";
  if (r.ntasks_per_node < 0) return "negative ntasks_per_node " + str(r.ntasks_per_node);
  if (r.mem_per_node_mb < 0) return "negative memory " + str(r.mem_per_node_mb);
  if (r.time_limit <= 0) return "no time limit";
  if (job.run_time < 0) return "negative run time " + str(job.run_time);
  for (std::size_t i = 0; i < r.gres.size(); ++i) {
    const GresRequest& g = r.gres[i];
    if (g.type < 0) return "gres '" + g.name + "' is not bound to a cluster gres type";
    if (g.type >= kMaxGresTypes) return "gres '" + g.name + "' has an invalid type index";
    if (g.per_node_min < 0) return "negative gres count for '" + g.name + "'";
    if (g.per_node_max < g.per_node_min)
      return "gres range " + str(g.per_node_min) + "-" + str(g.per_node_max) + " for '" +
             g.name + "' is empty";
    if (!g.kind.empty() && (g.kind_type < 0 || g.kind_type >= kMaxGresTypes))
      return "gres '" + g.kind_name() + "' is not bound to a cluster gres type";
    if (!g.kind.empty() && g.per_node_max != g.per_node_min)
      return "typed gres '" + g.kind_name() + "' with a count range is not modelled";
    for (std::size_t k = 0; k < i; ++k)
      if (r.gres[k].type == g.type) return "gres '" + g.name + "' requested twice";
  }
  const NodeRange range = node_range(r);
  if (r.units()) return malformed_units(r, range);
  if (r.ntasks < range.min)
    return "ntasks " + str(r.ntasks) + " is below the minimum node count " + str(range.min);
  if (r.ntasks_per_node > 0) {
    if (r.ntasks % r.ntasks_per_node != 0)
      return "ntasks " + str(r.ntasks) + " is not a multiple of ntasks_per_node " +
             str(r.ntasks_per_node);
    const std::int32_t n = r.ntasks / r.ntasks_per_node;
    if (n < range.min || n > range.max)
      return "ntasks/ntasks_per_node = " + str(n) + " nodes is outside the node range " +
             str(range.min) + "-" + str(range.max);
  }
  return std::nullopt;
}

// Cores a node must have to take any share of the job.
std::int32_t min_cores_per_node(const JobRequest& r) {
  return r.units() ? r.task_cores : std::max(1, r.ntasks_per_node);
}

// Nodes the job may use at all: in its partition, with enough cores, gres and memory.
std::vector<char> eligible_nodes(const Cluster& cluster, const Job& job) {
  const JobRequest& r = job.req;
  std::vector<char> ok(cluster.nodes.size(), 1);
  if (!cluster.partitions.empty()) {
    std::fill(ok.begin(), ok.end(), 0);
    if (const Partition* p = cluster.find_partition(job.partition))
      for (NodeIndex n : p->nodes) ok[n] = 1;
  }
  const std::int32_t min_cores = min_cores_per_node(r);
  for (std::size_t i = 0; i < cluster.nodes.size(); ++i) {
    const Node& n = cluster.nodes[i];
    if (n.cores < min_cores) ok[i] = 0;
    if (n.memory_mb > 0 && n.memory_mb < r.mem_per_node_mb) ok[i] = 0;
    if (!node_allowed(r, static_cast<NodeIndex>(i))) ok[i] = 0;
    for (const GresRequest& g : r.gres)
      g.for_each_type([&](int t, std::int32_t min, std::int32_t) {
        if (n.gres[t] < min) ok[i] = 0;
      });
  }
  return ok;
}

std::string gres_name(const Cluster& cluster, int type) {
  return type < static_cast<int>(cluster.gres_types.size()) ? cluster.gres_types[type]
                                                            : "gres type " + str(type);
}

std::string count_of(std::int64_t n, const std::string& what) {
  return str(n) + " " + what + (n == 1 ? "" : "s");
}

// The type that limits a gres item on a node: its kind when typed (never more than the
// units of its name), else its name.
int counted_type(const GresRequest& g) { return g.kind_type >= 0 ? g.kind_type : g.type; }

// Why nodes of the job's partition are not eligible, e.g. "of 16 nodes in partition gpu:
// 8 have fewer than 3 gpu, 2 have less than 2000 MB"; empty when all are eligible. A node
// may count under several causes.
std::string ineligible_breakdown(const Cluster& cluster, const Job& job) {
  const JobRequest& r = job.req;
  const Partition* partition =
      cluster.partitions.empty() ? nullptr : cluster.find_partition(job.partition);
  std::vector<NodeIndex> nodes;
  if (partition) {
    nodes = partition->nodes;
  } else {
    for (int i = 0; i < cluster.node_count(); ++i) nodes.push_back(i);
  }
  const std::int32_t min_cores = min_cores_per_node(r);
  std::int64_t few_cores = 0, little_memory = 0, ruled_out = 0;
  std::vector<std::int64_t> few_gres(r.gres.size(), 0);
  for (NodeIndex i : nodes) {
    const Node& n = cluster.nodes[i];
    ruled_out += !node_allowed(r, i);
    few_cores += n.cores < min_cores;
    little_memory += n.memory_mb > 0 && n.memory_mb < r.mem_per_node_mb;
    for (std::size_t g = 0; g < r.gres.size(); ++g)
      few_gres[g] += n.gres[counted_type(r.gres[g])] < r.gres[g].per_node_min;
  }
  std::vector<std::string> causes;
  if (ruled_out) causes.push_back(str(ruled_out) + " are ruled out by -C/-x");
  if (few_cores) causes.push_back(str(few_cores) + " have fewer than " + count_of(min_cores, "core"));
  if (little_memory)
    causes.push_back(str(little_memory) + " have less than " + str(r.mem_per_node_mb) + " MB");
  for (std::size_t g = 0; g < r.gres.size(); ++g)
    if (few_gres[g])
      causes.push_back(str(few_gres[g]) + " have fewer than " + str(r.gres[g].per_node_min) + " " +
                       gres_name(cluster, counted_type(r.gres[g])));
  if (causes.empty()) return "";
  std::string text = "of " + count_of(static_cast<std::int64_t>(nodes.size()), "node") +
                     (partition ? " in partition " + partition->name : "") + ": ";
  for (std::size_t k = 0; k < causes.size(); ++k) text += (k ? ", " : "") + causes[k];
  return text;
}

// Whole tasks of a units job an empty node can hold.
std::int64_t tasks_on_empty_node(const Node& n, const JobRequest& r) {
  std::int64_t tasks = n.cores / r.task_cores;
  for (const GresRequest& g : r.gres)
    g.for_each_type([&](int t, std::int32_t per_task, std::int32_t) {
      if (per_task > 0) tasks = std::min<std::int64_t>(tasks, n.gres[t] / per_task);
    });
  return tasks;
}

// Cores a node can give the job: all of them, exactly ntasks_per_node, or whole tasks.
std::int64_t usable_cores(const Node& n, const JobRequest& r) {
  if (r.units()) return tasks_on_empty_node(n, r) * r.task_cores;
  return r.ntasks_per_node > 0 ? r.ntasks_per_node : n.cores;
}

// Whether `count` nodes picked from `cores` (usable cores per eligible node) can hold the job.
// With ntasks_per_node the node count is fixed; otherwise more nodes only help.
std::optional<std::string> fits_in(std::vector<std::int64_t> cores, const JobRequest& r) {
  const NodeRange range = node_range(r);
  const std::int64_t have = static_cast<std::int64_t>(cores.size());
  if (r.ntasks_per_node > 0) {
    const std::int64_t need = r.ntasks / r.ntasks_per_node;
    if (have < need)
      return "needs " + str(need) + " nodes with " + str(r.ntasks_per_node) +
             " cores each, only " + str(have) + " eligible";
    return std::nullopt;
  }
  if (have < range.min)
    return "needs at least " + count_of(range.min, "node") + ", only " + str(have) + " eligible";
  const std::int64_t most_nodes = r.units() ? r.unit_count() : r.ntasks;
  const std::int64_t use = std::min<std::int64_t>({have, range.max, most_nodes});
  if (use < have)  // only the `use` largest count
    std::nth_element(cores.begin(), cores.begin() + use, cores.end(), std::greater<>());
  std::int64_t total = 0;
  for (std::int64_t i = 0; i < use; ++i) total += cores[i];
  if (total < r.ntasks)
    return "needs " + str(r.ntasks) + " cores, the best " + str(use) +
           " eligible nodes have " + str(total);
  return std::nullopt;
}

// Contiguous case: the best window of consecutive eligible nodes.
std::optional<std::string> fits_contiguous(const Cluster& cluster, const std::vector<char>& ok,
                                           const JobRequest& r) {
  const NodeRange range = node_range(r);
  const std::int64_t want_nodes =
      r.ntasks_per_node > 0 ? r.ntasks / r.ntasks_per_node
                            : std::min<std::int64_t>(range.max, r.ntasks);
  const std::int64_t min_nodes = r.ntasks_per_node > 0 ? want_nodes : range.min;
  std::size_t i = 0;
  while (i < ok.size()) {
    if (!ok[i]) { ++i; continue; }
    std::size_t end = i;
    while (end < ok.size() && ok[end]) ++end;
    // Window of up to want_nodes consecutive nodes inside the run [i, end).
    const std::int64_t len = static_cast<std::int64_t>(end - i);
    const std::int64_t w = std::min(len, want_nodes);
    if (w >= min_nodes) {
      std::int64_t sum = 0;
      for (std::size_t k = i; k < end; ++k) {
        sum += usable_cores(cluster.nodes[k], r);
        if (static_cast<std::int64_t>(k - i) >= w) sum -= usable_cores(cluster.nodes[k - w], r);
        if (static_cast<std::int64_t>(k - i) + 1 >= w && sum >= r.ntasks) return std::nullopt;
      }
    }
    i = end;
  }
  return "no run of consecutive eligible nodes can hold the contiguous job";
}

// A units job's share: a whole number of tasks, each with its gres, and the node's memory.
template <class OnNode>
std::optional<std::string> units_share_violation(const JobRequest& r, const NodeShare& s,
                                                 OnNode on_node) {
  if (s.cores % r.task_cores != 0)
    return on_node(str(s.cores) + " cores is not a whole number of " + str(r.task_cores) +
                   "-core tasks");
  const std::int32_t tasks = s.cores / r.task_cores;
  for (int t = 0; t < kMaxGresTypes; ++t)
    if (s.gres[t] != tasks * r.gres_min(t))
      return on_node("gres " + str(s.gres[t]) + " of type " + str(t) + " for " +
                     count_of(tasks, "task") + " of " + str(r.gres_min(t)));
  return std::nullopt;
}

// Checks one node's share; builds message text only when something is wrong.
std::optional<std::string> share_violation(const Cluster& cluster, const JobRequest& r,
                                           const NodeShare& s) {
  const Node& n = cluster.nodes[s.node];
  auto on_node = [&](const std::string& what) { return what + " on node " + n.name; };
  if (s.cores < 1) return on_node("no cores");
  if (s.cores > n.cores)
    return on_node(str(s.cores) + " cores exceed the node's " + str(n.cores));
  if (r.exclusive && s.cores != n.cores)
    return on_node(str(s.cores) + " cores of " + str(n.cores) + " for an --exclusive job");
  if (r.exclusive && r.ntasks_per_node > n.cores)
    return on_node("fewer cores than ntasks_per_node " + str(r.ntasks_per_node));
  if (!r.exclusive && r.ntasks_per_node > 0 && s.cores != r.ntasks_per_node)
    return on_node(str(s.cores) + " cores, ntasks_per_node is " + str(r.ntasks_per_node));
  if (s.mem_mb != share_mem_for(n, r))
    return on_node("memory " + str(s.mem_mb) + " MB, expected " + str(share_mem_for(n, r)));
  if (r.units())
    if (auto bad = units_share_violation(r, s, on_node)) return bad;
  for (int t = 0; t < kMaxGresTypes; ++t) {
    if (s.gres[t] < 0) return on_node("negative gres");
    if (s.gres[t] > n.gres[t])
      return on_node("gres " + str(s.gres[t]) + " exceeds the node's " + str(n.gres[t]));
    if (!r.units() && (s.gres[t] < r.gres_min(t) || s.gres[t] > r.gres_max(t)))
      return on_node("gres " + str(s.gres[t]) + " of type " + str(t) + " outside the requested " +
                     str(r.gres_min(t)) + "-" + str(r.gres_max(t)));
  }
  return std::nullopt;
}

std::optional<std::string> shape_violation(const Cluster& cluster, const Job& job,
                                           const Allocation& alloc) {
  const JobRequest& r = job.req;
  if (alloc.shares.empty()) return "empty allocation";
  for (std::size_t i = 0; i < alloc.shares.size(); ++i) {
    const NodeIndex n = alloc.shares[i].node;
    if (n < 0 || n >= cluster.node_count()) return "node index " + str(n) + " out of range";
    if (i > 0 && n <= alloc.shares[i - 1].node) return "nodes not ascending or repeated";
  }
  const NodeRange range = node_range(r);
  const int count = alloc.node_count();
  if (count < range.min || count > range.max)
    return str(count) + " nodes outside the requested " + str(range.min) + "-" +
           (range.max == std::numeric_limits<std::int32_t>::max() ? std::string("any")
                                                                  : str(range.max));
  if (r.exclusive ? alloc.total_cores() < r.ntasks : alloc.total_cores() != r.ntasks)
    return str(alloc.total_cores()) + " cores allocated, " + str(r.ntasks) + " requested";
  if (r.contiguous && alloc.shares.back().node - alloc.shares.front().node + 1 != count)
    return "nodes are not contiguous";
  if (!cluster.partitions.empty()) {
    const Partition* p = cluster.find_partition(job.partition);
    if (!p) return "unknown partition '" + job.partition + "'";
    for (const NodeShare& s : alloc.shares)
      if (!std::binary_search(p->nodes.begin(), p->nodes.end(), s.node))
        return "node " + cluster.nodes[s.node].name + " is outside partition " + p->name;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> partition_problem(const Cluster& cluster, const Job& job) {
  if (cluster.partitions.empty()) {
    if (job.partition.empty()) return std::nullopt;
    return "unknown partition '" + job.partition + "' (cluster " + cluster.name +
           " has no partitions)";
  }
  if (cluster.find_partition(job.partition)) return std::nullopt;
  std::string known;
  for (const Partition& p : cluster.partitions) known += (known.empty() ? "" : ", ") + p.name;
  return "unknown partition '" + job.partition + "' (partitions: " + known + ")";
}

std::optional<std::string> max_time_problem(const Partition* p, Time limit) {
  if (!p || p->max_time == kNoTime || limit <= p->max_time) return std::nullopt;
  return "time limit " + limit_text(limit) + " exceeds MaxTime " + limit_text(p->max_time) +
         " of partition " + p->name;
}

bool runs_unlimited(const Cluster& cluster, const Job& job) {
  if (partition_problem(cluster, job)) return false;
  const Partition* p = cluster.find_partition(job.partition);
  return limit_with_default(p, job.req.time_limit) == kNoTime &&
         (!p || p->max_time == kNoTime);
}

namespace {

// Whether the job wrote -N itself (a range its partition gave does not count).
bool node_count_written(const JobRequest& r) {
  return (r.nodes_min > 0 || r.nodes_max > 0) && !r.nodes_from_partition;
}

}  // namespace

std::optional<std::string> partition_node_limit_problem(const Partition& partition, const JobRequest& r) {
  if (!node_count_written(r)) return std::nullopt;
  const NodeRange range = node_range(r);
  return node_limit_problem(partition.name, partition.max_nodes, partition.min_nodes, range.min,
                            range.max);
}

std::optional<std::string> node_limit_problem(const std::string& partition, std::int32_t max_nodes,
                                              std::int32_t min_nodes, std::int32_t need,
                                              std::int32_t most) {
  const std::string of = " partition " + partition + "'s ";
  if (max_nodes > 0 && need > max_nodes)
    return "needs at least " + str(need) + " nodes, above" + of + "MaxNodes " + str(max_nodes) +
           " (Slurm keeps it pending: PartitionNodeLimit)";
  if (most > 0 && min_nodes > 0 && most < min_nodes)
    return "takes at most " + str(most) + " nodes, below" + of + "MinNodes " + str(min_nodes) +
           " (Slurm keeps it pending: PartitionNodeLimit)";
  return std::nullopt;
}

std::optional<std::string> apply_partition_node_limits(const Partition& partition, JobRequest& r) {
  const std::int32_t min_nodes = partition.min_nodes, max_nodes = partition.max_nodes;
  if (min_nodes <= 0 && max_nodes <= 0) return std::nullopt;
  if (auto bad = partition_node_limit_problem(partition, r)) return bad;
  if (!node_count_written(r)) {
    r.nodes_from_partition = true;
    r.nodes_min = min_nodes;
    // nodes_max 0 with nodes_min k would mean exactly k: MinNodes alone leaves any count above.
    const auto all = std::max(static_cast<std::int32_t>(partition.nodes.size()), r.nodes_min);
    r.nodes_max = max_nodes > 0 ? max_nodes : (r.nodes_min > 0 ? all : 0);
    return std::nullopt;
  }
  // Only what the limits change: "-N k" as nodes_max 0 stays as written.
  const NodeRange range = node_range(r);
  if (range.min < min_nodes) r.nodes_min = min_nodes;
  if (max_nodes > 0 && range.max > max_nodes) r.nodes_max = max_nodes;
  return std::nullopt;
}

std::optional<std::string> bind_to_cluster(const Cluster& cluster, Job& job) {
  for (GresRequest& g : job.req.gres) {
    g.type = cluster.gres_index(g.name);
    if (g.type < 0) return "unknown gres type '" + g.name + "'";
    g.kind_type = g.kind.empty() ? -1 : cluster.gres_index(g.kind_name());
    if (!g.kind.empty() && g.kind_type < 0)
      return "unknown gres type '" + g.kind_name() + "' (no node has gres " + g.name +
             " of type " + g.kind + ")";
  }
  if (auto bad = partition_problem(cluster, job)) return bad;
  const Partition* p = cluster.find_partition(job.partition);  // null: no partitions
  if (p)
    if (auto bad = apply_partition_node_limits(*p, job.req)) return bad;
  if (auto bad = bind_job_nodes(cluster, cluster.partitions.empty() ? nullptr : p, job.req))
    return bad;
  Time& limit = job.req.time_limit;
  limit = limit_with_default(p, limit);
  if (limit == 0) return "no time limit";
  if (auto bad = max_time_problem(p, limit)) return bad;
  if (limit == kNoTime) limit = kUnlimitedPlanningTime;
  return std::nullopt;
}

namespace {

// never_runnable_reason once the request is known to be well formed.
std::optional<std::string> placement_reason(const Cluster& cluster, const Job& job) {
  if (auto bad = partition_problem(cluster, job)) return bad;
  const std::vector<char> ok = eligible_nodes(cluster, job);
  for (NodeIndex n : job.req.node_rules().required)
    if (!ok[n]) return "-w node " + cluster.nodes[n].name + " cannot hold the job's share";
  std::optional<std::string> reason;
  if (job.req.contiguous) {
    reason = fits_contiguous(cluster, ok, job.req);
  } else {
    std::vector<std::int64_t> cores;
    for (std::size_t i = 0; i < ok.size(); ++i)
      if (ok[i]) cores.push_back(usable_cores(cluster.nodes[i], job.req));
    reason = fits_in(std::move(cores), job.req);
  }
  if (reason) {
    const std::string why = ineligible_breakdown(cluster, job);
    if (!why.empty()) *reason += " (" + why + ")";
  }
  return reason;
}

}  // namespace

std::optional<std::string> never_runnable_reason(const Cluster& cluster, const Job& job) {
  if (auto bad = malformed_reason(job)) return bad;
  return placement_reason(cluster, job);
}

std::optional<std::string> RunnableMemo::reason(const Job& job) {
  if (auto bad = malformed_reason(job)) return bad;
  return known_.get(job, [&](const Job& j) { return placement_reason(cluster_, j); });
}

std::optional<std::string> allocation_violates_request(const Cluster& cluster, const Job& job,
                                                       const Allocation& alloc) {
  if (auto bad = shape_violation(cluster, job, alloc)) return bad;
  for (const NodeShare& s : alloc.shares)
    if (auto bad = share_violation(cluster, job.req, s)) return bad;
  if (auto bad = node_rules_violation(cluster, job.req, alloc)) return bad;
  if (job.req.units()) return std::nullopt;  // gres follow each node's task count
  // Equal gres per node on every node used (a range picks one count for the whole job).
  for (int t = 0; t < kMaxGresTypes; ++t)
    for (const NodeShare& s : alloc.shares)
      if (s.gres[t] != alloc.shares.front().gres[t])
        return "gres of type " + str(t) + " differs between nodes";
  return std::nullopt;
}

}  // namespace hs
