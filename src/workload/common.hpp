#pragma once
// Helpers shared by the workload generators: the cluster's shape as the generators see it,
// request builders, the options every generator has, and the final ordering of jobs.
#include <cstdint>
#include <string>
#include <vector>

#include "model/cluster.hpp"
#include "model/job.hpp"
#include "util/params.hpp"
#include "util/rng.hpp"

namespace hs::workload_detail {

// The per-node sizes a generator scales its jobs to. Clusters may be heterogeneous: cores per
// node is the smallest node's, so every generated per-node request fits every node.
struct ClusterShape {
  std::int32_t nodes = 0;
  std::int32_t cores_per_node = 0;
  std::int64_t total_cores = 0;
  int gpu_type = -1;  // index of "gpu" in the cluster, -1 if absent
  std::int32_t max_gpus_per_node = 0;
  // Nodes having at least g GPUs (index g, 0..max_gpus_per_node).
  std::vector<std::int32_t> nodes_with_gpus;
};
ClusterShape shape_of(const Cluster& cluster);

// Options every synthetic generator shares.
struct CommonOptions {
  double limit_factor = 1.0;  // time limit = ceil(nominal run time * factor)
  std::int32_t users = 8;     // users "user01".."userNN", drawn uniformly per job
};
CommonOptions read_common_options(Params& params);

Time time_limit_for(Time nominal, double factor);
std::string user_name(std::int32_t index);  // 1-based: "user01"
// A gres request for `name`, bound to the cluster's type index when the cluster has it.
GresRequest gres_request(const Cluster& cluster, const std::string& name, std::int32_t min,
                         std::int32_t max);
// Throws InputError for a generator whose jobs need `gpus` GPUs per node on a cluster
// without enough of them.
void require_gpus(const ClusterShape& shape, std::int32_t gpus, const std::string& generator,
                  const std::string& what);

// Fisher-Yates with the project's generator (std::shuffle is implementation-defined).
template <typename T>
void shuffle(std::vector<T>& items, Rng& rng) {
  for (std::size_t i = items.size(); i > 1; --i) {
    const auto j = static_cast<std::size_t>(rng.uniform_int(0, static_cast<std::int64_t>(i) - 1));
    std::swap(items[i - 1], items[j]);
  }
}

// Sorts jobs by submit time (stable: ties keep generation order) and numbers them 1..n.
void finalize_workload(Workload& workload);

// Sum of run_time * ntasks / total cores: the documents' theoretical runtime (eq. 7.2).
double theoretical_runtime(const Workload& workload, std::int64_t total_cores);

}  // namespace hs::workload_detail
