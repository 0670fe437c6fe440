#pragma once
// Tokenizer shared by slurm.conf, gres.conf and topology.conf: "#" comments (not inside
// double quotes), lines continued by a trailing "\", whitespace-separated Key=Value pairs
// (keys case-insensitive, values optionally in double quotes), and "Include <file>" lines
// (path relative to the including file's directory) when allowed.
#include <string>
#include <vector>

#include "util/error.hpp"

namespace hs {

struct ConfPair {
  std::string key;      // lower case
  std::string written;  // key as written, for messages
  std::string value;    // quotes removed
};

struct ConfLine {
  InputLocation where;  // file and first physical line of the logical line
  std::vector<ConfPair> pairs;

  const ConfPair& first() const { return pairs.front(); }
  const ConfPair* find(const std::string& lower_key) const;
};

// Logical lines of `path` (and of included files, in place). InputError for unreadable
// files, tokens without '=', unterminated quotes, a trailing "\" on the last line of a
// file, and Include cycles or depth > 16.
std::vector<ConfLine> read_conf_lines(const std::string& path, bool allow_include);

}  // namespace hs
