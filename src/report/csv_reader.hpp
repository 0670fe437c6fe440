#pragma once
// A small RFC 4180 reader for the run files the metrics area writes (jobs.csv, summary.csv,
// usage.csv, queue.csv). Every value comes back with its line so errors can name it.
#include <cstdint>
#include <string>
#include <vector>

namespace hs::report {

struct CsvRecord {
  long line = 0;                    // 1-based line where the record starts
  std::vector<std::string> fields;  // same count as the header (checked on reading)
};

struct CsvTable {
  std::string file;
  std::vector<std::string> header;
  std::vector<CsvRecord> rows;

  // Column index of `name`; -1 when absent.
  int find(const std::string& name) const;
  // Column index of `name`; InputError naming the file when absent.
  int require(const std::string& name) const;
};

// Reads a whole file. InputError (file, line, field, value) when the file cannot be read,
// is empty, has an unterminated quote, or a record's field count differs from the header's.
CsvTable read_csv_file(const std::string& path);
// Same, from text already in memory (`file` names it in errors).
CsvTable parse_csv(const std::string& text, const std::string& file);

// Typed access; InputError naming file, line, column name and the text when it is not a
// number. Empty fields are errors too: callers check for optional columns first.
double csv_double(const CsvTable& table, const CsvRecord& row, int column);
std::int64_t csv_int(const CsvTable& table, const CsvRecord& row, int column);

}  // namespace hs::report
