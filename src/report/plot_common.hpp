#pragma once
// Shared pieces of the gnuplot plots: where files go, colours, time units, number text.
#include <string>
#include <vector>

namespace hs::report {

// One image the report shows; the plot writers leave `<id>.gp` (and data files) in the
// plots directory, and the report runs gnuplot on the script to make `<id>.png`.
struct PlotSpec {
  std::string id;
  std::string heading;
  std::string caption;             // how to read the image
  std::vector<std::string> notes;  // e.g. what was cut to keep it readable
};

struct PlotContext {
  std::string plots_dir;
  std::vector<std::string> schedulers;  // display names
  std::vector<std::string> stems;       // file-name-safe, unique, same order
};

// File-name-safe, unique stems for the given display names.
std::vector<std::string> file_stems(const std::vector<std::string>& names);

// Line / bar colour of the i-th scheduler (Okabe-Ito palette, colour-blind safe).
std::string scheduler_colour(std::size_t i);

struct TimeUnit {
  double seconds = 1;
  std::string name;  // "s", "min", "h", "days"
};
// A unit that keeps a span of `span_s` seconds between roughly 1 and a few hundred.
TimeUnit time_unit_for(double span_s);

// A single-quoted gnuplot string literal.
std::string gp_quote(const std::string& text);
// "set terminal pngcairo ..." and "set output" lines for a width x height image.
std::string gp_png_header(const std::string& id, int width, int height);
// What a plot command draws: `'file' using <columns>`, or NaN when the file has no rows
// (gnuplot refuses a data file without points but draws nothing for NaN, keeping the key).
std::string gp_series(const std::string& data_file, bool has_rows, const std::string& columns);
// Locale-independent, round-trippable number text for data files.
std::string data_number(double v);

// Writes a whole text file; InputError when it cannot be written.
void write_text_file(const std::string& path, const std::string& text);
std::string plot_path(const PlotContext& ctx, const std::string& file);

}  // namespace hs::report
