#pragma once
// Small clusters and jobs for the simulator tests.
#include <string>

#include "model/cluster.hpp"
#include "support/uniform_cluster.hpp"
#include "model/job.hpp"

namespace hs::testing {

inline Cluster make_cluster(int nodes, int cores, int gpus) { return test::uniform_cluster(nodes, cores, gpus); }

inline Job make_job(std::int64_t id, Time submit, std::int32_t ntasks, Time run, Time limit) {
  Job j;
  j.id = id;
  j.name = "j" + std::to_string(id);
  j.user = "u";
  j.submit = submit;
  j.run_time = run;
  j.req.ntasks = ntasks;
  j.req.time_limit = limit;
  return j;
}

inline void add_gpus(Job& j, std::int32_t min, std::int32_t max) {
  j.req.gres.push_back({"gpu", 0, min, max});
}

}  // namespace hs::testing
