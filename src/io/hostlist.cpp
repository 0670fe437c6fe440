#include "io/hostlist.hpp"

#include <algorithm>
#include <cctype>
#include <optional>

#include "io/text_file.hpp"

namespace hs {

using namespace text;  // io's parsing helpers

namespace {

// One part of a host expression: a literal, or the alternatives of a bracket group.
struct Segment {
  std::string literal;
  std::vector<std::string> choices;  // empty for a literal
};

class HostlistParser {
 public:
  HostlistParser(std::string_view text, const InputLocation& where, std::size_t max_hosts,
                 const HostlistBudget* budget = nullptr)
      : text_(text), where_(where), max_hosts_(max_hosts), budget_(budget) {}

  std::vector<std::string> expand() {
    std::vector<std::string> hosts;
    for (std::string_view item : split_top_level()) {
      const std::vector<Segment> segments = parse_item(item);
      check_name_length(segments);
      add_to_total(combination_count(segments));
      append_combinations(segments, 0, "", hosts);
    }
    return hosts;
  }

 private:
  [[noreturn]] void fail(const std::string& problem) const {
    throw InputError(where_, "hostlist", std::string(text_), problem);
  }

  [[noreturn]] void fail_too_many() const {
    if (budget_ == nullptr) fail("expression names more than 1000000 hosts");
    fail(budget_->what() + " name more than " + std::to_string(budget_->limit()) +
         " hosts together");
  }

  std::vector<std::string_view> split_top_level() const {
    std::vector<std::string_view> items;
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text_.size(); ++i) {
      const char c = i < text_.size() ? text_[i] : ',';
      if (c == '[' && ++depth > 1) fail("nested '['");
      if (c == ']' && --depth < 0) fail("']' without '['");
      if (c != ',' || depth > 0) continue;
      const std::string_view item = trim(text_.substr(start, i - start));
      if (item.empty()) fail("empty host name in list");
      items.push_back(item);
      start = i + 1;
    }
    if (depth != 0) fail("'[' without ']'");
    return items;
  }

  std::vector<Segment> parse_item(std::string_view item) const {
    std::vector<Segment> segments;
    std::size_t i = 0;
    while (i < item.size()) {
      const std::size_t open = item.find('[', i);
      if (open != i) {
        const std::string_view literal = item.substr(i, open - i);
        check_literal(literal);
        segments.push_back({std::string(literal), {}});
        if (open == std::string_view::npos) break;
      }
      const std::size_t close = item.find(']', open);  // balanced: checked before
      segments.push_back({"", parse_group(item.substr(open + 1, close - open - 1))});
      i = close + 1;
    }
    return segments;
  }

  void check_literal(std::string_view literal) const {
    for (char c : literal)
      if (std::isspace(static_cast<unsigned char>(c)) || c == '=') fail("bad character in host name");
  }

  std::vector<std::string> parse_group(std::string_view group) const {
    std::vector<std::string> choices;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= group.size(); ++i) {
      if (i < group.size() && group[i] != ',') continue;
      add_range(trim(group.substr(start, i - start)), choices);
      start = i + 1;
    }
    return choices;
  }

  // "7" or "lo-hi"; zero padding to the width written for lo.
  void add_range(std::string_view range, std::vector<std::string>& choices) const {
    if (range.empty()) fail("empty item inside brackets");
    const std::size_t dash = range.find('-');
    const std::string_view lo_text = range.substr(0, dash);
    const std::string_view hi_text =
        dash == std::string_view::npos ? lo_text : range.substr(dash + 1);
    const std::uint64_t lo = parse_number(lo_text);
    const std::uint64_t hi = parse_number(hi_text);
    if (lo > hi) fail("reversed range '" + std::string(range) + "'");
    if (hi - lo >= kMaxHostlistHosts) fail("range names more than 1000000 hosts");
    for (std::uint64_t v = lo; v <= hi; ++v) {
      std::string digits = std::to_string(v);
      if (digits.size() < lo_text.size())
        digits.insert(0, lo_text.size() - digits.size(), '0');
      choices.push_back(std::move(digits));
      if (choices.size() > kMaxHostlistHosts) fail("range names more than 1000000 hosts");
    }
  }

  std::uint64_t parse_number(std::string_view digits) const {
    if (digits.empty() || digits.size() > 18) fail("bad number '" + std::string(digits) + "'");
    std::uint64_t value = 0;
    for (char c : digits) {
      if (!std::isdigit(static_cast<unsigned char>(c)))
        fail("bad number '" + std::string(digits) + "' inside brackets");
      value = value * 10 + static_cast<std::uint64_t>(c - '0');
    }
    return value;
  }

  // Host names are short (DNS allows 253 characters); a longer one is garbage, and a long
  // name multiplied by a large range would fill memory.
  void check_name_length(const std::vector<Segment>& segments) const {
    std::size_t longest = 0;
    for (const Segment& s : segments) {
      std::size_t widest = s.literal.size();
      for (const std::string& choice : s.choices) widest = std::max(widest, choice.size());
      longest += widest;
    }
    if (longest > kMaxHostNameLength)
      fail("host name longer than " + std::to_string(kMaxHostNameLength) + " characters");
  }

  std::size_t combination_count(const std::vector<Segment>& segments) const {
    std::size_t count = 1;
    for (const Segment& s : segments) {
      if (s.choices.empty()) continue;
      count *= s.choices.size();
      if (count > max_hosts_) fail_too_many();
    }
    return count;
  }

  void add_to_total(std::size_t count) {
    total_ += count;
    if (total_ > max_hosts_) fail_too_many();
  }

  void append_combinations(const std::vector<Segment>& segments, std::size_t k,
                           const std::string& prefix, std::vector<std::string>& hosts) const {
    if (k == segments.size()) {
      hosts.push_back(prefix);
      return;
    }
    if (segments[k].choices.empty()) {
      append_combinations(segments, k + 1, prefix + segments[k].literal, hosts);
      return;
    }
    for (const std::string& choice : segments[k].choices)
      append_combinations(segments, k + 1, prefix + choice, hosts);
  }

  std::string_view text_;
  const InputLocation& where_;
  std::size_t max_hosts_;
  const HostlistBudget* budget_;  // the input-wide limit, when there is one
  std::size_t total_ = 0;
};

// A name split before its trailing digits: "gpu012" -> prefix "gpu", digits "012".
struct NumberedName {
  std::string_view prefix;
  std::string_view digits;  // empty when the name does not end in a number
  std::uint64_t value = 0;
};

NumberedName split_number(std::string_view name) {
  std::size_t start = name.size();
  while (start > 0 && std::isdigit(static_cast<unsigned char>(name[start - 1]))) --start;
  if (name.size() - start > 18) start = name.size() - 18;  // keeps the value in 64 bits
  NumberedName n{name.substr(0, start), name.substr(start), 0};
  for (char c : n.digits) n.value = n.value * 10 + static_cast<std::uint64_t>(c - '0');
  return n;
}

std::string padded(std::uint64_t value, std::size_t width) {
  std::string digits = std::to_string(value);
  if (digits.size() < width) digits.insert(0, width - digits.size(), '0');
  return digits;
}

// One bracket group being built: a prefix and its ranges, each written with lo's padding.
struct RangeGroup {
  std::string prefix;
  struct Range {
    std::string lo_text;
    std::uint64_t lo, hi;
  };
  std::vector<Range> ranges;

  // Adds the name's number when the prefix matches; false when it needs a new group.
  bool add(const NumberedName& n) {
    if (n.prefix != prefix) return false;
    if (!ranges.empty()) {
      Range& last = ranges.back();
      if (n.value == last.hi + 1 && padded(n.value, last.lo_text.size()) == n.digits)
        return ++last.hi, true;
    }
    ranges.push_back({std::string(n.digits), n.value, n.value});
    return true;
  }

  std::string text() const {
    if (ranges.size() == 1 && ranges[0].lo == ranges[0].hi) return prefix + ranges[0].lo_text;
    std::string out = prefix + "[";
    for (std::size_t i = 0; i < ranges.size(); ++i) {
      const Range& r = ranges[i];
      out += (i ? "," : "") + r.lo_text;
      if (r.hi > r.lo) out += "-" + padded(r.hi, r.lo_text.size());
    }
    return out + "]";
  }
};

}  // namespace

std::string compress_hostlist(const std::vector<std::string>& names) {
  std::string out;
  std::optional<RangeGroup> group;
  auto flush = [&] {
    if (group) out += (out.empty() ? "" : ",") + group->text();
    group.reset();
  };
  for (const std::string& name : names) {
    const NumberedName n = split_number(name);
    if (n.digits.empty()) {
      flush();
      out += (out.empty() ? "" : ",") + name;
      continue;
    }
    if (group && group->add(n)) continue;
    flush();
    group = RangeGroup{std::string(n.prefix), {}};
    group->add(n);
  }
  flush();
  return out;
}

std::vector<std::string> expand_hostlist(std::string_view text, const InputLocation& where) {
  return HostlistParser(text, where, kMaxHostlistHosts).expand();
}

std::vector<std::string> expand_hostlist(std::string_view text, const InputLocation& where,
                                         HostlistBudget& budget) {
  std::vector<std::string> hosts = HostlistParser(text, where, budget.remaining(), &budget).expand();
  budget.spend(hosts.size());
  return hosts;
}

}  // namespace hs
