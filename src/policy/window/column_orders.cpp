#include "policy/window/column_orders.hpp"

#include <algorithm>
#include <array>
#include <functional>
#include <optional>

namespace hs::window {
namespace {

std::int32_t spare_gres(const FreeArrays& free, const WindowJob& job, NodeIndex n) {
  std::int32_t s = 0;
  for (auto g : free.gres[n]) s += g;
  return s - (job.gres_type >= 0 ? job.gres_min : 0);
}

// A node's sort keys, read once per column instead of at every comparison.
struct NodeKey {
  std::int32_t cap;
  std::int32_t spare;
  NodeIndex node;
};

// The Packed order: most usable cores first, then fewest spare gres, then node index.
bool packed_before(const NodeKey& a, const NodeKey& b) {
  if (a.cap != b.cap) return a.cap > b.cap;
  if (a.spare != b.spare) return a.spare < b.spare;
  return a.node < b.node;
}

// Puts the `keep` smallest items first, in order: a selection, then a sort of only those.
template <typename T, typename Less>
void sort_prefix(std::vector<T>& items, std::size_t keep, Less less) {
  const auto middle = items.begin() + static_cast<std::ptrdiff_t>(keep);
  if (keep < items.size()) std::nth_element(items.begin(), middle, items.end(), less);
  std::sort(items.begin(), middle, less);
}

// A shape's order as one integer per node, so that sorting compares integers instead of
// three fields: 21-bit fields, the first sort key most significant, the node index last
// (so the order stays total and the same). Used when every field fits; NodeKey otherwise.
constexpr int kCodeBits = 21;
constexpr std::int64_t kCodeLimit = std::int64_t{1} << kCodeBits;
constexpr std::uint64_t kCodeMask = kCodeLimit - 1;

std::uint64_t order_code(std::int32_t cap, std::int32_t spare, NodeIndex node, ColumnShape shape) {
  const std::uint64_t fewer_cores = kCodeMask - static_cast<std::uint64_t>(cap);
  const auto spare_bits = static_cast<std::uint64_t>(spare);
  const auto node_bits = static_cast<std::uint64_t>(node);
  if (shape == ColumnShape::GresSaving)  // fewest spare gres, then the Packed order
    return spare_bits << (2 * kCodeBits) | fewer_cores << kCodeBits | node_bits;
  return fewer_cores << (2 * kCodeBits) | spare_bits << kCodeBits | node_bits;  // Packed
}

std::int32_t cap_of_code(std::uint64_t code, ColumnShape shape) {
  const int shift = shape == ColumnShape::GresSaving ? kCodeBits : 2 * kCodeBits;
  return static_cast<std::int32_t>(kCodeMask - ((code >> shift) & kCodeMask));
}

NodeIndex node_of_code(std::uint64_t code) { return static_cast<NodeIndex>(code & kCodeMask); }

// Codes of nodes in ascending node order whose other fields take few distinct values (a
// machine of few node kinds): sorted by moving each into the bucket of its fields, in input
// order, in linear time. Within a bucket the node index decides, so this is the order a sort
// gives. False, the codes unchanged, when the nodes do not ascend or the values are many.
constexpr std::size_t kFewKeys = 32;

bool bucket_sort_codes(std::vector<std::uint64_t>& codes) {
  std::array<std::uint64_t, kFewKeys> keys{};
  std::array<std::size_t, kFewKeys> count{};
  std::size_t distinct = 0, last = 0;
  thread_local std::vector<std::uint8_t> bucket;
  bucket.resize(codes.size());
  for (std::size_t i = 0; i < codes.size(); ++i) {
    if (i > 0 && node_of_code(codes[i]) <= node_of_code(codes[i - 1])) return false;
    const std::uint64_t key = codes[i] >> kCodeBits;
    if (distinct == 0 || keys[last] != key) {
      last = static_cast<std::size_t>(
          std::find(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(distinct), key) -
          keys.begin());
      if (last == distinct) {
        if (distinct == kFewKeys) return false;
        keys[distinct++] = key;
      }
    }
    bucket[i] = static_cast<std::uint8_t>(last);
    ++count[last];
  }
  std::array<std::size_t, kFewKeys> by_key{};
  for (std::size_t b = 0; b < distinct; ++b) by_key[b] = b;
  std::sort(by_key.begin(), by_key.begin() + static_cast<std::ptrdiff_t>(distinct),
            [&keys](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
  std::array<std::size_t, kFewKeys> next{};
  for (std::size_t k = 0, at = 0; k < distinct; at += count[by_key[k]], ++k) next[by_key[k]] = at;
  thread_local std::vector<std::uint64_t> sorted;
  sorted.resize(codes.size());
  for (std::size_t i = 0; i < codes.size(); ++i) sorted[next[bucket[i]]++] = codes[i];
  codes.swap(sorted);
  return true;
}

// Long prefixes of many codes are bucketed when they can be; a sort of the prefix is as
// cheap for the others (a small job's few nodes, a small machine).
constexpr std::size_t kBucketFrom = 1024;

void sort_code_prefix(std::vector<std::uint64_t>& codes, std::size_t keep) {
  if (keep >= kBucketFrom && bucket_sort_codes(codes)) return;
  sort_prefix(codes, keep, std::less<>{});
}

// The codes of the eligible nodes for the shape; false when a field does not fit its bits
// (caps are at most the job's cores, node indices below the node count).
bool order_codes(const FreeArrays& free, const WindowJob& job, ColumnShape shape,
                 const std::vector<NodeIndex>& eligible, std::vector<std::uint64_t>& codes) {
  if (job.cores >= kCodeLimit || free.node_count() > kCodeLimit) return false;
  codes.clear();
  for (NodeIndex n : eligible) {
    const std::int32_t cap = core_cap(free, job, n), spare = spare_gres(free, job, n);
    if (cap < 0 || spare < 0 || spare >= kCodeLimit) return false;
    codes.push_back(order_code(cap, spare, n, shape));
  }
  return true;
}

}  // namespace

// The first `keep` of `eligible` sorted for the shape into `nodes`, with their core_cap in
// `caps`. Both orders end on the node index, so they are total: the kept prefix is that of
// the full sort, whether it was sorted fully or partially.
void order_for(const FreeArrays& free, const WindowJob& job, ColumnShape shape, std::size_t keep,
               const std::vector<NodeIndex>& eligible, std::vector<NodeIndex>& nodes,
               std::vector<std::int32_t>& caps) {
  keep = std::min(keep, eligible.size());
  thread_local std::vector<std::uint64_t> codes;
  if (order_codes(free, job, shape, eligible, codes)) {
    sort_code_prefix(codes, keep);
    nodes.resize(keep);
    caps.resize(keep);
    for (std::size_t k = 0; k < keep; ++k) {
      nodes[k] = node_of_code(codes[k]);
      caps[k] = cap_of_code(codes[k], shape);
    }
    return;
  }
  thread_local std::vector<NodeKey> keys;
  keys.clear();
  for (NodeIndex n : eligible) keys.push_back({core_cap(free, job, n), spare_gres(free, job, n), n});
  auto by_cores = [](const NodeKey& a, const NodeKey& b) { return packed_before(a, b); };
  auto by_gres = [](const NodeKey& a, const NodeKey& b) {
    if (a.spare != b.spare) return a.spare < b.spare;
    return packed_before(a, b);
  };
  if (shape == ColumnShape::GresSaving)
    sort_prefix(keys, keep, by_gres);
  else
    sort_prefix(keys, keep, by_cores);
  keys.resize(keep);
  nodes.resize(keep);
  caps.resize(keep);
  for (std::size_t k = 0; k < keys.size(); ++k) {
    nodes[k] = keys[k].node;
    caps[k] = keys[k].cap;
  }
}

namespace {

// `nodes` in the Packed order, with their `caps`: take whole large nodes until the smallest node that
// can hold the remainder exists, then that node. Caps fall along the order, so the nodes that
// hold the remainder are a prefix of it, and the node taken is the last unused one of that
// prefix: found through links from each used node to the one before it (path halving), so
// that a job of thousands of nodes does not scan the whole order for every node it takes.
bool best_fit_sorted(const std::vector<NodeIndex>& nodes, const std::vector<std::int32_t>& caps,
                     const WindowJob& job, std::int32_t nmax, Candidate& out) {
  const std::size_t size = nodes.size();
  std::vector<char> used(size, 0);
  // before_or_at[i] leads to i when key i - 1 is unused, else towards a smaller index;
  // 0 stands for "no unused key".
  std::vector<std::size_t> before_or_at(size + 1);
  for (std::size_t i = 0; i <= size; ++i) before_or_at[i] = i;
  auto last_unused_up_to = [&before_or_at](std::size_t i) {
    while (before_or_at[i] != i) {
      before_or_at[i] = before_or_at[before_or_at[i]];
      i = before_or_at[i];
    }
    return i;
  };
  std::int32_t left = job.cores;
  std::size_t next_large = 0;
  while (left > 0 && static_cast<std::int32_t>(out.nodes.size()) < nmax) {
    const auto holds_left = [left](std::int32_t cap) { return cap >= left; };
    const auto prefix = static_cast<std::size_t>(
        std::partition_point(caps.begin(), caps.end(), holds_left) - caps.begin());
    std::size_t fit = size;
    if (const std::size_t i = last_unused_up_to(prefix); i > 0) fit = i - 1;
    if (fit == size) {
      while (next_large < size && used[next_large]) ++next_large;
      if (next_large == size) return false;
      fit = next_large;
    }
    used[fit] = 1;
    before_or_at[fit + 1] = fit;
    const std::int32_t take = std::min(left, caps[fit]);
    out.nodes.push_back(nodes[fit]);
    out.cores.push_back(take);
    left -= take;
  }
  return left <= 0;
}

}  // namespace

// Best fit over the eligible nodes in the Packed order. Its first step takes the last node
// in that order whose cap holds the whole job, if there is one, and is then done: that node
// is found by one scan (the order is total), without sorting every eligible node, which
// most columns of small jobs did for nothing. Otherwise the nodes are sorted.
bool best_fit(const FreeArrays& free, const WindowJob& job, const std::vector<NodeIndex>& eligible,
              Candidate& out) {
  const std::int32_t nmax = effective_nodes_max(job, free.node_count());
  std::optional<NodeKey> fit;
  for (NodeIndex n : eligible) {
    const std::int32_t cap = core_cap(free, job, n);
    if (cap < job.cores) continue;
    const NodeKey key{cap, spare_gres(free, job, n), n};
    if (!fit || packed_before(*fit, key)) fit = key;
  }
  if (fit && nmax >= 1 && job.cores > 0) {
    out.nodes.push_back(fit->node);
    out.cores.push_back(job.cores);
    return true;
  }
  thread_local std::vector<NodeIndex> nodes;
  thread_local std::vector<std::int32_t> caps;
  order_for(free, job, ColumnShape::Packed, eligible.size(), eligible, nodes, caps);
  if (!best_fit_sorted(nodes, caps, job, nmax, out)) return false;
  normalise(out);
  return true;
}

// Caps are never negative, so the sum can stop once it reaches the job's cores.
bool enough_cores(const FreeArrays& free, const WindowJob& job,
                  const std::vector<NodeIndex>& nodes) {
  std::int64_t usable = 0;
  for (auto n = nodes.begin(); usable < job.cores && n != nodes.end(); ++n)
    usable += core_cap(free, job, *n);
  return usable >= job.cores;
}

}  // namespace hs::window
