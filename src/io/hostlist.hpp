#pragma once
// Slurm hostlist expressions: "n[001-128]", "pre[1,3,5-7]suf", several bracket groups
// ("r[1-2]n[1-4]" = every combination, leftmost group slowest), and top-level comma lists
// ("n[1-4],gpu[1-2]"). Inside brackets: comma-separated decimal numbers or lo-hi ranges;
// a range is zero padded to the number of digits written for lo.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "util/error.hpp"

namespace hs {

inline constexpr std::size_t kMaxHostlistHosts = 1'000'000;
inline constexpr std::size_t kMaxHostNameLength = 255;
// The most nodes a slurm.conf may define: five times the largest machines Slurm runs today
// (~20,000 nodes), and a bound on what a malformed file can make the reader allocate.
inline constexpr std::size_t kMaxClusterNodes = 100'000;

// Names in the order written. InputError (field "hostlist") for reversed ranges,
// unbalanced or nested brackets, empty items, non-numeric bracket items, names longer than
// kMaxHostNameLength and expressions naming more than kMaxHostlistHosts hosts.
std::vector<std::string> expand_hostlist(std::string_view text, const InputLocation& where);

// What all the host lists of one input may name together. A listing of many lines, each
// just under the per-expression cap, would otherwise expand to billions of names.
// `what` names the limit in the error ("the input's host lists", "the NodeName lines").
class HostlistBudget {
 public:
  explicit HostlistBudget(std::size_t max_hosts = kMaxHostlistHosts,
                          std::string what = "the input's host lists")
      : limit_(max_hosts), remaining_(max_hosts), what_(std::move(what)) {}
  std::size_t limit() const { return limit_; }
  std::size_t remaining() const { return remaining_; }
  const std::string& what() const { return what_; }
  void spend(std::size_t hosts) { remaining_ -= hosts; }

 private:
  std::size_t limit_;
  std::size_t remaining_;
  std::string what_;
};

// As above, naming at most budget.remaining() hosts (InputError otherwise), and spends them.
std::vector<std::string> expand_hostlist(std::string_view text, const InputLocation& where,
                                         HostlistBudget& budget);

// The inverse, as Slurm prints node lists: names sharing a prefix and followed by a number
// become one bracket group, runs of consecutive numbers a range, in the order given
// ("n1,n2,n3,n7,gpu01,gpu02" -> "n[1-3,7],gpu[01-02]"). A range keeps the zero padding of
// its first number, so expand_hostlist(compress_hostlist(names)) == names for every list of
// names without '[', ']' or ','.
std::string compress_hostlist(const std::vector<std::string>& names);

}  // namespace hs
