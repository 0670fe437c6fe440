// Slurm 22.05 select/cons_tres node choice (choose_nodes, _eval_nodes, _eval_nodes_topo),
// re-expressed for this project's model. docs/slurm-model.md lists what is simplified.
#include "policy/slurm/select.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <functional>
#include <limits>
#include <span>
#include <vector>

#include "model/job_nodes.hpp"

namespace hs::slurm {

namespace {

// What the job asks, in the terms cons_tres works with.
struct Needs {
  std::int32_t cpus = 0;        // min_cpus = ntasks
  std::int32_t min_nodes = 1;
  std::int32_t max_nodes = 0;
  std::int32_t req_nodes = 1;   // the node count aimed at (-N a-b aims at b)
  std::int32_t per_node = 0;    // --ntasks-per-node: exactly this many CPUs per node
  std::int32_t task_cores = 0;  // units: CPUs of one task (JobRequest::task_cores), else 0
  std::int32_t eval_cap = 0;    // the most CPUs _eval_nodes counts per node, 0 = no cap
  GresCounts gres{};            // per node (the minimum of a range); per task for units
  std::int64_t mem = 0;         // per node, 0 = not requested
  bool contiguous = false;
  bool exclusive = false;       // --exclusive: idle nodes only, each taken whole
  bool any_gres = false;
  std::array<std::int8_t, kMaxGresTypes> asked{};  // types with gres[t] > 0 (asked_count)
  std::int32_t asked_count = 0;
  std::span<const std::uint8_t> bias;  // SelectOptions::gpu_bias, for jobs without gres
  std::span<const std::int32_t> weights;  // SelectOptions::weights (may be empty)
  std::span<const NodeIndex> required;  // -w: picked first, all of them
  std::span<const Node> nodes;  // the cluster's, for their CPUs per core; empty: 1 on every node
};

// _select_cores fixes a job's tasks per node when its task count (sent only with -n) is
// 1, or equals an exact -N, or the job may use one node; gres_select_filter_sock_core then
// caps a gres job's usable CPUs on every node at those tasks (one CPU each, as without
// -c), so _eval_nodes weighs each node by that cap, not by its free CPUs.
std::int32_t gres_cpu_cap_per_node(const JobRequest& r) {
  if (r.units() || r.ntasks_per_node > 0 || r.ntasks_implied) return 0;
  if (r.nodes_from_partition) return r.ntasks == 1 ? 1 : 0;  // the job's own -N was not given
  if (r.nodes_max == 1) return r.ntasks;
  if (r.ntasks == 1 || (r.ntasks == r.nodes_min && r.ntasks == r.nodes_max)) return 1;
  return 0;
}

Needs needs_of(const Job& job, int node_count) {
  const JobRequest& r = job.req;
  Needs n;
  n.cpus = cpus_needed(job);
  n.per_node = r.ntasks_per_node;
  n.mem = r.mem_per_node_mb;
  n.contiguous = r.contiguous;
  n.exclusive = r.exclusive;
  n.task_cores = r.task_cores;
  n.required = r.node_rules().required;
  for (const GresRequest& g : r.gres)
    g.for_each_type([&](int t, std::int32_t min, std::int32_t) {
      if (t >= 0 && t < kMaxGresTypes) n.gres[t] = min, n.any_gres = n.any_gres || min > 0;
    });
  for (int t = 0; t < kMaxGresTypes; ++t)
    if (n.gres[t] > 0) n.asked[n.asked_count++] = static_cast<std::int8_t>(t);
  if (n.per_node > 0) {
    // cons_common raises min_nodes to ceil(ntasks / ntasks_per_node).
    const std::int32_t nodes = (n.cpus + n.per_node - 1) / n.per_node;
    n.min_nodes = n.max_nodes = n.req_nodes = std::max(nodes, r.nodes_min);
    return n;
  }
  n.min_nodes = std::max(1, r.nodes_min);
  n.max_nodes = r.nodes_max > 0 ? r.nodes_max : (r.nodes_min > 0 ? r.nodes_min : node_count);
  // select_nodes aims at the job's own maximum; without -N at the fewest nodes.
  n.req_nodes = r.nodes_max > 0 && !r.nodes_from_partition ? r.nodes_max : n.min_nodes;
  // choose_nodes: never more nodes than tasks.
  const std::int32_t tasks = r.units() ? r.unit_count() : n.cpus;
  if (n.max_nodes > tasks) n.max_nodes = std::max(tasks, n.min_nodes);
  n.req_nodes = std::min(n.req_nodes, n.max_nodes);
  // -w: at least the listed nodes (bind_to_cluster made sure -N allows that many).
  const auto listed = static_cast<std::int32_t>(n.required.size());
  n.min_nodes = std::max(n.min_nodes, listed);
  n.req_nodes = std::max(n.req_nodes, listed);
  n.max_nodes = std::max(n.max_nodes, listed);
  return n;
}

// _enough_nodes: with a node range, a set may hold fewer than the aimed-at count.
bool enough_nodes(std::int32_t avail, std::int32_t rem, const Needs& n) {
  const std::int32_t needed = n.req_nodes > n.min_nodes ? rem + n.min_nodes - n.req_nodes : rem;
  return avail >= needed;
}

// The nodes that offer the job something, ascending, with their offers (all > 0).
struct Offers {
  std::vector<NodeIndex> node;
  std::vector<std::int32_t> cpus;
  std::vector<std::int32_t> drop_at;  // choose_nodes' retries only (fill_drop_counts)
  void clear() { node.clear(), cpus.clear(), drop_at.clear(); }
};

// Tracks what is still needed while nodes are added (rem_cpus, rem_nodes, ...).
struct Progress {
  std::int32_t rem_cpus, rem_max_cpus, rem_nodes, min_rem_nodes, max_nodes;
  bool done() const { return rem_nodes <= 0 && rem_cpus <= 0; }
};

// How a flat evaluation failed, for choose_nodes' retries (the same offers less some
// dropped ones). Always: the -w nodes alone fail it, so every retry fails. FirstSet: it
// failed while walking the first set it picked; a retry that drops none of that set's
// nodes and picks it first again walks it alike and fails no later (the hopeless bound
// only tightens as the largest offer can only fall).
enum class KnownFailure { None, Always, FirstSet };

// Scratch space reused across calls: select runs thousands of times per scheduling pass.
// avail and taken are per node but only the loaded nodes are ever non-zero, so an
// evaluation costs the offering nodes, not the cluster.
struct Workspace {
  std::vector<std::int32_t> avail;   // CPUs the job could use per node (0 = unusable)
  std::vector<char> taken;
  std::vector<NodeIndex> loaded;     // the nodes whose avail was set by the last load
  std::int32_t most_avail = 0;       // the largest offer loaded
  std::vector<NodeIndex> picked;     // in the order Slurm adds them
  std::vector<std::int32_t> start, end, cpus, nodes;  // consecutive node sets
  std::vector<std::int64_t> weight;                   // the sets' scheduling weight
  std::vector<std::int32_t> sw_count, sw_dist;
  std::vector<char> in_top;
  // Jobs that need full offers (choose_full_offers): the offering nodes still in, and per
  // set (first node in `start`) its leading full nodes, the first full node after a
  // partial one (-1 = none), and its smallest partial offer.
  struct ScanNode {
    NodeIndex node;
    std::int32_t cpus;
    std::int64_t weight;
  };
  std::vector<ScanNode> scan;
  std::vector<std::int32_t> lead;
  std::vector<NodeIndex> full_after;
  std::vector<std::int32_t> least_partial;
  // A --contiguous job found no consecutive set that can hold it. Dropping nodes only
  // splits or shrinks sets, so choose_nodes' retries cannot succeed either.
  bool no_contiguous_set = false;
  // Why the last flat evaluation failed, when choose_nodes' retries can tell without
  // evaluating again (note_first_set_failure).
  KnownFailure known = KnownFailure::None;
  NodeIndex failed_first = 0, failed_last = 0;  // the set of KnownFailure::FirstSet
  bool first_set_stays = false;  // FirstSet: it is picked first whatever else drops
  Progress at_first_pick{};      // FirstSet: the progress it was picked with
};

Workspace& workspace() {
  thread_local Workspace ws;
  return ws;
}

// Units: the CPUs of the whole tasks a node can take, each with its cores and gres there.
std::int32_t units_offer(const NodeFree& f, const Needs& n) {
  std::int32_t tasks = f.cores / n.task_cores;
  for (int t = 0; t < kMaxGresTypes; ++t)
    if (n.gres[t] > 0) tasks = std::min(tasks, f.gres[t] / n.gres[t]);
  return tasks * n.task_cores;
}

// Free CPUs a node offers the job (0 when it lacks cores, gres or memory, or is masked).
std::int32_t node_offer(const Node& node, const NodeFree& f, const Needs& n) {
  if (n.task_cores > 0) {
    if (n.mem > 0 && node.memory_mb > 0 && f.mem_mb < n.mem) return 0;
    return units_offer(f, n);
  }
  if (n.exclusive && f.cores < node.cores) return 0;  // someone runs there
  if (f.cores < std::max(1, n.per_node)) return 0;
  if (n.mem > 0 && node.memory_mb > 0 && f.mem_mb < n.mem) return 0;
  for (std::int32_t k = 0; k < n.asked_count; ++k)  // free counts are never negative
    if (f.gres[n.asked[k]] < n.gres[n.asked[k]]) return 0;
  return f.cores;
}

Progress progress_of(const Needs& n) {
  const std::int32_t rem_nodes = std::max(n.min_nodes, n.req_nodes);
  return {n.cpus, n.cpus, rem_nodes, n.min_nodes, n.max_nodes};
}

std::int32_t cpus_per_core(const Needs& n, NodeIndex i) {
  return n.nodes.empty() ? 1 : n.nodes[i].cpus_per_core;
}

// The CPUs _cpus_to_use keeps on node i for every node still to add: one core's
// (common_cpus_per_core), or one task's for units.
std::int32_t kept_per_later_node(const Needs& n, NodeIndex i) {
  return std::max({1, cpus_per_core(n, i), n.task_cores});
}

// _cpus_to_use: all free CPUs of node i, capped so every node still to add keeps its share.
std::int32_t cpus_to_use(std::int32_t avail, const Progress& p, const Needs& n, NodeIndex i) {
  if (n.per_node > 0) return n.per_node;
  if (n.exclusive) return avail;  // whole_node: all of it
  const std::int32_t cap = p.rem_max_cpus - std::max(p.min_rem_nodes - 1, 0) * kept_per_later_node(n, i);
  if (n.task_cores > 0) {  // whole tasks, at least one
    const std::int32_t c = n.task_cores;
    return avail > cap ? std::max(cap / c * c, c) : avail;
  }
  return avail > cap ? std::max(cap, 1) : avail;
}

void advance(Progress& p, std::int32_t use) {
  p.rem_cpus -= use;
  p.rem_max_cpus -= use;
  --p.rem_nodes;
  --p.min_rem_nodes;
  --p.max_nodes;
}

void add_node(Workspace& ws, NodeIndex i, Progress& p, const Needs& n) {
  const std::int32_t use = cpus_to_use(ws.avail[i], p, n, i);
  ws.taken[i] = 1;
  ws.picked.push_back(i);
  advance(p, use);
}

// A node adds at most the largest offer, so once the CPUs still needed exceed that times
// the nodes still allowed, the evaluation can only fail: it may stop there.
bool hopeless(const Workspace& ws, const Progress& p) {
  return p.rem_cpus > static_cast<std::int64_t>(std::max(p.max_nodes, 0)) * ws.most_avail;
}

bool succeeded(const Progress& p, const Needs& n) {
  return p.rem_cpus <= 0 && enough_nodes(0, p.rem_nodes, n);
}

// The scheduling weight _eval_nodes compares: the configured weight above a low byte that
// GPU jobs' tests lower (gpu_bias.hpp).
std::int64_t set_weight(const Cluster& cluster, const Needs& n, NodeIndex i) {
  const std::int32_t configured = n.weights.empty() ? cluster.nodes[i].weight : n.weights[i];
  return static_cast<std::int64_t>(configured) * 256 + (n.bias.empty() ? 0xff : 0xff - n.bias[i]);
}

// Splits the usable nodes into runs of consecutive nodes (broken by unusable nodes and,
// unless --contiguous, by a change of scheduling weight). Only the loaded nodes (ascending,
// all offering) are visited: a gap in their indices is an unusable node.
// `avail(k, i)` = the offer of the k-th node of `nodes`, node i.
template <typename Avail>
void build_sets_over(const Cluster& cluster, Workspace& ws, const Needs& n,
                     std::span<const NodeIndex> nodes, Avail&& avail) {
  ws.start.clear(), ws.end.clear(), ws.cpus.clear(), ws.nodes.clear(), ws.weight.clear();
  const bool contiguous = n.contiguous;
  bool open = false;
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    const NodeIndex i = nodes[k];
    if (open && ws.end.back() != i - 1) open = false;
    const std::int64_t w = set_weight(cluster, n, i);
    if (open && !contiguous && w != ws.weight.back()) open = false;
    if (!open) {
      ws.start.push_back(i), ws.end.push_back(i), ws.cpus.push_back(0), ws.nodes.push_back(0);
      ws.weight.push_back(w);
      open = true;
    }
    ws.cpus.back() += avail(k, i);
    ++ws.nodes.back();
    ws.end.back() = i;
  }
}

void build_sets(const Cluster& cluster, Workspace& ws, const Needs& n) {
  build_sets_over(cluster, ws, n, ws.loaded, [&](std::size_t, NodeIndex i) { return ws.avail[i]; });
}

// The set _eval_nodes takes next, or -1. Reproduces the source's order of tests,
// including its quirk: a set that cannot hold the job but has more CPUs replaces one
// that can.
int pick_set(const Workspace& ws, const Progress& p, const Needs& n, bool& sufficient_out) {
  int best = -1;
  std::int32_t best_cpus = 0;
  std::int64_t best_weight = 0;
  bool best_sufficient = false;
  for (std::size_t i = 0; i < ws.nodes.size(); ++i) {
    if (ws.nodes[i] == 0) continue;
    const bool sufficient = ws.cpus[i] >= p.rem_cpus && enough_nodes(ws.nodes[i], p.rem_nodes, n);
    bool new_best = best < 0 || ws.weight[i] < best_weight;
    if (!new_best && ws.weight[i] == best_weight &&
        ((sufficient && !best_sufficient) || (sufficient && ws.cpus[i] < best_cpus) ||
         (!sufficient && ws.cpus[i] > best_cpus)))
      new_best = true;
    if (!new_best && !best_sufficient && n.contiguous && sufficient) new_best = true;
    if (new_best) {
      best = static_cast<int>(i);
      best_cpus = ws.cpus[i];
      best_weight = ws.weight[i];
      best_sufficient = sufficient;
    }
  }
  sufficient_out = best_sufficient;
  return best;
}

// When at most one more node is needed, the node with the fewest free CPUs that still
// covers the rest; the set's other nodes are then left out.
void keep_best_single_node(Workspace& ws, int first, int last, const Progress& p) {
  int best = -1;
  for (int i = first; i <= last; ++i) {
    if (ws.taken[i] || ws.avail[i] < p.rem_cpus) continue;
    if (best < 0 || ws.avail[i] < ws.avail[best]) {
      best = i;
      if (ws.avail[i] == p.rem_cpus) break;
    }
  }
  if (best < 0) return;
  for (int i = first; i <= last; ++i)  // a -w node already taken keeps its offer
    if (i != best && !ws.taken[i]) ws.avail[i] = 0;
}

// True when no consecutive set could hold what is still needed (pick_set's weight rule
// can pick an insufficient set over a sufficient one, so its answer is not enough).
bool no_set_suffices(const Workspace& ws, const Progress& p, const Needs& n) {
  for (std::size_t i = 0; i < ws.nodes.size(); ++i)
    if (ws.nodes[i] > 0 && ws.cpus[i] >= p.rem_cpus && enough_nodes(ws.nodes[i], p.rem_nodes, n))
      return false;
  return true;
}

// _eval_nodes: the -w nodes come first, every one of them; false when one cannot serve.
bool add_required(Workspace& ws, Progress& p, const Needs& n) {
  for (NodeIndex i : n.required) {
    if (ws.avail[i] <= 0) return false;
    add_node(ws, i, p, n);
  }
  return true;
}

// True when a set of weight `w` could hold what is still needed.
bool some_set_suffices(const Workspace& ws, const Progress& p, const Needs& n, std::int64_t w) {
  for (std::size_t i = 0; i < ws.nodes.size(); ++i)
    if (ws.weight[i] == w && ws.nodes[i] > 0 && ws.cpus[i] >= p.rem_cpus &&
        enough_nodes(ws.nodes[i], p.rem_nodes, n))
      return true;
  return false;
}

// The evaluation failed (hopeless) while walking its first picked set s, picked with
// progress `at_pick`. When no set of s's weight could hold the job (not --contiguous),
// pick_set took the first set of that weight with the most CPUs; dropping nodes outside s
// only shrinks or splits the other sets (none becomes sufficient, none gains CPUs, no
// lower weight appears), so s stays the first pick (first_set_stays).
void note_first_set_failure(Workspace& ws, int s, const Progress& at_pick, const Needs& n) {
  ws.known = KnownFailure::FirstSet;
  ws.failed_first = ws.start[s], ws.failed_last = ws.end[s];
  ws.at_first_pick = at_pick;
  ws.first_set_stays = !n.contiguous && !some_set_suffices(ws, at_pick, n, ws.weight[s]);
}

bool eval_flat(const Cluster& cluster, Workspace& ws, const Needs& n) {
  build_sets(cluster, ws, n);
  Progress p = progress_of(n);
  // The -w nodes and the largest offer only get worse in a retry: it fails the same way.
  if (!add_required(ws, p, n) || hopeless(ws, p)) {
    ws.known = KnownFailure::Always;
    return false;
  }
  if (p.done()) return succeeded(p, n);
  for (bool first_pick = true; p.max_nodes > 0; first_pick = false) {
    bool sufficient = false;
    const int s = pick_set(ws, p, n, sufficient);
    if (s < 0) break;
    if (n.contiguous && !sufficient) {  // no hole large enough
      ws.no_contiguous_set = ws.picked.empty() && no_set_suffices(ws, p, n);
      break;
    }
    const Progress at_pick = p;
    const int first = ws.start[s], last = ws.end[s];
    if (p.rem_nodes <= 1) keep_best_single_node(ws, first, last, p);
    for (int i = first; i <= last; ++i) {
      if (p.max_nodes == 0 || p.done()) break;
      if (ws.taken[i] || ws.avail[i] <= 0) continue;
      if (p.max_nodes == 1 && ws.avail[i] < p.rem_cpus) continue;
      add_node(ws, i, p, n);
      if (!hopeless(ws, p)) continue;
      if (first_pick) note_first_set_failure(ws, s, at_pick, n);
      return false;
    }
    if (p.done()) return true;
    ws.cpus[s] = ws.nodes[s] = 0;
  }
  return succeeded(p, n);
}

// ---- topology/tree (_eval_nodes_topo) ----

std::int32_t depth_of(const SwitchTree& t, std::int32_t s) {
  std::int32_t d = 0;
  while (t.switches[s].parent >= 0) s = t.switches[s].parent, ++d;
  return d;
}

// Hops between two switches of the tree.
std::int32_t switch_distance(const SwitchTree& t, std::int32_t a, std::int32_t b) {
  std::int32_t da = depth_of(t, a), db = depth_of(t, b), hops = 0;
  while (da > db) a = t.switches[a].parent, --da, ++hops;
  while (db > da) b = t.switches[b].parent, --db, ++hops;
  while (a != b) {
    a = t.switches[a].parent, b = t.switches[b].parent;
    if (a < 0 || b < 0) return std::numeric_limits<std::int32_t>::max() / 4;  // disjoint
    hops += 2;
  }
  return hops;
}

std::int32_t parent_or_self(const SwitchTree& t, std::int32_t s) {
  return t.switches[s].parent >= 0 ? t.switches[s].parent : s;
}

// _topo_compare_switches: 1 when i is the better leaf, -1 when j is, 0 when equal.
int compare_switches(const SwitchTree& t, const std::vector<std::int32_t>& cnt, std::int32_t i,
                     std::int32_t j, std::int32_t rem_nodes) {
  while (true) {
    const bool i_fit = cnt[i] >= rem_nodes, j_fit = cnt[j] >= rem_nodes;
    if (i_fit && j_fit) {
      if (cnt[i] < cnt[j]) return 1;
      if (cnt[i] > cnt[j]) return -1;
      break;
    }
    if (i_fit) return 1;
    if (j_fit) return -1;
    const std::int32_t pi = parent_or_self(t, i), pj = parent_or_self(t, j);
    if ((pi != i || pj != j) && pi != pj) {
      i = pi, j = pj;
      continue;
    }
    break;
  }
  if (cnt[i] != cnt[j]) return cnt[i] > cnt[j] ? 1 : -1;
  if (t.switches[i].level != t.switches[j].level)
    return t.switches[i].level < t.switches[j].level ? 1 : -1;
  return 0;
}

// The highest-level switch with enough usable nodes below it (22.05's "top switch").
int highest_top_switch(const SwitchTree& t, const Workspace& ws, const Progress& p,
                       const Needs& n) {
  int top = -1;
  for (std::size_t s = 0; s < t.switches.size(); ++s) {
    if (!enough_nodes(ws.sw_count[s], p.rem_nodes, n)) continue;
    if (top < 0 || t.switches[s].level >= t.switches[top].level) top = static_cast<int>(s);
  }
  return top;
}

// Slurm 2.x: the lowest-level switch whose free nodes and CPUs hold the job; at equal
// level the one with fewer free nodes.
int lowest_top_switch(const SwitchTree& t, const Workspace& ws, const Progress& p,
                      const Needs& n) {
  int top = -1;
  for (std::size_t s = 0; s < t.switches.size(); ++s) {
    if (!enough_nodes(ws.sw_count[s], p.rem_nodes, n)) continue;
    std::int64_t cpus = 0;
    for (NodeIndex i : t.switches[s].nodes) cpus += ws.avail[i];
    if (cpus < p.rem_cpus) continue;
    const int i = static_cast<int>(s);
    if (top < 0 || t.switches[i].level < t.switches[top].level ||
        (t.switches[i].level == t.switches[top].level && ws.sw_count[i] < ws.sw_count[top]))
      top = i;
  }
  return top;
}

bool eval_topo(const Cluster& cluster, Workspace& ws, const Needs& n, bool lowest) {
  const SwitchTree& t = *cluster.topology;
  const std::size_t sw = t.switches.size();
  Progress p = progress_of(n);
  ws.sw_count.assign(sw, 0);
  for (std::size_t s = 0; s < sw; ++s)
    for (NodeIndex i : t.switches[s].nodes) ws.sw_count[s] += ws.avail[i] > 0;
  const int top = lowest ? lowest_top_switch(t, ws, p, n) : highest_top_switch(t, ws, p, n);
  if (top < 0) return false;
  // Only nodes below the top switch remain; they must hold the job's CPUs and nodes.
  ws.in_top.assign(ws.avail.size(), 0);
  std::int64_t cpus = 0;
  std::int32_t nodes = 0;
  for (NodeIndex i : t.switches[top].nodes)
    if (ws.avail[i] > 0) ws.in_top[i] = 1, cpus += ws.avail[i], ++nodes;
  if (cpus < p.rem_cpus || !enough_nodes(nodes, p.rem_nodes, n)) return false;
  for (std::size_t s = 0; s < sw; ++s) {
    ws.sw_count[s] = 0;
    for (NodeIndex i : t.switches[s].nodes) ws.sw_count[s] += ws.in_top[i];
  }
  ws.sw_dist.assign(sw, 0);
  std::int32_t prev_rem_nodes = p.rem_nodes + 1;
  while (prev_rem_nodes != p.rem_nodes) {
    prev_rem_nodes = p.rem_nodes;
    int best = -1;
    for (std::size_t s = 0; s < sw; ++s) {
      if (!t.switches[s].children.empty() || ws.sw_count[s] == 0) continue;
      const int i = static_cast<int>(s);
      if (best < 0) {
        best = i;
        continue;
      }
      const int cmp = compare_switches(t, ws.sw_count, i, best, p.rem_nodes);
      if ((ws.sw_dist[i] < ws.sw_dist[best] && cmp >= 0) ||
          (ws.sw_dist[i] == ws.sw_dist[best] && cmp > 0))
        best = i;
    }
    if (best < 0) break;
    for (std::size_t s = 0; s < sw; ++s)
      ws.sw_dist[s] += switch_distance(t, best, static_cast<std::int32_t>(s));
    for (NodeIndex i : t.switches[best].nodes) {
      if (p.max_nodes <= 0) break;
      if (!ws.in_top[i] || ws.taken[i]) continue;
      add_node(ws, i, p, n);
      if (p.done()) return true;
      if (hopeless(ws, p)) return false;
    }
    ws.sw_count[best] = 0;
  }
  return p.min_rem_nodes <= 0 && p.rem_cpus <= 0;
}

// ---- choose_nodes: one evaluation, then retries without the smallest nodes ----

// How to evaluate: flat best fit, or the tree with one of the two top-switch rules.
enum class Method { Flat, Tree, TreeLowestTop };

// Zeroes what the last evaluation left in avail and taken.
void unload(Workspace& ws) {
  for (const NodeIndex i : ws.loaded) ws.avail[i] = 0;
  for (const NodeIndex i : ws.picked) ws.taken[i] = 0;
  ws.loaded.clear();
  ws.picked.clear();
}

// The offers as _eval_nodes counts them (capped per node for some gres jobs); the retries'
// drop counts keep the uncapped offers, as choose_nodes' resource counts do.
void load(Workspace& ws, const Offers& offer, std::int32_t cap) {
  unload(ws);
  ws.most_avail = 0;
  for (std::size_t k = 0; k < offer.node.size(); ++k) {
    const std::int32_t avail = cap > 0 ? std::min(offer.cpus[k], cap) : offer.cpus[k];
    ws.avail[offer.node[k]] = avail;
    ws.most_avail = std::max(ws.most_avail, avail);
  }
  ws.loaded = offer.node;
}

bool evaluate(const Cluster& cluster, Workspace& ws, const Needs& n, Method m,
              const Offers& offer) {
  load(ws, offer, n.eval_cap);
  ws.no_contiguous_set = false;
  ws.known = KnownFailure::None;
  if (m == Method::Flat) return eval_flat(cluster, ws, n);
  return eval_topo(cluster, ws, n, m == Method::TreeLowestTop);
}

bool is_required(const Needs& n, NodeIndex i) {
  return std::binary_search(n.required.begin(), n.required.end(), i);
}

// Resource count choose_nodes uses to drop small nodes: CPUs, plus GPUs when asked.
std::int32_t resource_count(const NodeFree& f, std::int32_t offer, const Needs& n) {
  std::int32_t r = offer;
  for (int t = 0; t < kMaxGresTypes; ++t)
    if (n.gres[t] > 0) r += f.gres[t];
  return r;
}

// Per offering node, the count choose_nodes' retries drop it by; a -w node never drops.
void fill_drop_counts(const ClusterState& state, const Needs& n, Offers& offer) {
  offer.drop_at.resize(offer.node.size());
  for (std::size_t k = 0; k < offer.node.size(); ++k)
    offer.drop_at[k] = is_required(n, offer.node[k])
                           ? std::numeric_limits<std::int32_t>::max()
                           : resource_count(state.node(offer.node[k]), offer.cpus[k], n);
}

// Drops (in index order, while more than min_nodes remain) the offering nodes whose
// resource count is at most `count`. Returns the smallest count among those kept; sets
// `hit` when a dropped node lies in [guard_first, guard_last].
std::int32_t drop_small(const Needs& n, std::int32_t count, Offers& offer, NodeIndex guard_first,
                        NodeIndex guard_last, bool& hit) {
  std::size_t kept = 0;
  auto remaining = static_cast<std::int32_t>(offer.node.size());
  std::int32_t next = std::numeric_limits<std::int32_t>::max();
  hit = false;
  for (std::size_t k = 0; k < offer.node.size(); ++k) {
    if (remaining > n.min_nodes && offer.drop_at[k] <= count) {
      --remaining;
      hit = hit || (offer.node[k] >= guard_first && offer.node[k] <= guard_last);
      continue;
    }
    next = std::min(next, offer.drop_at[k]);
    offer.node[kept] = offer.node[k], offer.cpus[kept] = offer.cpus[k];
    offer.drop_at[kept] = offer.drop_at[k], ++kept;
  }
  offer.node.resize(kept), offer.cpus.resize(kept), offer.drop_at.resize(kept);
  return next;
}

// Whether pick_set on `offer` (the evaluation's sets, built without loading them) takes
// the set the last evaluation failed in first.
bool picks_failed_set_first(const Cluster& cluster, Workspace& ws, const Needs& n,
                            const Offers& offer) {
  const std::int32_t cap = n.eval_cap;
  build_sets_over(cluster, ws, n, offer.node, [&](std::size_t k, NodeIndex) {
    return cap > 0 ? std::min(offer.cpus[k], cap) : offer.cpus[k];
  });
  bool sufficient = false;
  const int s = pick_set(ws, ws.at_first_pick, n, sufficient);
  return s >= 0 && ws.start[s] == ws.failed_first && ws.end[s] == ws.failed_last;
}

// Whether the evaluation after dropping nodes must fail as the last one did (see
// KnownFailure); `hit` = a dropped node lies in the last one's failed set.
bool known_to_fail(const Cluster& cluster, Workspace& ws, const Needs& n, const Offers& offer,
                   bool hit) {
  if (ws.known == KnownFailure::Always) return true;
  if (ws.known != KnownFailure::FirstSet || hit) return false;
  return ws.first_set_stays || picks_failed_set_first(cluster, ws, n, offer);
}

// ---- jobs that need the largest offer on every node ----
//
// A flat job with cpus = max_nodes x the largest offer M and min = req = max nodes (the
// whole-node jobs of a loaded machine) succeeds only with max_nodes full offers (= M): a
// node added with less leaves more CPUs than M times the nodes still allowed (hopeless).
// Its evaluation is therefore decided by the sets alone: pick_set as usual; the walk of
// set s takes its leading full nodes and succeeds when they cover the nodes still needed,
// goes on to the next pick when the whole set was full, and otherwise meets a partial
// node, where it fails unless exactly one node is still needed: the last-node rules
// (keep_best_single_node, the max_nodes == 1 skip) then take the set's next full node.
// choose_nodes' retries for such a job drop, at each distinct partial offer v in turn,
// every offer <= v (at least max_nodes full offers remain, so the min_nodes stop never
// applies, and full offers never drop). choose_full_offers walks those levels on the sets
// alone; the first walk that succeeds gives the nodes (a set's leading full nodes are
// consecutive from its first node).
// A failed walk whose every pick found no sufficient set (pick_set then takes the set
// with the most CPUs: here a set is sufficient exactly when its CPUs are, as each node
// offers at most M) fails alike at every later level that drops no node of the sets it
// picked: the other sets only shrink or split, so none becomes sufficient or outgrows the
// picked ones, and those keep their CPUs and leads. So the levels below the smallest
// partial offer in those sets are skipped.

bool needs_full_offers(const Needs& n, Method m, std::int32_t most) {
  return m == Method::Flat && n.required.empty() && !n.contiguous && !n.any_gres &&
         n.per_node == 0 && n.task_cores == 0 && n.eval_cap == 0 &&
         n.min_nodes == n.max_nodes && n.req_nodes == n.max_nodes &&
         static_cast<std::int64_t>(n.max_nodes) * most == n.cpus;
}

// Drops from ws.scan the offers of at most `level` and builds the sets of the rest (as
// build_sets would from a load) with their leads. Returns the smallest partial offer left,
// or `most` when none is.
std::int32_t scan_level(Workspace& ws, std::int32_t level, std::int32_t most) {
  ws.start.clear(), ws.cpus.clear(), ws.nodes.clear(), ws.weight.clear();
  ws.lead.clear(), ws.full_after.clear(), ws.least_partial.clear();
  std::int32_t next = most;
  std::size_t kept = 0;
  NodeIndex prev = -2;
  bool partial_seen = false;
  for (const Workspace::ScanNode& x : ws.scan) {
    if (x.cpus <= level) continue;
    ws.scan[kept++] = x;
    if (x.node != prev + 1 || x.weight != ws.weight.back()) {
      ws.start.push_back(x.node), ws.cpus.push_back(0), ws.nodes.push_back(0);
      ws.weight.push_back(x.weight);
      ws.lead.push_back(0), ws.full_after.push_back(-1), ws.least_partial.push_back(most);
      partial_seen = false;
    }
    prev = x.node;
    ws.cpus.back() += x.cpus;
    ++ws.nodes.back();
    if (x.cpus < most) {
      partial_seen = true;
      next = std::min(next, x.cpus);
      ws.least_partial.back() = std::min(ws.least_partial.back(), x.cpus);
    } else if (partial_seen) {
      if (ws.full_after.back() < 0) ws.full_after.back() = x.node;
    } else {
      ++ws.lead.back();
    }
  }
  ws.scan.resize(kept);
  return next;
}

// Takes `count` full nodes: each uses all M of its CPUs (cpus_to_use never caps them here).
void take_full(Progress& p, std::int32_t count, std::int32_t most) {
  p.rem_cpus -= count * most, p.rem_max_cpus -= count * most;
  p.rem_nodes -= count, p.min_rem_nodes -= count, p.max_nodes -= count;
}

// Takes `count` full nodes from `first` on, in the order the walk adds them.
void pick_run(Workspace& ws, NodeIndex first, std::int32_t count) {
  for (std::int32_t i = 0; i < count; ++i) ws.picked.push_back(first + i);
}

// Whether eval_flat succeeds on the sets scan_level built; ws.picked = the nodes its walk
// added, in order. On failure, `fails_below` = the level below which every walk fails
// alike (0 when unknown).
bool full_offer_walk_succeeds(Workspace& ws, const Needs& n, std::int32_t most,
                              std::int32_t& fails_below) {
  Progress p = progress_of(n);
  ws.picked.clear();
  bool all_insufficient = true;
  std::int32_t least = most;
  while (p.max_nodes > 0) {
    bool sufficient = false;
    const int s = pick_set(ws, p, n, sufficient);
    if (s < 0) break;
    all_insufficient = all_insufficient && !sufficient;
    least = std::min(least, ws.least_partial[s]);
    const std::int32_t lead = ws.lead[s];
    pick_run(ws, ws.start[s], std::min(lead, p.rem_nodes));
    if (lead >= p.rem_nodes) return true;
    take_full(p, lead, most);
    if (lead < ws.nodes[s]) {  // the walk meets a partial node
      if (p.rem_nodes >= 2) break;
      if (ws.full_after[s] >= 0) return pick_run(ws, ws.full_after[s], 1), true;
    }
    ws.cpus[s] = ws.nodes[s] = 0;
  }
  if (succeeded(p, n)) return true;
  fails_below = all_insufficient ? least : 0;
  return false;
}

// Leaves ws as an evaluation that picked ws.picked would (for build_allocation and the
// next unload): each picked node offers `most` and is taken.
void load_picked(Workspace& ws, std::int32_t most) {
  for (const NodeIndex i : ws.picked) ws.avail[i] = most, ws.taken[i] = 1;
  ws.loaded = ws.picked;
  ws.most_avail = most;
}

// choose_nodes for a job with needs_full_offers (see above); `most` = the largest offer.
bool choose_full_offers(const Cluster& cluster, Workspace& ws, const Needs& n, const Offers& offer,
                        std::int32_t most) {
  unload(ws);
  ws.scan.clear();
  for (std::size_t k = 0; k < offer.node.size(); ++k)
    ws.scan.push_back({offer.node[k], offer.cpus[k], set_weight(cluster, n, offer.node[k])});
  for (std::int32_t level = 0; level < most;) {
    const std::int32_t next = scan_level(ws, level, most);
    std::int32_t fails_below = 0;
    if (full_offer_walk_succeeds(ws, n, most, fails_below)) return load_picked(ws, most), true;
    level = std::max(next, fails_below);
  }
  return false;
}

// At least `count` of the offers are `most`.
bool has_full_offers(const Offers& offer, std::int32_t most, std::int32_t count) {
  return std::count(offer.cpus.begin(), offer.cpus.end(), most) >= count;
}

// choose_nodes tries the resource counts 1, 2, ... below the largest; only a count at
// which some node drops can change the (deterministic) evaluation, so the others are
// skipped, and so are the evaluations known to fail (known_to_fail). Each tried count
// drops a node: more than min_nodes remain when it is tried.
bool choose_nodes(const Cluster& cluster, const ClusterState& state, Workspace& ws,
                  const Needs& n, Method topo, Offers& offer, std::int32_t most_offer) {
  if (needs_full_offers(n, topo, most_offer) && has_full_offers(offer, most_offer, n.max_nodes))
    return choose_full_offers(cluster, ws, n, offer, most_offer);
  if (evaluate(cluster, ws, n, topo, offer)) return true;
  if (ws.no_contiguous_set || ws.known == KnownFailure::Always) return false;
  std::int32_t most = 0;
  for (std::size_t k = 0; k < offer.node.size(); ++k)
    most = std::max(most, resource_count(state.node(offer.node[k]), offer.cpus[k], n));
  const auto remaining = [&] { return static_cast<std::int32_t>(offer.node.size()); };
  if (remaining() <= n.min_nodes) return false;
  fill_drop_counts(state, n, offer);
  std::int32_t count = *std::min_element(offer.drop_at.begin(), offer.drop_at.end());
  while (count < most) {
    bool hit = false;
    const std::int32_t next = drop_small(n, count, offer, ws.failed_first, ws.failed_last, hit);
    if (!known_to_fail(cluster, ws, n, offer, hit) && evaluate(cluster, ws, n, topo, offer))
      return true;
    if (ws.known == KnownFailure::Always) return false;
    if (remaining() <= n.min_nodes) break;
    count = std::max(count + 1, next);
  }
  return false;
}

// One picked node while dist_tasks deals the job's tasks: the CPUs the evaluation let it
// give (avail_cpus after _cpus_to_use), its CPUs per core, what it was dealt.
struct Dealt {
  NodeIndex node;
  std::int32_t cap, per_core, tasks = 0, cpus = 0;
  bool fits(std::int32_t t) const { return cap - cpus >= t; }
  void take(std::int32_t t) { ++tasks, cpus = std::min(cap, cpus + t); }
};

// The evaluation's CPUs per picked node, replayed in the order the nodes were added.
void replay_caps(const Workspace& ws, const Needs& n, std::vector<Dealt>& out) {
  Progress p = progress_of(n);
  out.clear();
  for (const NodeIndex i : ws.picked) {
    const std::int32_t use = cpus_to_use(ws.avail[i], p, n, i);
    out.push_back({i, use, cpus_per_core(n, i)});
    advance(p, use);
  }
}

// cons_tres dist_tasks_compute_c_b: the job's tasks of t CPUs dealt over its nodes in node
// order, whatever the distribution: one each, then one more where a core is half used,
// then a core's worth per node per round while the caps allow.
void deal_tasks(std::vector<Dealt>& nodes, std::int32_t tasks, std::int32_t t) {
  std::int64_t room = 0;
  for (const Dealt& d : nodes) room += d.cap;
  if (room == static_cast<std::int64_t>(tasks) * t) {  // every cap filled (caps are whole tasks)
    for (Dealt& d : nodes) d.tasks = d.cap / t, d.cpus = d.cap;
    return;
  }
  std::sort(nodes.begin(), nodes.end(), [](const Dealt& a, const Dealt& b) { return a.node < b.node; });
  std::int32_t dealt = 0;
  for (Dealt& d : nodes)
    if (dealt < tasks && d.cap > 0) d.take(t), ++dealt;
  for (Dealt& d : nodes)
    for (std::int32_t k = d.cpus % d.per_core / t; k > 0 && dealt < tasks && d.fits(t); --k)
      d.take(t), ++dealt;
  for (bool any = true; dealt < tasks && any;) {
    any = false;
    for (Dealt& d : nodes)
      for (std::int32_t k = std::max(d.per_core / t, 1); k > 0 && dealt < tasks && d.fits(t); --k)
        d.take(t), ++dealt, any = true;
  }
}

// The CPUs each picked node gives: per node as asked, whole nodes, or the evaluation's
// caps with the tasks dealt over them (the node then holds whole cores of those CPUs).
Allocation build_allocation(const Cluster& cluster, const Workspace& ws, const Needs& n) {
  thread_local std::vector<Dealt> nodes;
  replay_caps(ws, n, nodes);
  const std::int32_t t = std::max(1, n.task_cores);
  if (n.per_node == 0) deal_tasks(nodes, n.cpus / t, t);
  Allocation a;
  a.shares.reserve(nodes.size());
  for (const Dealt& d : nodes) {
    NodeShare s;
    s.node = d.node;
    s.cores = n.per_node > 0 ? n.per_node : d.cpus;
    if (n.exclusive) s.cores = cluster.nodes[d.node].cores;  // charged the whole node
    s.gres = n.gres;
    if (n.task_cores > 0)
      for (std::int32_t& g : s.gres) g *= d.tasks;
    s.mem_mb = cluster.nodes[d.node].memory_mb > 0 ? n.mem : 0;  // memory only where modelled
    a.shares.push_back(s);
  }
  a.sort_by_node();
  return a;
}

// Every picked node contributes at most its offer and at most max_nodes are picked
// (choose_nodes' retries only drop offers), so the max_nodes largest offers must cover the
// CPUs. Fails most "now" tests of multi-node jobs on a fragmented machine without the
// evaluations and retries.
// `least` and `most` bound the offers: m offers of at least `least` cover the CPUs, m of
// at most `most` cannot; only between the two are the m largest summed.
bool largest_offers_cover(const Offers& offer, const Needs& n, std::int32_t least,
                          std::int32_t most) {
  const auto m = static_cast<std::size_t>(std::max(n.max_nodes, 0));
  if (offer.cpus.size() <= m) return true;  // the total was checked already
  const auto cover = [&](std::int32_t each) { return static_cast<std::int64_t>(m) * each >= n.cpus; };
  if (cover(least)) return true;
  if (!cover(most)) return false;
  thread_local std::vector<std::int32_t> positive;
  positive = offer.cpus;
  std::nth_element(positive.begin(), positive.begin() + static_cast<std::ptrdiff_t>(m),
                   positive.end(), std::greater<>());
  std::int64_t sum = 0;
  for (std::size_t i = 0; i < m; ++i) sum += positive[i];
  return sum >= n.cpus;
}

// Calls f(i), ascending, for every node i of `within` that has a free core: a node without
// one offers nothing to any job, so the offers are those of a visit of all of `within`.
template <typename F>
void for_each_with_free_cores(const ClusterState& state, std::span<const std::uint64_t> within,
                              F&& f) {
  const std::span<const std::uint64_t> free = state.nodes_with_free_cores();
  const std::size_t words = std::min(within.size(), free.size());
  for (std::size_t w = 0; w < words; ++w)
    for (std::uint64_t bits = within[w] & free[w]; bits; bits &= bits - 1)
      f(static_cast<NodeIndex>(w * 64 + static_cast<std::size_t>(std::countr_zero(bits))));
}

}  // namespace

std::vector<std::int32_t> node_weights(const Cluster& cluster) {
  std::vector<std::int32_t> w;
  w.reserve(cluster.nodes.size());
  for (const Node& node : cluster.nodes) w.push_back(node.weight);
  return w;
}

std::int32_t cpus_needed(const Job& job) { return std::max(1, job.req.ntasks); }

std::int32_t max_node_count(const Job& job, int node_count) {
  return needs_of(job, node_count).max_nodes;
}

std::optional<Allocation> select_nodes(const Cluster& cluster, const ClusterState& state,
                                       const Job& job, const SelectOptions& options) {
  const int count = cluster.node_count();
  Needs n = needs_of(job, count);
  if (!n.any_gres) n.bias = options.gpu_bias;
  n.weights = options.weights;
  if (state.has_threaded_nodes()) n.nodes = cluster.nodes;
  if (n.any_gres && options.gres_task_cap) n.eval_cap = gres_cpu_cap_per_node(job.req);
  thread_local Offers offer;
  offer.clear();
  const Partition* part = cluster.partitions.empty() ? nullptr : cluster.find_partition(job.partition);
  if (!cluster.partitions.empty() && !part) return std::nullopt;
  std::int64_t total = 0;
  std::int32_t usable = 0;
  std::int32_t least = std::numeric_limits<std::int32_t>::max(), most = 0;  // offers
  auto consider = [&](NodeIndex i) {
    if (!options.usable.empty() && !options.usable[i]) return;
    if (!node_allowed(job.req, i)) return;  // -C, -x
    const std::int32_t o = node_offer(cluster.nodes[i], state.node(i), n);
    if (o <= 0) return;
    total += o;
    ++usable;
    least = std::min(least, o), most = std::max(most, o);
    offer.node.push_back(i), offer.cpus.push_back(o);
  };
  if (!options.within.empty()) {
    for_each_with_free_cores(state, options.within, consider);
  } else if (part) {
    for (NodeIndex i : part->nodes) consider(i);
  } else {
    for (NodeIndex i = 0; i < count; ++i) consider(i);
  }
  // Cheap necessary conditions first: most calls during backfill fail here.
  if (total < n.cpus || usable < n.min_nodes) return std::nullopt;
  if (n.per_node > 0 && usable < n.req_nodes) return std::nullopt;
  if (!largest_offers_cover(offer, n, least, most)) return std::nullopt;
  // -w jobs are placed flat: the tree evaluation has no notion of required nodes here.
  const bool tree = options.use_topology && cluster.topology && !cluster.topology->switches.empty() &&
                    !n.contiguous && n.required.empty();
  const Method topo = !tree ? Method::Flat
                            : (options.lowest_top_switch ? Method::TreeLowestTop : Method::Tree);
  Workspace& ws = workspace();
  if (ws.avail.size() != static_cast<std::size_t>(count)) {  // another cluster: start clean
    ws.avail.assign(count, 0), ws.taken.assign(count, 0);
    ws.loaded.clear(), ws.picked.clear();
  }
  if (!choose_nodes(cluster, state, ws, n, topo, offer, most)) return std::nullopt;
  Allocation a = build_allocation(cluster, ws, n);
  // Slurm 22.05 can return a gap for --contiguous (it skips a node too small to be the
  // last one); the model refuses such a placement instead.
  if (n.contiguous && a.shares.back().node - a.shares.front().node + 1 != a.node_count())
    return std::nullopt;
  return a;
}

}  // namespace hs::slurm
