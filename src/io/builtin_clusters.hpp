#pragma once
// Machines from the source documents, available by name (no slurm.conf needed), and the
// one entry point that turns a --cluster argument into a Cluster.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/cluster.hpp"
#include "util/params.hpp"

namespace hs {

// paper1024 (default), S, M, L, tsubame2, tree1024, eurora, sdsc-sp2, kth-sp2; names are
// matched case-insensitively. std::nullopt for any other name.
std::optional<Cluster> builtin_cluster(std::string_view name);

// (name, one-line description) for every built-in, in a fixed order.
std::vector<std::pair<std::string, std::string>> builtin_cluster_list();

// A built-in name, or a path to a slurm.conf (or to a directory holding one). InputError
// naming the argument and listing the built-ins otherwise. The reader's warnings (ignored
// keys, nodes under no switch, ...) are appended to `warnings` when given; what the
// slurm.conf sets for the Slurm model (io/slurm_site_options.hpp) to `slurm_options`.
Cluster load_cluster_spec(const std::string& name_or_path,
                          std::vector<std::string>* warnings = nullptr,
                          std::vector<OptionDefault>* slurm_options = nullptr);

inline constexpr std::string_view kDefaultClusterName = "paper1024";

// `--cluster trace`: the machine an SWF trace's header describes (swf_machine in
// io/swf_reader.hpp), cores only, named "trace:<file stem>"; a warning says which rule of the
// header was used.
inline constexpr std::string_view kTraceClusterSpec = "trace";
Cluster swf_trace_cluster(const std::string& swf_path, std::vector<std::string>* warnings = nullptr);

}  // namespace hs
