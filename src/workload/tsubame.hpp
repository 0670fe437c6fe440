#pragma once
// The thesis' own generator with job kinds A-E (Table 7.3), used for the TSUBAME 2.0
// workloads (Tables 8.4, 8.6) and the 1024-node tree machine (Table 8.5):
//   A  -n x              B  -n x -N y
//   C  -n x -N y --gres=gpu:1     C'  ... --gres=gpu:1-3 (moldable run time, eq. 7.1)
//   D  -n x -N y --gres=gpu:2     D'  ... --gres=gpu:2-3 (moldable run time, eq. 7.1)
//   E  -n x -N y --gres=gpu:3
#include <cstdint>
#include <string>
#include <vector>

#include "model/cluster.hpp"
#include "model/job.hpp"
#include "util/params.hpp"
#include "workload/common.hpp"

namespace hs {

struct KindSpec {
  std::string name;           // "A", "B", "C", "C'", ...
  bool nodes_given = false;   // -N y (every kind but A)
  std::int32_t gpus_min = 0;  // per node
  std::int32_t gpus_max = 0;
};

// Parses "ABCDE", "ABC'D'E", "A", ... (InputError naming `origin` on anything else).
std::vector<KindSpec> parse_kinds(const std::string& text, const std::string& origin);

struct KindsOptions {
  std::vector<KindSpec> kinds;  // equal shares
  std::string kinds_text;
  std::int32_t jobs = 3491;
  double hours = 0;   // target theoretical runtime; 0 = jobs x 5 h / 3491
  double contig = 0;  // share of jobs asking --contiguous (exact count)
  Time runtime_min = 60;
  Time runtime_max = 600;
  double arrival_mean = 0;  // mean exponential inter-arrival (s); 0 = all at t = 0
  std::int32_t cores_per_gpu_max = 2;  // GPU kinds: U{1..this} cores per GPU on each node
  workload_detail::CommonOptions common;
};

// `tsubame`: kinds, jobs, hours, contig, ... or a Table 8.6 workload `wl=1..9`.
KindsOptions read_tsubame_options(Params& params);
// `tree1024`: Table 8.5 workloads wl=1..6, 5', 6'.
KindsOptions read_tree1024_options(Params& params);
Workload generate_kinds_workload(const KindsOptions& options, const Cluster& cluster,
                                 std::uint64_t seed);

}  // namespace hs
