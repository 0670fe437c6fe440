#pragma once
// The bridge's durable record of a job it manages, kept in Slurm itself (the job's
// AdminComment) so that it survives a kill -9 of the bridge and a restart of slurmctld:
//   hetsched:v1;phase=pinned;at=1764000000;nodes=1-4;cpus=20;tasks=20;cpn=1;req=;tres=gres:gpu:1
// `phase` says where the job's life stood when the record was written; the rest is the
// request the user submitted, written before the bridge rewrites it, so that it can always
// be restored. No field holds a space or a '=' besides the separators, so the record reads
// back as one token of `scontrol show job`.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/types.hpp"

namespace hs::bridge {

struct LiveJob;

// The fields of a job's request that pinning rewrites, as Slurm printed them.
struct OriginalRequest {
  std::string num_nodes;      // "2-2", "1-4"
  std::string num_cpus;       // "20"
  std::string num_tasks;      // "20"
  std::string min_cpus_node;  // "1"
  std::string req_nodes;      // "" = none
  std::string tres_per_node;  // "" = none
  std::string tasks_per_node = "0";  // "0" = not given
  bool operator==(const OriginalRequest&) const = default;
};

enum class MarkedPhase {
  Held,     // the bridge holds it (after a re-hold; its request is the original)
  Pinned,   // its request was rewritten to the chosen nodes; released unless still held
  Refused,  // it can never run here; `reason` says why; it stays held
};

struct JobMarker {
  MarkedPhase phase = MarkedPhase::Held;
  Time at = 0;               // when the record was written (epoch seconds)
  OriginalRequest original;  // Pinned only
  std::string reason;        // Refused only
  bool operator==(const JobMarker&) const = default;
};

std::string encode_marker(const JobMarker& marker);
// The record in an AdminComment, or nothing when the comment is not the bridge's.
std::optional<JobMarker> decode_marker(std::string_view admin_comment);

// What the user asked, from a held job's listing. A single NumNodes value is Slurm's
// estimate for a job submitted without -N: it is restored as 1-`max_nodes`.
OriginalRequest original_request(const LiveJob& live, int max_nodes);

// `scontrol update` arguments (after "update") that put `original` back on job `id`.
std::vector<std::string> restoring_arguments(const std::string& target, const OriginalRequest& original);

// A reason made safe for the record: no '=', ';' or line breaks.
std::string sanitize_reason(std::string reason);

}  // namespace hs::bridge
