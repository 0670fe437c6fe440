#pragma once
// Values as `sacct --parsable2` prints them (Slurm 22.05 and older): timestamps, TRES
// strings and ReqMem. Malformed values are InputErrors naming file, line, field and value;
// "None"/"Unknown" timestamps and empty fields are "not known", not errors.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "util/error.hpp"

namespace hs::sacct {

// "2026-01-05T10:00:00" -> seconds since 1970-01-01T00:00:00 in the same (unstated) time
// zone; only differences are used. "", "None" and "Unknown" give nullopt.
std::optional<std::int64_t> parse_timestamp(std::string_view text, const InputLocation& where,
                                            const std::string& field);

// "4000M", "32G", "1.5G", "512K", "2T" -> MB, rounded up; no unit = MB. `whole` is the
// value reported in errors (the TRES string a size came from).
std::int64_t parse_size_mb(std::string_view text, std::string_view whole,
                           const InputLocation& where, const std::string& field);

// A TRES string: "cpu=8,mem=32G,node=2,billing=8,gres/gpu=4,gres/gpu:a100=4".
// Counts are totals across the job's nodes, as Slurm keeps them.
struct Tres {
  std::optional<std::int64_t> cpu;
  std::optional<std::int64_t> node;
  std::optional<std::int64_t> mem_mb;
  // Per gres name, the job's total: the untyped count ("gres/gpu=4") when given, else the
  // sum of its typed counts ("gres/gpu:a100=2,gres/gpu:v100=2"). In first-seen order.
  std::vector<std::pair<std::string, std::int64_t>> gres;
  bool typed = false;  // some gres came with a type ("gres/gpu:a100=4")
  // Typed counts as "name:type" -> total ("gpu:a100" -> 4), in first-seen order.
  std::vector<std::pair<std::string, std::int64_t>> kinds;
};
// Other TRES (billing, energy, fs/disk, license/..., bb/..., vmem, pages) are ignored.
Tres parse_tres(std::string_view text, const InputLocation& where, const std::string& field);

// ReqMem: "16000M" (22.05: the job's total, as its TRES mem; a lab dump shows --mem=2520M
// on 4 nodes as 10080M), "4000Mn" (per node, before 21.08), "250Mc" (per CPU), "0" = none.
struct ReqMem {
  enum class Per { Job, Node, Cpu };
  std::int64_t mb = 0;
  Per per = Per::Job;
};
std::optional<ReqMem> parse_req_mem(std::string_view text, const InputLocation& where,
                                    const std::string& field);

}  // namespace hs::sacct
