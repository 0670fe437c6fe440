#pragma once
// What the window schedulers need to know about one waiting job, read once per pass from its
// request: the documents' job type, totals, per-node bounds and the one gres type it uses.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/cluster.hpp"
#include "model/job.hpp"

namespace hs::window {

// Thesis §4.1: type 1 gives only cores; type 2 nodes + cores (+ gres); type 3 nodes + cores
// per node (+ gres). A job with --ntasks-per-node but no -N is type 3 with the node count
// implied by ceil(cores / cores-per-node).
enum class JobType { CoresOnly = 1, NodesAndCores = 2, CoresPerNode = 3 };

struct WindowJob {
  JobRef ref = 0;
  std::int64_t priority = 1;      // integer, >= 1
  JobType type = JobType::CoresOnly;
  std::int32_t cores = 0;         // R_cpu
  std::int32_t nodes_min = 1;     // node count bounds the allocation must respect
  std::int32_t nodes_max = 0;     // 0 = no upper bound
  std::int32_t cores_per_node = 0;  // R_cpn, 0 = not given
  int gres_type = -1;             // -1: no gres asked
  std::int32_t gres_min = 0;      // R_gres per node
  std::int32_t gres_max = 0;      // R_gres,max per node (== gres_min without a range)
  std::int64_t mem_per_node_mb = 0;
  bool contiguous = false;
};

// The reason the window schedulers can never run this job (e.g. more than one gres type),
// or nullopt. Checked before describe().
std::optional<std::string> window_unsupported_reason(const Job& job);

WindowJob describe(const Job& job, JobRef ref, std::int64_t priority);

// The job's usable nodes as node_fits reads them: hs::job_node_mask, or empty when the job
// may use every node (on a cluster without partitions and without -C/-x this costs no
// per-node work, which a pass would otherwise spend on every window job).
std::vector<char> window_node_mask(const Cluster& cluster, const Job& job);

// Node-count bounds as a closed range with nodes_max resolved against the cluster size.
std::int32_t effective_nodes_max(const WindowJob& job, std::int32_t node_count);

}  // namespace hs::window
