#pragma once
// Parsing and printing of the sbatch-style options a job line carries (see job_file.hpp).
#include <string>
#include <string_view>
#include <vector>

#include "model/job.hpp"
#include "util/error.hpp"

namespace hs {

// Fills `req` from option tokens (e.g. {"-n", "4", "--gres=gpu:2"}). InputError for
// unknown or repeated options, missing or malformed values. Infers ntasks when -n is
// absent (nodes_min x ntasks-per-node, or nodes_min); error when neither -n nor -N given.
// The per-task options (-c, --gpus*, --cpus-per-gpu, --mem-per-*) are mapped by
// io/task_options.hpp after the rest, so -n below counts tasks and the request cores.
void parse_job_options(const std::vector<std::string_view>& tokens, JobRequest& req,
                       const InputLocation& where);

// The options that reproduce `req` exactly, space separated, in a fixed order.
std::string format_job_options(const JobRequest& req);

// "gpu:2", "gpu:1-3,mic:1", "gpu" (= 1).
std::vector<GresRequest> parse_gres_request(std::string_view text, const InputLocation& where,
                                            const std::string& field);
std::string format_gres_request(const std::vector<GresRequest>& gres);

// "4096", "512K", "4G", "1T" -> MB (rounded up to whole MB).
std::int64_t parse_memory_mb(std::string_view text, const InputLocation& where,
                             const std::string& field);

}  // namespace hs
