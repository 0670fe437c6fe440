#include "io/gres_conf.hpp"

#include <algorithm>
#include <set>

#include "io/conf_lines.hpp"
#include "io/hostlist.hpp"
#include "io/node_gres.hpp"
#include "io/text_file.hpp"

namespace hs {

using namespace text;  // io's parsing helpers

namespace {

constexpr std::int64_t kMaxDevices = 1'000'000;

const std::set<std::string> kIgnoredKeys = {"cores", "cpus", "links", "flags",
                                            "multiplefiles", "autodetect"};

std::string where_text(const InputLocation& where) {
  return where.file + ":" + std::to_string(where.line);
}

// Count= wins over File=; neither means one device.
std::int64_t device_count(const ConfLine& line) {
  if (const ConfPair* count = line.find("count"))
    return parse_int_in(count->value, 0, kMaxDevices, line.where, count->written);
  if (const ConfPair* file = line.find("file"))
    return static_cast<std::int64_t>(expand_hostlist(file->value, line.where).size());
  return 1;
}

std::vector<std::string> target_nodes(const ConfLine& line, const NodeGresTable& table,
                                      const std::string& name) {
  std::vector<std::string> nodes;
  if (const ConfPair* list = line.find("nodename")) {
    nodes = expand_hostlist(list->value, line.where);
    for (const std::string& node : nodes)
      if (!table.count(node))
        throw InputError(line.where, list->written, node, "node not defined in slurm.conf");
    return nodes;
  }
  for (const auto& [node, gres] : table)
    if (gres.count(name)) nodes.push_back(node);
  return nodes;
}

void warn_unknown_keys(const ConfLine& line, std::vector<std::string>& warnings) {
  for (const ConfPair& p : line.pairs)
    if (p.key != "nodename" && p.key != "name" && p.key != "count" && p.key != "file" &&
        p.key != "type" && !kIgnoredKeys.count(p.key))
      warnings.push_back(where_text(line.where) + ": gres.conf key '" + p.written +
                         "' ignored");
}

// "gpu:a100" for a line with Type=a100, "" without Type=. The kind must be one slurm.conf
// gives some node (Gres=gpu:a100:N), as Slurm requires the two files to agree.
std::string typed_kind(const ConfLine& line, const std::string& name,
                       const std::vector<std::string>& known_types) {
  const ConfPair* type = line.find("type");
  if (type == nullptr) return "";
  if (!is_gres_type(type->value))
    throw InputError(line.where, type->written, type->value, "bad gres type");
  const std::string kind = name + ":" + type->value;
  if (std::find(known_types.begin(), known_types.end(), kind) == known_types.end())
    throw InputError(line.where, type->written, type->value,
                     "gres type not configured in slurm.conf (no node has Gres=" + kind + ":N)");
  return kind;
}

void add_devices(std::int64_t& total, std::int64_t count, const InputLocation& where) {
  total += count;
  if (total > kMaxDevices)
    throw InputError(where, "Count", std::to_string(total), "too many devices");
}

// gres.conf's counts replace slurm.conf's for each name it mentions, that name's typed
// kinds included (a kind gres.conf does not list for the node is gone).
void replace_counts(std::map<std::string, std::int64_t>& node,
                    const std::map<std::string, std::int64_t>& from_file) {
  for (const auto& [name, count] : from_file) {
    if (name.find(':') != std::string::npos) continue;
    const std::string prefix = name + ":";
    for (auto it = node.begin(); it != node.end();)
      it = it->first.starts_with(prefix) ? node.erase(it) : std::next(it);
  }
  for (const auto& [name, count] : from_file) node[name] = count;
}

}  // namespace

void apply_gres_conf(const std::string& path, NodeGresTable& table,
                     const std::vector<std::string>& known_types,
                     std::vector<std::string>& warnings) {
  NodeGresTable from_file;
  for (const ConfLine& line : read_conf_lines(path, false)) {
    const ConfPair* name = line.find("name");
    if (name == nullptr) {
      if (line.pairs.size() == 1 && line.first().key == "autodetect") continue;
      throw InputError(line.where, "Name", "", "gres.conf line without Name=");
    }
    if (std::find(known_types.begin(), known_types.end(), name->value) == known_types.end())
      throw InputError(line.where, name->written, name->value,
                       "gres type not configured in slurm.conf (GresTypes / node Gres)");
    warn_unknown_keys(line, warnings);
    const std::string kind = typed_kind(line, name->value, known_types);
    const std::int64_t count = device_count(line);
    for (const std::string& node : target_nodes(line, table, name->value)) {
      add_devices(from_file[node][name->value], count, line.where);
      if (!kind.empty()) add_devices(from_file[node][kind], count, line.where);
    }
  }
  for (const auto& [node, counts] : from_file) replace_counts(table[node], counts);
}

}  // namespace hs
