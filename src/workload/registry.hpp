#pragma once
// Every seeded workload generator by name. A spec is "name" or "name:key=value,key=value";
// unknown names, unknown keys and invalid values are InputErrors. Same spec, cluster and
// seed always give the identical workload. docs/workloads.md describes each generator.
#include <cstdint>
#include <string>
#include <vector>

#include "model/cluster.hpp"
#include "model/job.hpp"

namespace hs {

struct GeneratorInfo {
  std::string name;
  std::string description;
  std::string params;  // "key=default (description); ..."
};

std::vector<GeneratorInfo> workload_generators();

// Jobs sorted by submit time, ids 1..n; sizes scaled to `cluster`. Workload::name is the
// generator name with its effective options, e.g. "esp-het:arrival_mean=30,...".
Workload generate_workload(const std::string& spec, const Cluster& cluster, std::uint64_t seed);

}  // namespace hs
