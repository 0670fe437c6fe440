#include "bridge/job_marker.hpp"

#include <charconv>
#include <map>
#include <vector>

#include "bridge/scontrol_jobs.hpp"

namespace hs::bridge {

namespace {

constexpr std::string_view kPrefix = "hetsched:v1;";

std::string_view phase_name(MarkedPhase phase) {
  switch (phase) {
    case MarkedPhase::Held: return "held";
    case MarkedPhase::Pinned: return "pinned";
    case MarkedPhase::Refused: return "refused";
  }
  return "held";
}

std::optional<MarkedPhase> phase_of(std::string_view name) {
  for (MarkedPhase p : {MarkedPhase::Held, MarkedPhase::Pinned, MarkedPhase::Refused})
    if (phase_name(p) == name) return p;
  return std::nullopt;
}

std::map<std::string, std::string, std::less<>> items_of(std::string_view body) {
  std::map<std::string, std::string, std::less<>> items;
  while (!body.empty()) {
    std::size_t semi = body.find(';');
    if (semi == std::string_view::npos) semi = body.size();
    const std::string_view item = body.substr(0, semi);
    body.remove_prefix(std::min(body.size(), semi + 1));
    const std::size_t eq = item.find('=');
    if (eq != std::string_view::npos) items.emplace(std::string(item.substr(0, eq)), std::string(item.substr(eq + 1)));
  }
  return items;
}

}  // namespace

std::string sanitize_reason(std::string reason) {
  for (char& c : reason)
    if (c == '=' || c == ';') c = ':';
    else if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  return reason;
}

std::string encode_marker(const JobMarker& m) {
  std::string text = std::string(kPrefix) + "phase=" + std::string(phase_name(m.phase)) +
                     ";at=" + std::to_string(m.at);
  if (m.phase == MarkedPhase::Refused) return text + ";reason=" + sanitize_reason(m.reason);
  if (m.phase == MarkedPhase::Held) return text;
  const OriginalRequest& o = m.original;
  return text + ";nodes=" + o.num_nodes + ";cpus=" + o.num_cpus + ";tasks=" + o.num_tasks +
         ";cpn=" + o.min_cpus_node + ";req=" + o.req_nodes + ";tres=" + o.tres_per_node + ";tpn=" + o.tasks_per_node;
}

std::optional<JobMarker> decode_marker(std::string_view comment) {
  if (comment.rfind(kPrefix, 0) != 0) return std::nullopt;
  const auto items = items_of(comment.substr(kPrefix.size()));
  auto get = [&](std::string_view key) {
    auto it = items.find(key);
    return it == items.end() ? std::string() : it->second;
  };
  const std::optional<MarkedPhase> phase = phase_of(get("phase"));
  if (!phase) return std::nullopt;
  JobMarker m;
  m.phase = *phase;
  const std::string at = get("at");
  std::from_chars(at.data(), at.data() + at.size(), m.at);
  m.reason = get("reason");
  m.original = {get("nodes"), get("cpus"), get("tasks"), get("cpn"), get("req"), get("tres"),
                get("tpn").empty() ? "0" : get("tpn")};
  // A pinned record without the request it replaced cannot be restored: not ours to act on.
  if (m.phase == MarkedPhase::Pinned && m.original.num_nodes.empty()) return std::nullopt;
  return m;
}

OriginalRequest original_request(const LiveJob& live, int max_nodes) {
  OriginalRequest o;
  o.num_nodes = live.num_nodes_text;
  if (o.num_nodes.find('-') == std::string::npos)
    o.num_nodes = "1-" + std::to_string(std::max(1, max_nodes));
  o.num_cpus = std::to_string(live.cpus);
  o.num_tasks = std::to_string(std::max(1, live.num_tasks));
  o.min_cpus_node = std::to_string(std::max(1, live.min_cpus_node));
  o.req_nodes = live.req_nodes_text;
  o.tres_per_node = live.tres_per_node_text;
  o.tasks_per_node = std::to_string(live.ntasks_per_node);
  return o;
}

std::vector<std::string> restoring_arguments(const std::string& target, const OriginalRequest& o) {
  std::vector<std::string> args = {"JobId=" + target, "NumNodes=" + o.num_nodes,
                                   "NumCPUs=" + o.num_cpus,      "NumTasks=" + o.num_tasks,
                                   "MinCPUsNode=" + o.min_cpus_node, "ReqNodeList=" + o.req_nodes,
                                   "TasksPerNode=" + o.tasks_per_node};
  if (!o.tres_per_node.empty()) args.push_back("TresPerNode=" + o.tres_per_node);
  return args;
}

}  // namespace hs::bridge
