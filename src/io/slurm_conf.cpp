#include "io/slurm_conf.hpp"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <optional>
#include <set>
#include <unordered_map>

#include "io/conf_lines.hpp"
#include "io/gres_conf.hpp"
#include "io/hostlist.hpp"
#include "io/node_gres.hpp"
#include "model/node_constraint.hpp"
#include "io/slurm_keys.hpp"
#include "io/slurm_time.hpp"
#include "io/text_file.hpp"
#include "io/topology_conf.hpp"

namespace hs {

using namespace text;  // io's parsing helpers

namespace {

constexpr std::int64_t kMaxCpus = 1'000'000;
constexpr std::int64_t kMaxMemoryMb = std::int64_t{1} << 40;
using PairMap = std::map<std::string, ConfPair>;  // lower-case key -> pair

std::string where_text(const InputLocation& where) {
  return where.file + ":" + std::to_string(where.line);
}

struct NodeDraft {
  Node node;
  std::map<std::string, std::int64_t> gres;
  InputLocation where;
};

struct PartitionDraft {
  Partition partition;
  std::optional<ConfPair> nodes;  // Nodes= as written; none = a partition without nodes
  InputLocation where;
};

class SlurmConfParser {
 public:
  explicit SlurmConfParser(std::string path) : path_(std::move(path)) {}

  SlurmConfig run() {
    lines_ = read_conf_lines(path_, true);
    for (const ConfLine& line : lines_) dispatch(line);
    if (drafts_.empty())
      throw InputError({path_, 0}, "NodeName", "", "slurm.conf defines no nodes");
    const std::string dir = std::filesystem::path(path_).parent_path().string();
    const std::vector<std::string> types = gres_types();
    apply_gres_file(dir, types);
    build_nodes(types);
    if (!allocates_whole_cores())
      for (Node& node : result_.cluster.nodes) node.cpus_per_core = 1;
    build_partitions();
    build_topology(dir);
    result_.cluster.name = cluster_name();
    result_.path = path_;
    return std::move(result_);
  }

 private:
  // Whether Slurm gives jobs whole cores: select/cons_tres or cons_res (the default
  // cons_tres when SelectType is not written), under every SelectTypeParameters: CR_CPU too
  // once a node's threads are written (seen on a lab of CR_CPU, ThreadsPerCore=2: -n 3 held
  // CPUs 0-3). CR_Socket* gives whole sockets, modelled as whole cores.
  bool allocates_whole_cores() const {
    const auto found = result_.settings.find("selecttype");
    const std::string type = found == result_.settings.end() ? std::string() : text::to_lower(found->second);
    return type.empty() || type.find("cons_") != std::string::npos;  // select/linear: whole nodes
  }

  void dispatch(const ConfLine& line) {
    const std::string& head = line.first().key;
    if (head == "nodename") return node_line(line);
    if (head == "partitionname") return partition_line(line);
    if (head == "frontendname" || head == "nodeset" || head == "downnodes") {
      warn(line.where, "'" + line.first().written + "' line ignored");
      return;
    }
    for (const ConfPair& pair : line.pairs) global_setting(line.where, pair);
  }

  void global_setting(const InputLocation& where, const ConfPair& pair) {
    if (pair.key == "nodename" || pair.key == "partitionname")
      throw InputError(where, pair.written, pair.value, "must start its own line");
    if (pair.key == "grestypes") grestypes_ = {where, pair};
    if (is_scheduler_setting(pair.key)) {
      result_.settings[pair.key] = pair.value;
      result_.setting_lines[pair.key] = where;
    } else if (!is_daemon_setting(pair.key)) warn(where, "unknown key '" + pair.written + "' ignored");
  }

  // ---- nodes --------------------------------------------------------------------------
  void node_line(const ConfLine& line) {
    const std::string& names = line.first().value;
    if (iequals(names, "default")) {
      for (const ConfPair& p : line.pairs) node_defaults_[p.key] = p;
      return;
    }
    PairMap values = node_defaults_;
    for (const ConfPair& p : line.pairs) values[p.key] = p;
    Node shape = node_shape(values, line.where);
    std::map<std::string, std::int64_t> gres;
    if (values.count("gres")) gres = parse_node_gres(values.at("gres").value, line.where);
    for (const std::string& name : expand_hostlist(names, line.where, node_budget_)) {
      if (!node_draft_.emplace(name, drafts_.size()).second)
        throw InputError(line.where, "NodeName", name, "node defined twice");
      shape.name = name;
      drafts_.push_back({shape, gres, line.where});
    }
  }

  Node node_shape(const PairMap& values, const InputLocation& where) {
    auto number = [&](const char* key, std::int64_t def, std::int64_t lo, std::int64_t hi) {
      const auto found = values.find(key);
      if (found == values.end()) return def;
      return parse_int_in(found->second.value, lo, hi, where, found->second.written);
    };
    const std::int64_t boards = number("boards", 1, 1, 1024);
    const std::int64_t sockets =
        number("sockets", boards * number("socketsperboard", 1, 1, 1024), 1, 1024 * 1024);
    const std::int64_t cores = number("corespersocket", 1, 1, kMaxCpus);
    const std::int64_t threads = number("threadspercore", 1, 1, 1024);
    const std::int64_t derived = std::min(sockets * cores * threads, kMaxCpus + 1);
    const std::int64_t cpus = number("cpus", number("procs", derived, 1, kMaxCpus), 1, kMaxCpus);
    if (cpus > kMaxCpus)
      throw InputError(where, "CPUs", std::to_string(derived),
                       "sockets x cores x threads exceeds " + std::to_string(kMaxCpus));
    Node node;
    node.cores = static_cast<std::int32_t>(cpus);
    // Slurm counts a core's threads as its CPUs where CPUs= (if given) is sockets x cores x
    // threads; where CPUs= counts cores, a CPU is a core.
    if (threads > 1 && cpus == sockets * cores * threads) node.cpus_per_core = static_cast<std::int32_t>(threads);
    node.memory_mb = number("realmemory", 0, 0, kMaxMemoryMb);
    node.weight = static_cast<std::int32_t>(
        number("weight", 1, 0, std::numeric_limits<std::int32_t>::max()));
    node.features = node_features(values, where);
    warn_node_keys(values, where);
    return node;
  }

  // Features= (or Feature=): comma-separated names, each kept once, in the order written.
  static std::vector<std::string> node_features(const PairMap& values, const InputLocation& where) {
    auto found = values.find("features");
    if (found == values.end()) found = values.find("feature");
    if (found == values.end()) return {};
    std::vector<std::string> features;
    for (std::string_view f : split_outside_commas(found->second.value)) {
      if (!is_feature_name(f))
        throw InputError(where, found->second.written, found->second.value,
                         "bad feature name '" + std::string(f) + "'");
      if (std::find(features.begin(), features.end(), f) == features.end())
        features.emplace_back(f);
    }
    return features;
  }

  void warn_node_keys(const PairMap& values, const InputLocation& where) {
    static const std::set<std::string> used = {
        "nodename", "cpus", "procs", "boards", "sockets", "socketsperboard", "corespersocket",
        "threadspercore", "realmemory", "weight", "gres", "feature", "features"};
    static const std::set<std::string> silent = {
        "nodeaddr", "nodehostname", "port", "state", "reason",
        "tmpdisk", "corespeccount", "cpuspeclist", "memspeclimit", "cpubind", "bcastaddr",
        "availablefeatures", "activefeatures", "tresweights", "extra", "comment"};
    for (const auto& [key, pair] : values)
      if (!used.count(key) && !silent.count(key))
        warn(where, "node key '" + pair.written + "' ignored");
  }

  // GresTypes in its order when given (every node gres must be listed), else first use with a
  // warning per type: Slurm manages only the gres GresTypes names.
  std::vector<std::string> gres_types() {
    std::vector<std::string> types;
    if (grestypes_) {
      for (std::string_view t : split_outside_commas(grestypes_->second.value)) {
        if (!is_gres_name(t))
          throw InputError(grestypes_->first, "GresTypes", std::string(t), "bad gres name");
        if (std::find(types.begin(), types.end(), t) == types.end()) types.emplace_back(t);
      }
    }
    for (const NodeDraft& d : drafts_)
      for (const auto& [name, count] : d.gres) {
        if (name.find(':') != std::string::npos) continue;  // a kind: after every name
        if (std::find(types.begin(), types.end(), name) != types.end()) continue;
        if (grestypes_)
          throw InputError(d.where, "Gres", name, "gres type not listed in GresTypes");
        warn(d.where, "gres '" + name + "' modelled without a GresTypes line (Slurm would " +
                          "manage it only with GresTypes=" + name + ")");
        types.push_back(name);
      }
    for (const NodeDraft& d : drafts_)
      for (const auto& [kind, count] : d.gres)
        if (kind.find(':') != std::string::npos &&
            std::find(types.begin(), types.end(), kind) == types.end())
          types.push_back(kind);
    if (types.size() > static_cast<std::size_t>(kMaxGresTypes))
      throw InputError(grestypes_ ? grestypes_->first : drafts_.front().where, "GresTypes",
                       std::to_string(types.size()) + " types",
                       "hetsched models at most " + std::to_string(kMaxGresTypes) +
                           " gres types (each typed kind such as gpu:a100 counts as one)");
    return types;
  }

  static std::vector<std::string_view> split_outside_commas(std::string_view text) {
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text.size(); ++i) {
      if (i < text.size() && text[i] != ',') continue;
      if (const auto part = trim(text.substr(start, i - start)); !part.empty())
        parts.push_back(part);
      start = i + 1;
    }
    return parts;
  }

  void apply_gres_file(const std::string& dir, const std::vector<std::string>& types) {
    const std::filesystem::path file = std::filesystem::path(dir) / "gres.conf";
    if (!std::filesystem::exists(file)) return;
    NodeGresTable table;
    for (const NodeDraft& d : drafts_) table[d.node.name] = d.gres;
    apply_gres_conf(file.string(), table, types, result_.warnings);
    for (NodeDraft& d : drafts_) d.gres = table[d.node.name];
  }

  void build_nodes(const std::vector<std::string>& types) {
    Cluster& cluster = result_.cluster;
    cluster.gres_types = types;
    for (NodeDraft& d : drafts_) {
      for (const auto& [name, count] : d.gres)
        d.node.gres[cluster.gres_index(name)] = static_cast<std::int32_t>(count);
      cluster.nodes.push_back(d.node);
    }
    cluster.sort_nodes_naturally();
    for (int i = 0; i < cluster.node_count(); ++i) node_index_[cluster.nodes[i].name] = i;
  }

  // ---- partitions ---------------------------------------------------------------------
  void partition_line(const ConfLine& line) {
    const std::string& name = line.first().value;
    if (iequals(name, "default")) {
      for (const ConfPair& p : line.pairs) partition_defaults_[p.key] = p;
      return;
    }
    if (name.empty())
      throw InputError(line.where, line.first().written, name, "empty partition name");
    PairMap values = partition_defaults_;
    for (const ConfPair& p : line.pairs) values[p.key] = p;
    for (const PartitionDraft& d : partitions_)
      if (d.partition.name == name)
        throw InputError(line.where, "PartitionName", name, "partition defined twice");
    PartitionDraft draft{Partition{}, std::nullopt, line.where};
    draft.partition.name = name;
    fill_partition(values, line, draft);
    partitions_.push_back(std::move(draft));
  }

  void fill_partition(const PairMap& values, const ConfLine& line, PartitionDraft& draft) {
    Partition& p = draft.partition;
    for (const auto& [key, pair] : values) {
      if (key == "maxtime") p.max_time = parse_slurm_time(pair.value, line.where, pair.written, true);
      else if (key == "defaulttime")
        p.default_time = parse_slurm_time(pair.value, line.where, pair.written, true);
      else if (key == "prioritytier" || (key == "priority" && !values.count("prioritytier")))
        p.priority_tier = static_cast<std::int32_t>(
            parse_int_in(pair.value, 0, 65533, line.where, pair.written));
      else if (key == "default") p.is_default = yes_no(pair, line.where);
      else if (key == "maxnodes") p.max_nodes = node_count_limit(pair, line.where);
      else if (key == "minnodes") p.min_nodes = node_count_limit(pair, line.where);
      else if (key == "nodes") draft.nodes = pair;
      else if (key != "partitionname" && key != "priority") warn_partition_key(pair, line.where);
    }
  }

  // MaxNodes / MinNodes: a count, or UNLIMITED / INFINITE (0: no limit).
  static std::int32_t node_count_limit(const ConfPair& pair, const InputLocation& where) {
    if (iequals(pair.value, "unlimited") || iequals(pair.value, "infinite")) return 0;
    return static_cast<std::int32_t>(parse_int_in(pair.value, 0, 1 << 30, where, pair.written));
  }

  static bool yes_no(const ConfPair& pair, const InputLocation& where) {
    if (iequals(pair.value, "yes")) return true;
    if (iequals(pair.value, "no")) return false;
    throw InputError(where, pair.written, pair.value, "expected YES or NO");
  }

  void warn_partition_key(const ConfPair& pair, const InputLocation& where) {
    static const std::set<std::string> administrative = {
        "state", "allowgroups", "allowaccounts", "allowqos", "denyaccounts", "denyqos",
        "hidden", "rootonly", "reqresv", "alternate", "disablerootjobs", "tresbillingweights",
        "allocnodes", "qos", "exclusiveuser", "gracetime", "preemptmode", "priorityjobfactor",
        "powerdownonidle", "suspendtime", "suspendtimeout", "resumetimeout", "cpubind"};
    // OverSubscribe=NO (cores never shared between jobs) is what the model does anyway.
    const bool modelled_anyway =
        (pair.key == "oversubscribe" || pair.key == "shared") && iequals(pair.value, "no");
    if (pair.key == "maxcpuspernode")  // docs/bridge.md, "Everyday kinds of job"
      warn(where, "partition key '" + pair.written + "' is not modelled in simulations; ignored here "
                  "(the bridge reads it from Slurm every cycle)");
    else if (!administrative.count(pair.key) && !modelled_anyway)
      warn(where, "partition key '" + pair.written + "' is not modelled; ignored");
  }

  void build_partitions() {
    const auto defaults = std::count_if(partitions_.begin(), partitions_.end(),
                                        [](const PartitionDraft& d) { return d.partition.is_default; });
    if (defaults > 1)
      warn(partitions_.front().where, std::to_string(defaults) +
                                          " partitions say Default=YES; the first one is used");
    for (PartitionDraft& d : partitions_) {
      const Partition& p = d.partition;
      if (p.max_nodes > 0 && p.min_nodes > p.max_nodes)
        throw InputError(d.where, "MinNodes", std::to_string(p.min_nodes),
                         "above the partition's MaxNodes " + std::to_string(p.max_nodes));
      d.partition.nodes = partition_nodes(d);
      result_.cluster.partitions.push_back(std::move(d.partition));
    }
  }

  std::vector<NodeIndex> partition_nodes(const PartitionDraft& d) const {
    std::vector<NodeIndex> nodes;
    if (!d.nodes) return nodes;
    if (iequals(d.nodes->value, "all")) {
      for (int i = 0; i < result_.cluster.node_count(); ++i) nodes.push_back(i);
      return nodes;
    }
    for (const std::string& name : expand_hostlist(d.nodes->value, d.where)) {
      const auto found = node_index_.find(name);
      if (found == node_index_.end())
        throw InputError(d.where, d.nodes->written, name, "node not defined by a NodeName line");
      nodes.push_back(found->second);
    }
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    return nodes;
  }

  // ---- topology, name ------------------------------------------------------------------
  void build_topology(const std::string& dir) {
    const std::filesystem::path file = std::filesystem::path(dir) / "topology.conf";
    if (!std::filesystem::exists(file)) return;
    result_.cluster.topology = read_topology_conf(file.string(), result_.cluster, result_.warnings);
  }

  std::string cluster_name() const {
    const auto found = result_.settings.find("clustername");
    if (found != result_.settings.end() && !found->second.empty()) return found->second;
    return std::filesystem::path(path_).stem().string();
  }

  void warn(const InputLocation& where, const std::string& text) {
    result_.warnings.push_back(where_text(where) + ": " + text);
  }

  std::string path_;
  std::vector<ConfLine> lines_;
  SlurmConfig result_;
  PairMap node_defaults_, partition_defaults_;
  std::vector<NodeDraft> drafts_;
  std::unordered_map<std::string, std::size_t> node_draft_;  // lookups only: order unused
  HostlistBudget node_budget_{kMaxClusterNodes, "the NodeName lines"};
  std::unordered_map<std::string, NodeIndex> node_index_;  // lookups only: order unused
  std::vector<PartitionDraft> partitions_;
  std::optional<std::pair<InputLocation, ConfPair>> grestypes_;
};

}  // namespace

SlurmConfig load_slurm_conf(const std::string& path) { return SlurmConfParser(path).run(); }

}  // namespace hs
