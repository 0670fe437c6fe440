#include "cli/executor_spec.hpp"

#include <cstdlib>

#include "util/error.hpp"
#include "util/params.hpp"

namespace hs::cli {

namespace {

const InputLocation kCommandLine{"<command line>", 0};

int bounded_int(const std::string& key, const std::string& value, int lo, int hi) {
  char* end = nullptr;
  const long v = std::strtol(value.c_str(), &end, 10);
  if (value.empty() || *end != '\0' || v < lo || v > hi)
    throw InputError(kCommandLine, "--executor", key + "=" + value,
                     "expected an integer in [" + std::to_string(lo) + ", " +
                         std::to_string(hi) + "]");
  return static_cast<int>(v);
}

void set_slurm_option(ExecutorSpec& spec, const std::string& key, const std::string& value) {
  if (key == "partition") spec.partition = value;
  else if (key == "time") spec.time = value;
  else if (key == "account") spec.account = value;
  else if (key == "mem") spec.mem = value;
  else if (key == "cpus") spec.cpus = bounded_int(key, value, 1, 1024);
  else if (key == "array_max") spec.array_max = bounded_int(key, value, 0, 100000);
  else if (key == "retries") spec.retries = bounded_int(key, value, 0, 100);
  else if (key == "poll") spec.poll_seconds = bounded_int(key, value, 1, 3600);
  else
    throw InputError(kCommandLine, "--executor", key + "=" + value,
                     "unknown key (partition, time, account, mem, cpus, array_max, retries, poll)");
}

}  // namespace

ExecutorSpec parse_executor(const std::string& text) {
  ExecutorSpec spec;
  spec.text = text;
  if (text == "local") return spec;
  const auto colon = text.find(':');
  if (text.substr(0, colon) != "slurm")
    throw InputError(kCommandLine, "--executor", text, "expected local or slurm[:key=value,...]");
  spec.slurm = true;
  if (colon == std::string::npos) return spec;
  const Params items = Params::parse(text.substr(colon + 1), "--executor");
  for (const auto& [key, value] : items.values()) {
    if (value.empty()) throw InputError(kCommandLine, "--executor", key + "=", "empty value");
    set_slurm_option(spec, key, value);
  }
  return spec;
}

}  // namespace hs::cli
