#include "cli/sweep_spec.hpp"

#include <fstream>
#include <sstream>

#include "cli/version.hpp"
#include "util/error.hpp"

namespace hs::cli {

namespace {

void line(std::ostringstream& out, const std::string& key, const std::string& value) {
  if (value.find('\n') != std::string::npos)
    throw InputError({"<command line>", 0}, key, value, "a line break cannot go into a sweep");
  out << key << "=" << value << "\n";
}

std::uint64_t whole_number(const std::string& value, const InputLocation& where,
                           const std::string& key) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(value.c_str(), &end, 10);
  if (value.empty() || *end != '\0') throw InputError(where, key, value, "not a whole number");
  return v;
}

void set_field(ComparisonSpec& spec, const std::string& key, const std::string& value,
               const InputLocation& where) {
  if (key == "cluster") spec.cluster = value;
  else if (key == "workload") spec.workload = value;
  else if (key == "add_gpus") spec.add_gpus = value;
  else if (key == "swf_partitions") spec.swf_partitions = value;
  else if (key == "scheduler") spec.schedulers.push_back(value);
  else if (key == "opt") spec.options.push_back(value);
  else if (key == "repeat") spec.repeat = static_cast<int>(whole_number(value, where, key));
  else if (key == "seed") spec.seed = whole_number(value, where, key);
  else if (key == "out") spec.out_dir = value;
  else if (key == "eurora_queues") spec.eurora_queues = whole_number(value, where, key) != 0;
  else throw InputError(where, "key", key, "unknown sweep field");
}

}  // namespace

std::string sweep_spec_text(const ComparisonSpec& spec) {
  std::ostringstream out;
  line(out, "hetsched", version_string());
  line(out, "cluster", spec.cluster);
  line(out, "workload", spec.workload);
  line(out, "add_gpus", spec.add_gpus);
  line(out, "swf_partitions", spec.swf_partitions);
  for (const auto& s : spec.schedulers) line(out, "scheduler", s);
  for (const auto& o : spec.options) line(out, "opt", o);
  line(out, "repeat", std::to_string(spec.repeat));
  line(out, "seed", std::to_string(spec.seed));
  line(out, "out", spec.out_dir);
  if (spec.eurora_queues) line(out, "eurora_queues", "1");
  return out.str();
}

ComparisonSpec read_sweep_spec(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError({path, 0}, "file", path, "cannot read the sweep file");
  ComparisonSpec spec;
  spec.write_report = false;
  std::string text;
  for (long number = 1; std::getline(in, text); ++number) {
    const InputLocation where{path, number};
    const auto eq = text.find('=');
    if (eq == std::string::npos) throw InputError(where, "line", text, "expected key=value");
    const std::string key = text.substr(0, eq), value = text.substr(eq + 1);
    if (number == 1) {
      if (key != "hetsched" || value != version_string())
        throw InputError(where, key, value,
                         "written by another hetsched (this is " + version_string() + ")");
      continue;
    }
    set_field(spec, key, value, where);
  }
  if (spec.schedulers.empty() || spec.repeat < 1)
    throw InputError({path, 0}, "scheduler", "", "the sweep has no runs");
  return spec;
}

}  // namespace hs::cli
