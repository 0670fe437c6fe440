#pragma once
// A job as Slurm's submission options express it, plus what the simulator needs to replay it.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "model/node_constraint.hpp"
#include "model/types.hpp"

namespace hs {

// One --gres item. Typed GRES (gpu:a100:2) counts twice in the model: against the units of
// its name ("gpu", every GPU of the node, typed or not) and against the units of its kind
// ("gpu:a100"); an untyped item (gpu:2) counts only against its name, so it takes GPUs of
// any type, as in Slurm 22.05. See docs/slurm-model.md, "Typed GRES".
struct GresRequest {
  GresRequest(std::string name_ = {}, int type_ = -1, std::int32_t min = 0, std::int32_t max = 0,
              std::string kind_ = {}, int kind_type_ = -1)
      : name(std::move(name_)), type(type_), per_node_min(min), per_node_max(max),
        kind(std::move(kind_)), kind_type(kind_type_) {}

  std::string name;        // as written, e.g. "gpu"
  int type = -1;           // index of `name` in Cluster::gres_types, set by bind_to_cluster()
  std::int32_t per_node_min = 0;
  std::int32_t per_node_max = 0;  // == per_node_min unless a range gpu:X-Y was given
  std::string kind;        // the Slurm gres type ("a100"); empty = any type
  int kind_type = -1;      // index of "name:kind" in Cluster::gres_types; -1 when untyped

  // Calls f(type index, min, max) for each gres type this item uses up on a node.
  template <class F>
  void for_each_type(F&& f) const {
    f(type, per_node_min, per_node_max);
    if (kind_type >= 0) f(kind_type, per_node_min, per_node_max);
  }
  // "gpu" or "gpu:a100": the Cluster::gres_types entry of the item's kind.
  std::string kind_name() const { return kind.empty() ? name : name + ":" + kind; }
};

// -C, -w and -x as written, and what bind_to_cluster makes of them. Behind one pointer in
// JobRequest: most jobs have none, and jobs stay small on 300k-job traces.
struct NodeRules {
  NodeConstraint constraint;          // -C: node features; empty = any node
  std::vector<std::string> nodelist;  // -w, host names: the job uses every one of them
  std::vector<std::string> exclude;   // -x, host names the job must not use
  // Bound: the nodes -C and -x leave the job (null = every node) and the indices of the
  // -w nodes, ascending. Read through model/job_nodes.hpp.
  std::shared_ptr<const std::vector<char>> allowed;
  std::vector<NodeIndex> required;
};

struct JobRequest {
  std::int32_t ntasks = 0;           // -n: total cores (one CPU per task)
  // -n was not written and ntasks was inferred from -N: sbatch then sends no task count,
  // which changes how cons_tres counts a GPU job's usable CPUs per node (slurm/select.cpp).
  bool ntasks_implied = false;
  std::int32_t nodes_min = 0;        // -N a or -N a-b; 0 = not given
  std::int32_t nodes_max = 0;        // 0 = not given
  // No -N was written, and nodes_min/nodes_max are the partition's MinNodes/MaxNodes
  // (apply_partition_node_limits): Slurm then aims at the fewest nodes, not the most.
  bool nodes_from_partition = false;
  std::int32_t ntasks_per_node = 0;  // --ntasks-per-node; 0 = not given
  std::vector<GresRequest> gres;     // --gres, per node used
  bool contiguous = false;           // --contiguous
  std::int64_t mem_per_node_mb = 0;  // --mem; 0 = not given
  Time time_limit = 0;               // -t in seconds; 0 = partition default
  bool exclusive = false;             // --exclusive: whole nodes, charged all their cores
  // Units (-n T -c C or --gpus-per-task without a per-node task count): T identical tasks
  // of C cores each, any whole number of them per node, each task's cores and gres on one
  // node. `ntasks` still counts cores (T x C) and every `gres` item is then per task, not
  // per node. 0 = not a units job.
  std::int32_t task_cores = 0;
  // -C/-w/-x; null = none. Copies of a job share it: never change it in place, replace it
  // (edit_node_rules() does that).
  std::shared_ptr<const NodeRules> rules;

  const NodeRules& node_rules() const;  // the job's rules, or empty ones
  NodeRules& edit_node_rules();         // a private copy of the rules, now the job's

  // Per-node minimum of gres type t (0 when not requested). Needs bound types.
  std::int32_t gres_min(int type) const;
  std::int32_t gres_max(int type) const;
  bool has_gres_range() const;
  bool units() const { return task_cores > 0; }
  std::int32_t unit_count() const { return units() ? ntasks / task_cores : 0; }
};

struct Job {
  std::int64_t id = 0;     // the id users see (from the input)
  std::string name;
  std::string user;
  std::string partition;   // queue / partition; empty = default
  Time submit = 0;
  std::int32_t submit_ms = 0;  // milliseconds into `submit` (a real run's controller records them)
  // Milliseconds from start + run time to the end the controller saw, when a replayed real
  // run recorded it (job steps, epilogue, RPCs); -1: the scheduler's own default.
  std::int32_t end_latency_ms = -1;
  // Milliseconds its nodes stayed COMPLETING after that end (the last node's epilog
  // completion), when a replayed real run recorded it; -1: the scheduler's own default.
  std::int32_t epilog_ms = -1;
  // How that last node reported it: by answering the terminate request (the job had no
  // step left there) or by its own epilog-complete message; Unknown when not recorded.
  enum class EpilogReport : std::uint8_t { Unknown, Answer, Message };
  EpilogReport epilog_by = EpilogReport::Unknown;
  // Each node's own report, when a replayed real run recorded them: a node is free again
  // once its own report is in, not the last node's.
  struct NodeEpilog {
    std::string node;
    std::int32_t ms = 0;  // after the end, as epilog_ms
    EpilogReport by = EpilogReport::Answer;
  };
  std::vector<NodeEpilog> node_epilogs;
  Time run_time = 0;       // actual run time (at the minimum gres count for moldable jobs)
  bool moldable_runtime = false;  // eq. 7.1: run time scales by gres_min / gres_allocated
  JobRequest req;
};

// Jobs in submit order (ties by id); JobRef indexes this vector.
struct Workload {
  std::string name;
  std::vector<Job> jobs;
  // Decisions taken while reading the input, with counts (e.g. SWF records skipped for an
  // unknown run time); reported with the run so nothing is lost without a trace.
  std::vector<std::string> notes;
};

}  // namespace hs
