#include "metrics/run_manifest.hpp"

#include <filesystem>
#include <fstream>

#include "metrics/outputs.hpp"
#include "util/error.hpp"

namespace hs {

void write_run_manifest(std::ostream& out, const RunManifest& m) {
  out << "{\n  \"hetsched\": " << json_string(m.version) << ",\n"
      << "  \"command\": " << json_string(m.command) << ",\n"
      << "  \"cluster\": " << json_string(m.cluster) << ",\n"
      << "  \"workload\": " << json_string(m.workload) << ",\n"
      << "  \"jobs\": " << m.jobs << ",\n"
      << "  \"seed\": " << m.seed << ",\n"
      << "  \"input_notes\": [";
  for (std::size_t i = 0; i < m.input_notes.size(); ++i)
    out << (i ? ", " : "") << json_string(m.input_notes[i]);
  out << "],\n  \"input_transformations\": [";
  for (std::size_t i = 0; i < m.transformations.size(); ++i)
    out << (i ? ", " : "") << json_string(m.transformations[i]);
  out << "],\n  \"scheduler\": " << json_string(m.scheduler) << ",\n"
      << "  \"options\": " << json_string(m.options) << ",\n"
      << "  \"options_from_slurm_conf\": [";
  for (std::size_t i = 0; i < m.site_options.size(); ++i)
    out << (i ? ", " : "") << json_string(m.site_options[i]);
  out << "]\n}\n";
}

void write_run_manifest(const std::string& dir, const RunManifest& manifest) {
  const std::string path = (std::filesystem::path(dir) / "run.json").string();
  std::ofstream out(path);
  if (out) write_run_manifest(out, manifest);
  if (!out) throw InputError({path, 0}, "output file", path, "cannot be written");
}

}  // namespace hs
