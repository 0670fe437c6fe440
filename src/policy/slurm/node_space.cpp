#include "policy/slurm/node_space.hpp"

#include <algorithm>
#include <bit>

namespace hs::slurm {

void NodeBits::resize(int node_count, bool all) {
  nodes_ = node_count;
  words_.assign((node_count + 63) / 64, all ? ~std::uint64_t{0} : 0);
  if (all && (node_count & 63)) words_.back() = (std::uint64_t{1} << (node_count & 63)) - 1;
}

int NodeBits::count() const {
  int c = 0;
  for (std::uint64_t w : words_) c += std::popcount(w);
  return c;
}

bool NodeBits::has_at_least(int n) const {
  int c = 0;
  for (std::uint64_t w : words_) {
    if (c >= n) return true;
    c += std::popcount(w);
  }
  return c >= n;
}

void NodeSpace::reset(Time begin, Time window_end, int node_count) {
  const NodeBits all(node_count, true);
  words_ = all.words().size();
  pool_ = all.words();
  slots_.assign(1, Slot{begin, window_end, 0});
}

void NodeSpace::usable_during(Time start, Time end, const NodeBits& base, NodeBits& out,
                              Time& later) const {
  out = base;
  later = 0;
  std::uint64_t* acc = out.words().data();
  const std::uint64_t* b = base.words().data();
  for (std::size_t j = 0; j < slots_.size(); ++j) {
    const Slot& s = slots_[j];
    if (s.end > start && j + 1 < slots_.size() && later == 0) {
      // Does the next slot offer a node of `base` that is not usable now?
      const std::uint64_t* cur = bits_of(s);
      const std::uint64_t* next = bits_of(slots_[j + 1]);
      for (std::size_t w = 0; w < words_; ++w)
        if ((b[w] & next[w]) & ~(acc[w] & cur[w])) {
          later = s.end;
          break;
        }
    }
    if (s.end <= start) continue;
    if (s.begin > end) break;
    const std::uint64_t* cur = bits_of(s);
    for (std::size_t w = 0; w < words_; ++w) acc[w] &= cur[w];
  }
}

bool NodeSpace::overlaps(const NodeBits& nodes, Time start, Time end) const {
  const std::uint64_t* n = nodes.words().data();
  for (const Slot& s : slots_) {
    if (s.end <= start || s.begin >= end) continue;
    const std::uint64_t* cur = bits_of(s);
    for (std::size_t w = 0; w < words_; ++w)
      if (n[w] & ~cur[w]) return true;
  }
  return false;
}

std::size_t NodeSpace::split_at(Time t) {
  for (std::size_t j = 0; j < slots_.size(); ++j) {
    Slot& s = slots_[j];
    if (s.begin == t) return j;
    if (s.begin < t && t < s.end) {
      const auto offset = static_cast<std::uint32_t>(pool_.size());
      pool_.resize(pool_.size() + words_);
      std::copy_n(pool_.begin() + s.bits, words_, pool_.begin() + offset);
      const Slot tail{t, s.end, offset};
      slots_[j].end = t;
      slots_.insert(slots_.begin() + static_cast<std::ptrdiff_t>(j) + 1, tail);
      return j + 1;
    }
  }
  return slots_.size();
}

void NodeSpace::reserve(Time start, Time end, const NodeBits& nodes) {
  if (slots_.empty() || start >= slots_.back().end || end <= start) return;
  if (start < slots_.front().begin) start = slots_.front().begin;
  split_at(start);
  if (end < slots_.back().end) split_at(end);
  const std::uint64_t* n = nodes.words().data();
  for (std::size_t j = 0; j < slots_.size(); ++j) {
    Slot& s = slots_[j];
    if (s.begin < start) continue;
    if (s.begin >= end) break;
    std::uint64_t* cur = bits_of(s);
    for (std::size_t w = 0; w < words_; ++w) cur[w] &= ~n[w];
  }
}

}  // namespace hs::slurm
