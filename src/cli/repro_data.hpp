#pragma once
// The data behind `hetsched reproduce`: the published numbers (repro/published/*.csv, one
// file per table of the source documents), the experiment list mapping each published row
// to a hetsched run (repro/experiments.csv), and how a published metric is read from our
// summary.csv fields (docs/reproduction-data in docs/reproduction.md's appendix).
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hs::cli::repro {

// One published number. `table` is "<source>-<table>", e.g. "002-V", "000-7", "003-A.3".
struct PublishedValue {
  std::string table, row, machine, workload, scheduler, metric;
  double value = 0;
  std::string text;  // as printed in the document (keeps its precision)
};

// The documents' window schedulers have no starvation guard; ours reserve for the top job by
// default. A window scheduler spec without a `starvation` option gets `starvation=none` so
// the runs are the documents'; and without `solver_enumerate_bids`, 0, the solver the
// reproduced tables were recorded with ("aucsched1" ->
// "aucsched1:starvation=none,solver_enumerate_bids=0"). Other specs are returned as they are.
std::string with_documents_setting(const std::string& spec);

// One published (table, machine, workload, scheduler) and the run that reproduces it.
struct Experiment {
  std::string table, machine, workload, scheduler;
  std::string cluster, workload_spec, scheduler_spec;  // scheduler_spec: with_documents_setting
  std::string quick_workload_spec;  // empty = not part of --quick
};

// A published metric in terms of our summary.csv: ours = field × scale.
struct MetricMapping {
  std::string metric;      // name used in repro/published (e.g. "wait_h")
  std::string field;       // summary.csv field (e.g. "wait_mean")
  double scale = 1;        // e.g. 1/3600 for hours
  std::string heading;     // column heading in the document
};

// Tables in document order with their titles.
struct TableInfo {
  std::string id, title, source;
};
const std::vector<TableInfo>& repro_tables();
const TableInfo* find_table(const std::string& id);

const std::vector<MetricMapping>& metric_mappings();
const MetricMapping* find_metric(const std::string& metric);

// Readers; bad lines raise InputError naming file, line, field and value.
std::vector<PublishedValue> read_published(const std::string& path);
std::vector<PublishedValue> read_published_dir(const std::string& dir);  // every *.csv, sorted
std::vector<Experiment> read_experiments(const std::string& path);

// Splits one CSV line (RFC 4180 quotes, no embedded line breaks).
std::vector<std::string> split_csv_line(const std::string& line, const std::string& file, long line_no);

}  // namespace hs::cli::repro
