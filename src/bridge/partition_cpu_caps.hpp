#pragma once
// MaxCPUsPerNode: the jobs of a partition together use at most that many CPUs of any node,
// whatever else is free there (Slurm keeps a job pending, Reason=Resources, that would pass
// it). The bridge tallies, for each listed partition with a cap, what its jobs hold on each
// node (running and released, then every start of the cycle) and checks each start against it.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/allocation.hpp"
#include "model/cluster.hpp"

namespace hs::bridge {

class PartitionCpuCaps {
 public:
  // `partition` caps its jobs at `max_cpus` per node (on a cluster of `nodes` nodes).
  void cap(const std::string& partition, std::int32_t max_cpus, int nodes);
  bool empty() const { return caps_.empty(); }
  // A job of `partition` holds `alloc`.
  void hold(const std::string& partition, const Allocation& alloc);
  // CPUs the partition's jobs may still take on `node`; nothing when it has no cap.
  std::optional<std::int32_t> room(const std::string& partition, NodeIndex node) const;
  // Why a job of `partition` cannot hold `alloc` under the cap (the first node it would pass
  // it on), or nothing.
  std::optional<std::string> excess(const std::string& partition, const Allocation& alloc,
                                    const Cluster& cluster) const;

 private:
  struct Cap {
    std::int32_t max_cpus = 0;
    std::vector<std::int32_t> used;  // per node
  };
  std::map<std::string, Cap> caps_;
};

}  // namespace hs::bridge
