#pragma once
// docs/reproduction.md: for every published table, the published numbers and ours side by
// side, how far apart they are, whether the published winner against the baseline is also
// ours, the exact commands, checker violations and the explanation notes (repro/notes/).
#include <string>
#include <vector>

#include "cli/repro_data.hpp"
#include "cli/repro_runner.hpp"

namespace hs::cli::repro {

struct DocumentInput {
  std::vector<std::string> tables;  // table ids in document order
  std::vector<PublishedValue> published;
  std::vector<Experiment> experiments;
  std::vector<RunGroup> groups;
  std::vector<GroupResult> results;  // parallel to groups
  RunSettings settings;
  std::string command;               // the reproduce command line
  std::string notes_dir;             // repro/notes: general.md and <table id>.md
  double wall_seconds = 0;           // this invocation
};

// Whether ours is far from the published value: utilization more than 5 points, run times
// more than 10 %, other measures more than 25 % (relative to the published value).
bool large_difference(const std::string& metric, double published, double ours);

// Baseline a published scheduler label is compared against within the same workload
// ("" = it is a baseline): backfill with the same priority, or the FF allocator with the
// same scheduler and predictor for Netti's dispatchers.
std::string baseline_of(const std::string& scheduler);

std::string render_document(const DocumentInput& in);

}  // namespace hs::cli::repro
