#pragma once
// A stand-in for Slurm in the bridge tests: serves a job table (captured from the real lab)
// and applies the bridge's scontrol commands to it as slurmctld would (update sets fields,
// release and uhold/hold change the hold), so a test can follow a job through its life.
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "bridge/slurm_bridge.hpp"

namespace hs::bridge::test {

class FakeSlurm : public SlurmCommands {
 public:
  std::string table;
  std::string nodes;
  std::string reservations;
  std::string partitions;
  std::vector<std::vector<std::string>> commands;
  std::set<std::string> fail_when;  // a command containing one of these fails
  bool down = false;                // the controller does not answer

  std::string list_jobs() override {
    if (down) throw SlurmUnavailable("Unable to contact slurm controller");
    return table;
  }
  std::string list_nodes() override { return nodes; }
  std::string list_reservations() override { return reservations; }
  std::string list_partitions() override { return partitions; }
  bool run(const std::vector<std::string>& argv, std::string& error) override {
    commands.push_back(argv);
    std::string line;
    for (const std::string& a : argv) line += a + " ";
    for (const std::string& f : fail_when)
      if (line.find(f) != std::string::npos) {
        error = "exit 1: slurm_update error: refused by the test";
        return false;
      }
    apply(argv);
    return true;
  }

  // Sets KEY=VALUE in job `id`'s line (appended when absent).
  void set_field(const std::string& id, const std::string& key, const std::string& value) {
    std::istringstream in(table);
    std::string out, row;
    while (std::getline(in, row)) {
      if (row.rfind("JobId=" + id + " ", 0) == 0) {
        const std::size_t at = row.find(" " + key + "=");
        if (at == std::string::npos) {
          row += " " + key + "=" + value;
        } else {
          const std::size_t start = at + key.size() + 2;
          row.replace(start, value_end(row, start) - start, value);
        }
      }
      out += row + "\n";
    }
    table = out;
  }

 private:
  // A value runs to the next token that holds a '=' (values may contain spaces).
  static std::size_t value_end(const std::string& row, std::size_t start) {
    for (std::size_t space = row.find(' ', start); space != std::string::npos; space = row.find(' ', space + 1)) {
      const std::size_t next = row.find(' ', space + 1);
      const std::string token = row.substr(space + 1, next == std::string::npos ? std::string::npos : next - space - 1);
      if (token.find('=') != std::string::npos || token.empty()) return space;
    }
    return row.size();
  }

  void apply(const std::vector<std::string>& argv) {
    if (argv.size() < 3) return;
    const std::string& verb = argv[1];
    if (verb == "release") {
      set_field(argv[2], "Reason", "None");
      set_field(argv[2], "Priority", "100");
    } else if (verb == "uhold" || verb == "hold") {
      set_field(argv[2], "Reason", verb == "uhold" ? "JobHeldUser" : "JobHeldAdmin");
      set_field(argv[2], "Priority", "0");
    } else if (verb == "update") {
      const std::string id = argv[2].substr(argv[2].find('=') + 1);
      for (std::size_t i = 3; i < argv.size(); ++i) {
        const std::size_t eq = argv[i].find('=');
        std::string value = argv[i].substr(eq + 1);
        if (value.empty()) value = "(null)";
        set_field(id, argv[i].substr(0, eq), value);
      }
    }
  }
};

// Only the lines of the given jobs in a `scontrol show job -o` table.
inline std::string lines_of(const std::string& table, const std::vector<int>& ids) {
  std::istringstream in(table);
  std::string line, out;
  while (std::getline(in, line))
    for (int id : ids)
      if (line.rfind("JobId=" + std::to_string(id) + " ", 0) == 0) out += line + "\n";
  return out;
}

// A start as the bridge pinned it: job id, nodes, cores per node, gres per node.
struct PinnedStart {
  std::string job;
  std::vector<std::string> nodes;
  int cores_per_node = 0;
  std::string tres;
};

inline std::string argument(const std::vector<std::string>& command, const std::string& key) {
  for (const std::string& a : command)
    if (a.rfind(key + "=", 0) == 0) return a.substr(key.size() + 1);
  return "";
}

// The pinning updates among the commands (those that set a non-empty ReqNodeList with
// NumNodes=K-K), each followed by a release of the same job.
inline std::vector<PinnedStart> pinned_starts(const std::vector<std::vector<std::string>>& commands) {
  std::vector<PinnedStart> starts;
  for (std::size_t i = 0; i + 1 < commands.size(); ++i) {
    const auto& c = commands[i];
    if (c.size() < 3 || c[1] != "update" || argument(c, "ReqNodeList").empty()) continue;
    if (commands[i + 1].size() < 3 || commands[i + 1][1] != "release") continue;
    PinnedStart s;
    s.job = argument(c, "JobId");
    std::stringstream nodes(argument(c, "ReqNodeList"));
    for (std::string n; std::getline(nodes, n, ',');) s.nodes.push_back(n);
    s.cores_per_node = std::stoi(argument(c, "MinCPUsNode"));
    s.tres = argument(c, "TresPerNode");
    starts.push_back(s);
  }
  return starts;
}

}  // namespace hs::bridge::test
