#pragma once
// ESP-2 (thesis Table 7.1) and the documents' heterogeneous ESP (002 §V, thesis 7.3.1):
// every non-Z job duplicated, the copy also asking GPUs on every node it uses.
#include <cstdint>

#include "model/cluster.hpp"
#include "model/job.hpp"
#include "util/params.hpp"
#include "workload/common.hpp"

namespace hs {

enum class EspVariant { Plain, Heterogeneous };

struct EspOptions {
  EspVariant variant = EspVariant::Plain;
  std::int32_t initial = 50;  // jobs released at t = 0
  double arrival_mean = 30;   // Gaussian inter-arrival mean (s)
  double arrival_sd = 10;     // its standard deviation (not given by the documents)
  Time z_first = 2400;        // submit time of the first Z job (s)
  Time z_second = 7200;
  std::int32_t size_jitter = 0;  // +- uniform integer added to each non-Z size (cores)
  std::int32_t gpus = 2;         // GPUs per node asked by the heterogeneous copies
  workload_detail::CommonOptions common;
};

EspOptions read_esp_options(Params& params, EspVariant variant, std::int32_t default_jitter);
Workload generate_esp(const EspOptions& options, const Cluster& cluster, std::uint64_t seed);

}  // namespace hs
