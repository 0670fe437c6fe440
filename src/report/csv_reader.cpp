#include "report/csv_reader.hpp"

#include <charconv>
#include <fstream>
#include <sstream>

#include "util/error.hpp"

namespace hs::report {

namespace {

// Splits one record starting at `pos`; advances `pos` past its line break and `line` by
// the line breaks consumed (quoted fields may hold some).
std::vector<std::string> next_record(const std::string& text, std::size_t& pos, long& line,
                                     const std::string& file) {
  std::vector<std::string> fields(1);
  const long start_line = line;
  bool quoted = false;
  while (pos < text.size()) {
    const char c = text[pos++];
    if (quoted) {
      if (c == '"' && pos < text.size() && text[pos] == '"') {
        fields.back() += '"';
        ++pos;
      } else if (c == '"') {
        quoted = false;
      } else {
        if (c == '\n') ++line;
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else if (c == '\n') {
      ++line;
      break;
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  if (quoted)
    throw InputError({file, start_line}, "record", fields.back(), "unterminated quoted field");
  return fields;
}

}  // namespace

int CsvTable::find(const std::string& name) const {
  for (std::size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) return static_cast<int>(i);
  return -1;
}

int CsvTable::require(const std::string& name) const {
  const int c = find(name);
  if (c < 0) throw InputError({file, 1}, "header", name, "required column is missing");
  return c;
}

CsvTable parse_csv(const std::string& text, const std::string& file) {
  CsvTable table;
  table.file = file;
  std::size_t pos = 0;
  long line = 1;
  if (text.empty()) throw InputError({file, 0}, "header", "", "file is empty");
  table.header = next_record(text, pos, line, file);
  while (pos < text.size()) {
    CsvRecord rec;
    rec.line = line;
    rec.fields = next_record(text, pos, line, file);
    if (rec.fields.size() == 1 && rec.fields[0].empty()) continue;  // blank line
    if (rec.fields.size() != table.header.size())
      throw InputError({file, rec.line}, "record", std::to_string(rec.fields.size()) + " fields",
                       "expected " + std::to_string(table.header.size()) + " as in the header");
    table.rows.push_back(std::move(rec));
  }
  return table;
}

CsvTable read_csv_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError({path, 0}, "file", path, "cannot be opened");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_csv(text.str(), path);
}

double csv_double(const CsvTable& table, const CsvRecord& row, int column) {
  const std::string& s = row.fields.at(column);
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size())
    throw InputError({table.file, row.line}, table.header.at(column), s, "not a number");
  return v;
}

std::int64_t csv_int(const CsvTable& table, const CsvRecord& row, int column) {
  const std::string& s = row.fields.at(column);
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size())
    throw InputError({table.file, row.line}, table.header.at(column), s, "not an integer");
  return v;
}

}  // namespace hs::report
