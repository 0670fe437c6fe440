#pragma once
// Which nodes a job may use and which it must use: -C/--constraint (node features),
// -x/--exclude and -w/--nodelist, bound once to a cluster. Every scheduler takes a job's
// usable nodes from job_node_mask(), the one shared place, and the checks here re-derive
// the rules from names and features, independently of the bound mask.
#include <optional>
#include <string>
#include <vector>

#include "model/allocation.hpp"
#include "model/cluster.hpp"
#include "model/job.hpp"

namespace hs {

// Replaces req.rules by its bound form (allowed: null when neither -C nor -x is given;
// required), or by an unbound copy (both empty) and returns the reason when
// the request can never be met here — a feature no node has, an unknown node name, a -w
// node that -C, -x or the partition rules out, more -w nodes than -N or -n allow.
std::optional<std::string> bind_job_nodes(const Cluster& cluster, const Partition* partition,
                                          JobRequest& req);

// Whether bound -C/-x leave node n to the job.
inline bool node_allowed(const JobRequest& req, NodeIndex n) {
  return !req.rules || !req.rules->allowed || (*req.rules->allowed)[static_cast<std::size_t>(n)];
}

// 1 for every node the job may use: in its partition (all nodes on a cluster without
// partitions) and allowed by -C/-x. Needs a bound job.
std::vector<char> job_node_mask(const Cluster& cluster, const Job& job);

// True when the job restricts or names nodes (-C, -x, -w).
bool has_node_rules(const JobRequest& req);

// Reason why `alloc` breaks -C, -x or -w (checked by feature and host name), or nullopt.
std::optional<std::string> node_rules_violation(const Cluster& cluster, const JobRequest& req,
                                                const Allocation& alloc);

}  // namespace hs
