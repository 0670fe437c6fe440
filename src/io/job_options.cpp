#include "io/job_options.hpp"

#include <cctype>
#include <limits>
#include <set>

#include "io/hostlist.hpp"
#include "io/node_gres.hpp"
#include "io/slurm_time.hpp"
#include "io/task_options.hpp"
#include "io/text_file.hpp"

namespace hs {

using namespace text;  // io's parsing helpers

namespace {

constexpr std::int64_t kMaxCount = std::numeric_limits<std::int32_t>::max();
constexpr std::int64_t kMaxMemoryMb = std::int64_t{1} << 40;

enum class Option {
  Ntasks, Nodes, TasksPerNode, Gres, Contiguous, Mem, Time, Constraint, Nodelist, Exclude,
  Exclusive, CpusPerTask, Gpus, GpusPerNode, GpusPerTask, CpusPerGpu, MemPerCpu, MemPerGpu
};

struct OptionName {
  const char* short_form;  // "" when none
  const char* long_form;
  Option option;
  bool takes_value;
};

constexpr OptionName kOptions[] = {
    {"-n", "--ntasks", Option::Ntasks, true},
    {"-N", "--nodes", Option::Nodes, true},
    {"", "--ntasks-per-node", Option::TasksPerNode, true},
    {"", "--gres", Option::Gres, true},
    {"", "--contiguous", Option::Contiguous, false},
    {"", "--mem", Option::Mem, true},
    {"-t", "--time", Option::Time, true},
    {"-C", "--constraint", Option::Constraint, true},
    {"-w", "--nodelist", Option::Nodelist, true},
    {"-x", "--exclude", Option::Exclude, true},
    {"", "--exclusive", Option::Exclusive, false},
    {"-c", "--cpus-per-task", Option::CpusPerTask, true},
    {"-G", "--gpus", Option::Gpus, true},
    {"", "--gpus-per-node", Option::GpusPerNode, true},
    {"", "--gpus-per-task", Option::GpusPerTask, true},
    {"", "--cpus-per-gpu", Option::CpusPerGpu, true},
    {"", "--mem-per-cpu", Option::MemPerCpu, true},
    {"", "--mem-per-gpu", Option::MemPerGpu, true},
};

// One option occurrence: which option, the text written (for messages), its value.
struct Occurrence {
  const OptionName* name;
  std::string written;
  std::string_view value;
};

class OptionReader {
 public:
  OptionReader(const std::vector<std::string_view>& tokens, const InputLocation& where)
      : tokens_(tokens), where_(where) {}

  bool next(Occurrence& out) {
    if (at_ >= tokens_.size()) return false;
    const std::string_view token = tokens_[at_++];
    if (token.starts_with("--")) return read_long(token, out);
    if (token.size() >= 2 && token[0] == '-') return read_short(token, out);
    throw InputError(where_, "option", std::string(token), "expected an option such as -n");
  }

 private:
  bool read_long(std::string_view token, Occurrence& out) {
    const std::size_t eq = token.find('=');
    const std::string_view name = token.substr(0, eq);
    for (const OptionName& o : kOptions) {
      if (name != o.long_form) continue;
      out = {&o, std::string(name), {}};
      if (!o.takes_value) {
        if (eq != std::string_view::npos)
          throw InputError(where_, out.written, std::string(token), "takes no value");
        return true;
      }
      out.value = eq != std::string_view::npos ? token.substr(eq + 1) : take_value(out.written);
      return true;
    }
    throw InputError(where_, "option", std::string(token), "unknown option");
  }

  bool read_short(std::string_view token, Occurrence& out) {
    const std::string_view name = token.substr(0, 2);
    for (const OptionName& o : kOptions) {
      if (name != o.short_form) continue;
      out = {&o, std::string(name), token.size() > 2 ? token.substr(2) : take_value(name)};
      return true;
    }
    throw InputError(where_, "option", std::string(token), "unknown option");
  }

  std::string_view take_value(std::string_view option) {
    if (at_ >= tokens_.size() || tokens_[at_].empty())
      throw InputError(where_, std::string(option), "", "missing value");
    return tokens_[at_++];
  }

  const std::vector<std::string_view>& tokens_;
  const InputLocation& where_;
  std::size_t at_ = 0;
};

// Parses one number of a composite value; errors report the whole value.
std::int64_t number_in(std::string_view part, std::int64_t lo, std::string_view whole,
                       const InputLocation& where, const std::string& field) {
  try {
    return parse_int_in(part, lo, kMaxCount, where, field);
  } catch (const InputError& e) {
    throw InputError(where, field, std::string(whole), e.problem());
  }
}

void parse_nodes(std::string_view text, JobRequest& req, const InputLocation& where,
                 const std::string& field) {
  const std::size_t dash = text.find('-');
  if (dash == std::string_view::npos) {
    req.nodes_min = req.nodes_max =
        static_cast<std::int32_t>(number_in(text, 1, text, where, field));
    return;
  }
  const std::string_view hi = text.substr(dash + 1);
  req.nodes_min = static_cast<std::int32_t>(number_in(text.substr(0, dash), 0, text, where, field));
  // sbatch 22.05 refuses "-N a-" ("Maximum node count -1 is less than minimum node count a").
  if (hi.empty())
    throw InputError(where, field, std::string(text), "a node range needs its maximum (-N a-b), as sbatch does");
  req.nodes_max = static_cast<std::int32_t>(number_in(hi, 1, text, where, field));
  if (req.nodes_min > req.nodes_max)
    throw InputError(where, field, std::string(text), "reversed node range");
}

// A -w/-x host list, expanded; errors name the option and the whole value.
std::vector<std::string> host_names(std::string_view text, const InputLocation& where,
                                    const std::string& field) {
  std::vector<std::string> names;
  try {
    names = expand_hostlist(text, where);
  } catch (const InputError& e) {
    throw InputError(where, field, std::string(text), e.problem());
  }
  if (names.empty()) throw InputError(where, field, std::string(text), "no host names");
  return names;
}

void parse_constraint(std::string_view text, JobRequest& req, const InputLocation& where,
                      const std::string& field) {
  if (auto problem = parse_node_constraint(text, req.edit_node_rules().constraint))
    throw InputError(where, field, std::string(text), *problem);
}

// The per-task options, kept as written until the rest of the request is known.
bool keep_task_option(const Occurrence& o, TaskOptions& t) {
  WrittenOption* slot = nullptr;
  switch (o.name->option) {
    case Option::CpusPerTask: slot = &t.cpus_per_task; break;
    case Option::Gpus: slot = &t.gpus; break;
    case Option::GpusPerNode: slot = &t.gpus_per_node; break;
    case Option::GpusPerTask: slot = &t.gpus_per_task; break;
    case Option::CpusPerGpu: slot = &t.cpus_per_gpu; break;
    case Option::MemPerCpu: slot = &t.mem_per_cpu; break;
    case Option::MemPerGpu: slot = &t.mem_per_gpu; break;
    default: return false;
  }
  *slot = {o.written, std::string(o.value)};
  return true;
}

void apply(const Occurrence& o, JobRequest& req, const InputLocation& where) {
  const std::string& field = o.written;
  switch (o.name->option) {
    case Option::Ntasks:
      req.ntasks = static_cast<std::int32_t>(parse_int_in(o.value, 1, kMaxCount, where, field));
      break;
    case Option::Nodes: parse_nodes(o.value, req, where, field); break;
    case Option::TasksPerNode:
      req.ntasks_per_node =
          static_cast<std::int32_t>(parse_int_in(o.value, 1, kMaxCount, where, field));
      break;
    case Option::Gres: req.gres = parse_gres_request(o.value, where, field); break;
    case Option::Contiguous: req.contiguous = true; break;
    case Option::Mem: req.mem_per_node_mb = parse_memory_mb(o.value, where, field); break;
    case Option::Time:
      req.time_limit = parse_slurm_time(o.value, where, field, true);
      if (req.time_limit == 0)
        throw InputError(where, field, std::string(o.value), "time limit must be positive");
      break;
    case Option::Constraint: parse_constraint(o.value, req, where, field); break;
    case Option::Nodelist:
      req.edit_node_rules().nodelist = host_names(o.value, where, field);
      break;
    case Option::Exclude:
      req.edit_node_rules().exclude = host_names(o.value, where, field);
      break;
    case Option::Exclusive: req.exclusive = true; break;
    default: break;  // per-task options: keep_task_option
  }
}

// Slurm's defaults when -n is absent: ntasks-per-node on each of the minimum nodes, or
// one task per node.
void infer_ntasks(JobRequest& req, const InputLocation& where) {
  if (req.ntasks > 0) return;
  if (req.nodes_min <= 0)
    throw InputError(where, "-n", "", "give -n (tasks) or -N (nodes)");
  const std::int64_t per_node = req.ntasks_per_node > 0 ? req.ntasks_per_node : 1;
  const std::int64_t tasks = per_node * req.nodes_min;
  if (tasks > kMaxCount)
    throw InputError(where, "-n", std::to_string(tasks), "too many tasks");
  req.ntasks = static_cast<std::int32_t>(tasks);
  req.ntasks_implied = true;
}

// "2" or "1-3" (a count), as opposed to a gres type such as "a100" or "1080ti".
bool is_gres_count(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text)
    if (!std::isdigit(static_cast<unsigned char>(c)) && c != '-') return false;
  return true;
}

std::int32_t parse_gres_count(std::string_view part, std::string_view whole,
                              const InputLocation& where, const std::string& field) {
  try {
    return static_cast<std::int32_t>(parse_int_in(part, 0, 1'000'000, where, field));
  } catch (const InputError& e) {
    throw InputError(where, field, std::string(whole), "gres count: " + e.problem());
  }
}

}  // namespace

void parse_job_options(const std::vector<std::string_view>& tokens, JobRequest& req,
                       const InputLocation& where) {
  OptionReader reader(tokens, where);
  std::set<Option> seen;
  TaskOptions task;
  Occurrence o;
  while (reader.next(o)) {
    if (!seen.insert(o.name->option).second)
      throw InputError(where, o.written, std::string(o.value), "option given twice");
    if (!keep_task_option(o, task)) apply(o, req, where);
  }
  infer_ntasks(req, where);
  if (task.any()) apply_task_options(task, seen.count(Option::Ntasks) > 0, req, where);
}

std::vector<GresRequest> parse_gres_request(std::string_view text, const InputLocation& where,
                                            const std::string& field) {
  std::vector<GresRequest> gres;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != ',') continue;
    const std::string_view item = text.substr(start, i - start);
    start = i + 1;
    const std::size_t colon = item.find(':');
    GresRequest g;
    g.name = std::string(item.substr(0, colon));
    if (!is_gres_name(g.name))
      throw InputError(where, field, std::string(text), "bad gres name '" + g.name + "'");
    for (const GresRequest& other : gres)
      if (other.name == g.name)
        throw InputError(where, field, std::string(text),
                         "gres '" + g.name + "' given twice (one type per gres name is modelled)");
    g.per_node_min = g.per_node_max = 1;
    if (colon != std::string_view::npos) {
      std::string_view count = item.substr(colon + 1);
      const std::size_t type_end = count.find(':');
      if (type_end != std::string_view::npos || !is_gres_count(count)) {
        g.kind = std::string(count.substr(0, type_end));
        if (!is_gres_type(g.kind))
          throw InputError(where, field, std::string(text), "bad gres type '" + g.kind + "'");
        count = type_end == std::string_view::npos ? "1" : count.substr(type_end + 1);
        if (count.find('-') != std::string_view::npos)
          throw InputError(where, field, std::string(text),
                           "typed gres with a count range is not modelled");
      }
      const std::size_t dash = count.find('-');
      g.per_node_min = parse_gres_count(count.substr(0, dash), text, where, field);
      g.per_node_max = dash == std::string_view::npos
                           ? g.per_node_min
                           : parse_gres_count(count.substr(dash + 1), text, where, field);
      if (g.per_node_min > g.per_node_max)
        throw InputError(where, field, std::string(text), "reversed gres range");
    }
    gres.push_back(std::move(g));
  }
  return gres;
}

std::string format_gres_request(const std::vector<GresRequest>& gres) {
  std::string text;
  for (const GresRequest& g : gres) {
    if (!text.empty()) text += ',';
    text += g.kind_name() + ":" + std::to_string(g.per_node_min);
    if (g.per_node_max != g.per_node_min) text += "-" + std::to_string(g.per_node_max);
  }
  return text;
}

std::int64_t parse_memory_mb(std::string_view text, const InputLocation& where,
                             const std::string& field) {
  if (text.empty()) throw InputError(where, field, "", "missing memory size");
  std::string_view digits = text;
  const char unit = static_cast<char>(std::toupper(static_cast<unsigned char>(text.back())));
  std::int64_t kib_per_unit = 1024;  // default unit: MB
  if (std::isalpha(static_cast<unsigned char>(unit))) {
    digits.remove_suffix(1);
    switch (unit) {
      case 'K': kib_per_unit = 1; break;
      case 'M': kib_per_unit = 1024; break;
      case 'G': kib_per_unit = 1024 * 1024; break;
      case 'T': kib_per_unit = std::int64_t{1024} * 1024 * 1024; break;
      default: throw InputError(where, field, std::string(text), "unit must be K, M, G or T");
    }
  }
  const std::int64_t max_units = kMaxMemoryMb * 1024 / kib_per_unit;
  const std::int64_t units = parse_int_in(digits, 1, max_units, where, field);
  return (units * kib_per_unit + 1023) / 1024;
}

std::string format_job_options(const JobRequest& req) {
  std::string text;
  auto add = [&](const std::string& part) { text += (text.empty() ? "" : " ") + part; };
  if (req.ntasks > 0 && !req.ntasks_implied) add("-n " + std::to_string(req.units() ? req.unit_count() : req.ntasks));
  if (req.task_cores > 1) add("-c " + std::to_string(req.task_cores));
  // nodes_max 0 with nodes_min k is exactly k nodes; a range the partition gave is not written.
  if ((req.nodes_min > 0 || req.nodes_max > 0) && !req.nodes_from_partition) {
    if (req.nodes_min == req.nodes_max || req.nodes_max == 0) add("-N " + std::to_string(req.nodes_min));
    else add("-N " + std::to_string(req.nodes_min) + "-" + std::to_string(req.nodes_max));
  }
  if (req.ntasks_per_node > 0) add("--ntasks-per-node=" + std::to_string(req.ntasks_per_node));
  if (req.units()) {
    for (const GresRequest& g : req.gres)  // units get gres only from --gpus-per-task
      add("--gpus-per-task=" + (g.kind.empty() ? "" : g.kind + ":") + std::to_string(g.per_node_min));
  } else if (!req.gres.empty()) {
    add("--gres=" + format_gres_request(req.gres));
  }
  if (req.contiguous) add("--contiguous");
  if (req.mem_per_node_mb > 0) add("--mem=" + std::to_string(req.mem_per_node_mb) + "M");
  if (req.time_limit != 0) add("-t " + format_slurm_time(req.time_limit));
  const NodeRules& rules = req.node_rules();
  if (!rules.constraint.empty()) add("-C " + rules.constraint.text());
  if (!rules.nodelist.empty()) add("-w " + compress_hostlist(rules.nodelist));
  if (!rules.exclude.empty()) add("-x " + compress_hostlist(rules.exclude));
  if (req.exclusive) add("--exclusive");
  return text;
}

}  // namespace hs
