#include "bridge/slurm_nodes.hpp"

#include <array>
#include <algorithm>
#include <charconv>
#include <utility>

#include "bridge/scontrol_fields.hpp"
#include "bridge/scontrol_jobs.hpp"
#include "io/hostlist.hpp"
#include "io/slurm_time.hpp"
#include "model/request_fit.hpp"
#include "util/error.hpp"

namespace hs::bridge {

namespace {

// State words (base state or '+' flag) that keep new jobs off a node, with what we say.
// `scontrol show node` prints the base state and every flag in full ("IDLE+NOT_RESPONDING",
// "IDLE+MAINTENANCE+RESERVED"); sinfo's short forms ("MAINT", "IDLE*") are read too.
// A node powered down to save power (POWERED_DOWN, or booting: POWERING_UP) is not among
// them: Slurm allocates it and resumes it for the job. One asked to power down is.
constexpr std::array<std::pair<std::string_view, std::string_view>, 16> kBlockingStates{{
    {"DOWN", "down"},
    {"DRAIN", "drain"},
    {"DRAINING", "draining"},
    {"DRAINED", "drained"},
    {"FAIL", "fail"},
    {"FAILING", "failing"},
    {"MAINT", "maintenance"},
    {"MAINTENANCE", "maintenance"},
    {"NOT_RESPONDING", "not responding"},  // off Slurm's available nodes until it answers
    {"RESERVED", "in an advance reservation"},
    {"FUTURE", "future"},
    {"DYNAMIC_FUTURE", "future"},  // a slot for a dynamic node that has not registered
    {"UNKNOWN", "state unknown"},
    {"POWERING_DOWN", "powering down"},
    {"REBOOT_REQUESTED", "reboot requested"},
    {"REBOOT_ISSUED", "rebooting"},
}};

std::string_view blocking_word(std::string_view word) {
  for (const auto& [state, said] : kBlockingStates)
    if (word == state) return said;
  if (word == "INVAL" || word == "INVALID_REG") return "invalid registration";
  if (word == "POWER_DOWN") return "powering down";
  return {};
}

}  // namespace

namespace {
// sinfo-style suffixes that scontrol may append to a state.
std::string_view suffix_reason(char c) {
  switch (c) {
    case '*': return "not responding";
    case '%': case '!': return "powering down";  // '~' powered down, '#' powering up: usable
    case '@': case '^': return "rebooting";
    case '$': return "in a maintenance reservation";
    default: return {};  // '-' (planned by Slurm's backfill) does not block
  }
}
}  // namespace

std::string node_unavailable_reason(const LiveNode& node) {
  std::string_view state = node.state;
  std::string said;
  while (!state.empty() && std::string_view("*~#%!@^$-").find(state.back()) != std::string_view::npos) {
    if (said.empty()) said = std::string(suffix_reason(state.back()));
    state.remove_suffix(1);
  }
  if (state.empty()) return "no state";
  for (std::size_t pos = 0; pos <= state.size() && said.empty();) {
    std::size_t plus = state.find('+', pos);
    if (plus == std::string_view::npos) plus = state.size();
    said = std::string(blocking_word(state.substr(pos, plus - pos)));
    pos = plus + 1;
  }
  return said;
}

namespace {

// A count field of a listing, lo and up (or the word `also` its caller reads).
std::int32_t count_field(const Field& f, const InputLocation& where, std::int32_t lo,
                         const std::string& also = "") {
  std::int32_t n = 0;
  const char* last = f.value.data() + f.value.size();
  const auto [ptr, ec] = std::from_chars(f.value.data(), last, n);
  if (ec != std::errc() || ptr != last || n < lo)
    throw InputError(where, f.key, f.value,
                     "expected a count of at least " + std::to_string(lo) + (also.empty() ? "" : " or " + also));
  return n;
}

// CPUs Slurm counts per core: CPUTot over Boards x Sockets x CoresPerSocket (2 where a node's
// hardware threads are its CPUs; 1 where slurm.conf's CPUs= counts cores, or when unknown).
std::int32_t cpus_per_core(std::int64_t cpus, std::int64_t boards, std::int64_t sockets,
                           std::int64_t cores_per_socket) {
  const std::int64_t cores = std::max<std::int64_t>(1, boards) * sockets * cores_per_socket;
  if (cores <= 0 || cpus < cores || cpus % cores != 0) return 1;
  return static_cast<std::int32_t>(cpus / cores);
}

// MaxNodes / MinNodes / MaxCPUsPerNode: a count, or UNLIMITED (0).
std::int32_t node_limit(const Field& f, const InputLocation& where) {
  return f.value == "UNLIMITED" ? 0 : count_field(f, where, 0, "UNLIMITED");
}

}  // namespace

std::vector<LiveNode> parse_scontrol_nodes(std::string_view text, const std::string& source) {
  std::vector<LiveNode> nodes;
  for_each_record(text, [&](long line, const std::vector<Field>& fields) {
    const InputLocation where{source, line};
    LiveNode node;
    std::int64_t cpus = 0, boards = 1, sockets = 0, cores_per_socket = 0;
    for (const Field& f : fields) {
      if (f.key == "NodeName") node.name = f.value;
      else if (f.key == "State") node.state = f.value;
      else if (f.key == "Reason") node.reason = f.value;
      else if (f.key == "CPUTot") cpus = count_field(f, where, 1);
      else if (f.key == "Boards") boards = count_field(f, where, 1);
      else if (f.key == "Sockets") sockets = count_field(f, where, 1);
      else if (f.key == "CoresPerSocket") cores_per_socket = count_field(f, where, 1);
    }
    node.cpus_per_core = cpus_per_core(cpus, boards, sockets, cores_per_socket);
    if (node.name.empty()) throw InputError({source, line}, "NodeName", "", "line has no NodeName");
    if (node.state.empty()) throw InputError({source, line}, "State", "", "node " + node.name + " has no State");
    nodes.push_back(std::move(node));
  });
  return nodes;
}

std::string partition_closed_reason(const LivePartition& partition) {
  return partition.state == "UP" || partition.state == "DRAIN" ? "" : partition.state;
}

std::string partition_limit_reason(const LivePartition& partition, Time time_limit,
                                   std::int32_t nodes_min, std::int32_t nodes_max) {
  const std::string of = " partition " + partition.name + "'s ";
  if (partition.max_time != kNoTime && time_limit != kNoTime && time_limit > partition.max_time)
    return "time limit " + format_slurm_time(time_limit) + " is above" + of + "MaxTime " +
           format_slurm_time(partition.max_time) + " (Slurm keeps it pending: PartitionTimeLimit)";
  return node_limit_problem(partition.name, partition.max_nodes, partition.min_nodes, nodes_min, nodes_max)
      .value_or("");
}

std::vector<LivePartition> parse_scontrol_partitions(std::string_view text, const std::string& source) {
  std::vector<LivePartition> partitions;
  HostlistBudget budget;
  for_each_record(text, [&](long line, const std::vector<Field>& fields) {
    const InputLocation where{source, line};
    LivePartition p;
    for (const Field& f : fields) {
      if (f.key == "PartitionName") p.name = f.value;
      else if (f.key == "State") p.state = f.value;
      else if (f.key == "MaxTime") p.max_time = parse_slurm_time(f.value, where, f.key, true);
      else if (f.key == "MaxNodes") p.max_nodes = node_limit(f, where);
      else if (f.key == "MinNodes") p.min_nodes = node_limit(f, where);
      else if (f.key == "MaxCPUsPerNode") p.max_cpus_per_node = node_limit(f, where);
      else if (f.key == "Nodes" && f.value != "ALL")
        p.nodes = f.value == "(null)" || f.value.empty() ? std::vector<std::string>{}
                                                          : expand_hostlist(f.value, where, budget);
    }
    if (p.name.empty()) throw InputError({source, line}, "PartitionName", "", "line has no PartitionName");
    if (p.state.empty()) throw InputError({source, line}, "State", "", "partition " + p.name + " has no State");
    partitions.push_back(std::move(p));
  });
  return partitions;
}

std::vector<LiveReservation> parse_scontrol_reservations(std::string_view text,
                                                         const std::string& source) {
  std::vector<LiveReservation> reservations;
  HostlistBudget budget;
  for_each_record(text, [&](long line, const std::vector<Field>& fields) {
    const InputLocation where{source, line};
    LiveReservation r;
    bool has_start = false, has_end = false;
    for (const Field& f : fields) {
      if (f.key == "ReservationName") r.name = f.value;
      else if (f.key == "Flags") r.flags = f.value;
      else if (f.key == "Nodes" && f.value != "(null)" && !f.value.empty())
        r.nodes = expand_hostlist(f.value, where, budget);
      else if (f.key == "StartTime" || f.key == "EndTime") {
        const std::int64_t t = parse_slurm_timestamp(f.value);
        if (t < 0) throw InputError(where, f.key, f.value, "expected YYYY-MM-DDTHH:MM:SS");
        (f.key == "StartTime" ? r.start_epoch : r.end_epoch) = t;
        (f.key == "StartTime" ? has_start : has_end) = true;
      }
    }
    if (r.name.empty()) throw InputError(where, "ReservationName", "", "line has no ReservationName");
    if (!has_start || !has_end)
      throw InputError(where, has_start ? "EndTime" : "StartTime", "",
                       "reservation " + r.name + " has no start or end");
    reservations.push_back(std::move(r));
  });
  return reservations;
}

}  // namespace hs::bridge
