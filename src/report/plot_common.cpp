#include "report/plot_common.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

#include "util/error.hpp"

namespace hs::report {

std::vector<std::string> file_stems(const std::vector<std::string>& names) {
  std::vector<std::string> stems;
  std::set<std::string> used;
  for (const std::string& name : names) {
    std::string stem;
    for (char c : name) {
      const bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                        (c >= '0' && c <= '9') || c == '-' || c == '_';
      stem += safe ? c : '_';
    }
    if (stem.empty()) stem = "scheduler";
    std::string unique = stem;
    for (int k = 2; used.count(unique); ++k) unique = stem + "-" + std::to_string(k);
    used.insert(unique);
    stems.push_back(unique);
  }
  return stems;
}

std::string scheduler_colour(std::size_t i) {
  static const char* palette[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                  "#E69F00", "#56B4E9", "#000000", "#F0E442"};
  return palette[i % 8];
}

TimeUnit time_unit_for(double span_s) {
  if (span_s <= 600) return {1, "s"};
  if (span_s <= 3 * 3600.0) return {60, "min"};
  if (span_s <= 4 * 86400.0) return {3600, "h"};
  return {86400, "days"};
}

std::string gp_quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') out += '\'';  // gnuplot doubles a quote inside single quotes
    if (c == '\n' || c == '\r') c = ' ';
    out += c;
  }
  return out + "'";
}

std::string gp_png_header(const std::string& id, int width, int height) {
  return "set terminal pngcairo size " + std::to_string(width) + "," + std::to_string(height) +
         " noenhanced font 'Sans,10'\nset output " + gp_quote(id + ".png") +
         "\nset format x '%g'\nset format y '%g'\n";
}

std::string gp_series(const std::string& data_file, bool has_rows, const std::string& columns) {
  return has_rows ? gp_quote(data_file) + " using " + columns : "NaN";
}

std::string data_number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

void write_text_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw InputError({path, 0}, "output", path, "cannot be written");
  out << text;
  out.flush();
  if (!out) throw InputError({path, 0}, "output", path, "write failed");
}

std::string plot_path(const PlotContext& ctx, const std::string& file) {
  return (std::filesystem::path(ctx.plots_dir) / file).string();
}

}  // namespace hs::report
