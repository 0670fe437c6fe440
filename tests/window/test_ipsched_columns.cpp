#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <random>
#include <tuple>
#include <vector>

#include "policy/window/column_orders.hpp"
#include "policy/window/ipsched_columns.hpp"

namespace hs::window {
namespace {

// Free arrays of nodes with the given free cores and free gres of type 0 (memory not modelled).
FreeArrays free_of(const std::vector<std::int32_t>& cores, const std::vector<std::int32_t>& gres) {
  FreeArrays f;
  f.cores = cores;
  for (auto g : gres) {
    GresCounts c{};
    c[0] = g;
    f.gres.push_back(c);
  }
  f.mem.assign(cores.size(), 0);
  f.mem_modelled.assign(cores.size(), 0);
  return f;
}

WindowJob cores_job(std::int32_t cores, std::int32_t nodes_max) {
  WindowJob j;
  j.cores = cores;
  j.nodes_max = nodes_max;
  return j;
}

// The column, or an empty candidate when the shape finds none.
Candidate column(const FreeArrays& free, const WindowJob& job, ColumnShape shape) {
  Candidate c;
  if (!build_column(free, job, 0, {}, shape, c)) return Candidate{};
  return c;
}

// Columns order nodes by packed integer codes when the spare gres fit in 21 bits and by
// field-wise comparison otherwise: scaling every spare gres count past that keeps the order,
// so both paths must pick the same nodes and cores.
TEST(IpschedColumns, LargeGresCountsGiveTheSameColumnsAsSmallOnes) {
  const std::vector<std::int32_t> cores{4, 8, 8, 2, 8, 3, 8, 1};
  const std::vector<std::int32_t> gres{3, 1, 0, 2, 1, 0, 2, 4};
  std::vector<std::int32_t> huge;
  for (auto g : gres) huge.push_back(g * (1 << 22) + 7);  // past 2^21, same order
  const FreeArrays small = free_of(cores, gres), large = free_of(cores, huge);
  int found = 0;
  for (ColumnShape shape : {ColumnShape::Packed, ColumnShape::GresSaving, ColumnShape::Spread,
                            ColumnShape::BestFit})
    for (std::int32_t want : {1, 5, 9, 17, 30}) {
      const WindowJob job = cores_job(want, 4);
      const Candidate a = column(small, job, shape), b = column(large, job, shape);
      found += !a.nodes.empty();
      EXPECT_EQ(a.nodes, b.nodes) << "shape " << static_cast<int>(shape) << ", " << want << " cores";
      EXPECT_EQ(a.cores, b.cores) << "shape " << static_cast<int>(shape) << ", " << want << " cores";
    }
  EXPECT_GE(found, 17);  // most of the 20 requests fit
}

// The Packed shape's order: most usable cores, then fewest spare gres, then node index.
TEST(IpschedColumns, PackedTakesTheFullestNodesWithTheFewestSpareGresFirst) {
  const FreeArrays free = free_of({8, 8, 6, 8}, {2, 0, 0, 1});
  const Candidate c = column(free, cores_job(14, 0), ColumnShape::Packed);
  EXPECT_EQ(c.nodes, (std::vector<NodeIndex>{1, 3}));
  EXPECT_EQ(c.cores, (std::vector<std::int32_t>{8, 6}));
  const Candidate g = column(free, cores_job(14, 0), ColumnShape::GresSaving);
  EXPECT_EQ(g.nodes, (std::vector<NodeIndex>{1, 2}));
}

// The best fit as its definition reads, one scan of the Packed order per node taken: the
// last unused node whose usable cores hold what is left, else the first unused node.
std::map<NodeIndex, std::int32_t> best_fit_by_definition(const FreeArrays& free, const WindowJob& job) {
  struct Key {
    std::int32_t cap, spare;
    NodeIndex node;
  };
  std::vector<Key> keys;
  for (NodeIndex n = 0; n < free.node_count(); ++n)
    keys.push_back({std::min(free.cores[n], job.cores), free.gres[n][0], n});
  std::sort(keys.begin(), keys.end(), [](const Key& a, const Key& b) {
    if (a.cap != b.cap) return a.cap > b.cap;
    if (a.spare != b.spare) return a.spare < b.spare;
    return a.node < b.node;
  });
  std::vector<char> used(keys.size(), 0);
  std::map<NodeIndex, std::int32_t> taken;
  for (std::int32_t left = job.cores; left > 0;) {
    std::size_t fit = keys.size();
    for (std::size_t k = keys.size(); k-- > 0;)
      if (!used[k] && keys[k].cap >= left) { fit = k; break; }
    if (fit == keys.size())
      for (std::size_t k = 0; k < keys.size() && fit == keys.size(); ++k)
        if (!used[k]) fit = k;
    if (fit == keys.size()) return {};
    used[fit] = 1;
    const std::int32_t take = std::min(left, keys[fit].cap);
    if (take > 0) taken[keys[fit].node] += take;
    left -= take;
  }
  return taken;
}

// The best fit of jobs spanning many nodes (found through links between used nodes, not a
// scan of the order per node) takes exactly the nodes and cores its definition does.
TEST(IpschedColumns, BestFitOverManyNodesTakesWhatItsDefinitionTakes) {
  std::mt19937 random(7);
  int compared = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const int nodes = 1 + static_cast<int>(random() % (trial < 250 ? 40 : 2000));
    std::vector<std::int32_t> cores(nodes), gres(nodes);
    std::int32_t total = 0;
    for (int n = 0; n < nodes; ++n) {
      cores[n] = static_cast<std::int32_t>(random() % 9);
      gres[n] = static_cast<std::int32_t>(random() % 3);
      total += cores[n];
    }
    const std::int32_t want = 1 + static_cast<std::int32_t>(random() % (total + 2));
    const Candidate c = column(free_of(cores, gres), cores_job(want, 0), ColumnShape::BestFit);
    std::map<NodeIndex, std::int32_t> got;
    for (std::size_t k = 0; k < c.nodes.size(); ++k) got[c.nodes[k]] += c.cores[k];
    EXPECT_EQ(got, best_fit_by_definition(free_of(cores, gres), cores_job(want, 0)))
        << "trial " << trial << ": " << nodes << " nodes, " << want << " cores";
    compared += !got.empty();
  }
  EXPECT_GE(compared, 200);  // most requests fit, so the placements themselves are compared
}

// The shapes' orders by their definition: Packed = most usable cores, fewest spare gres,
// node index; GresSaving = fewest spare gres, then Packed.
std::vector<NodeIndex> order_by_definition(const FreeArrays& free, const WindowJob& job,
                                           ColumnShape shape, std::vector<NodeIndex> nodes) {
  auto key = [&](NodeIndex n) {
    const std::int32_t cap = core_cap(free, job, n), spare = free.gres[n][0];
    return shape == ColumnShape::GresSaving ? std::tuple(spare, -cap, n) : std::tuple(-cap, spare, n);
  };
  std::sort(nodes.begin(), nodes.end(), [&](NodeIndex a, NodeIndex b) { return key(a) < key(b); });
  return nodes;
}

// Orders of many nodes are bucketed by their fields when the nodes ascend and the fields
// take few values, and sorted otherwise: every way gives the definition's order and prefix.
TEST(IpschedColumns, LongOrdersAreTheDefinitionsWhicheverWayTheyAreSorted) {
  std::mt19937 random(60);
  for (int trial = 0; trial < 60; ++trial) {
    const int nodes = 1000 + static_cast<int>(random() % 4000);
    const std::int32_t kinds = trial % 3 == 0 ? 60 : 5;  // > 32 field values: sorted
    std::vector<std::int32_t> cores(nodes), gres(nodes);
    for (int n = 0; n < nodes; ++n) {
      cores[n] = static_cast<std::int32_t>(random() % kinds);
      gres[n] = static_cast<std::int32_t>(random() % 3);
    }
    const FreeArrays free = free_of(cores, gres);
    const WindowJob job = cores_job(1 + static_cast<std::int32_t>(random() % 500), 0);
    std::vector<NodeIndex> eligible(static_cast<std::size_t>(nodes));
    std::iota(eligible.begin(), eligible.end(), 0);
    if (trial % 5 == 1) std::shuffle(eligible.begin(), eligible.end(), random);  // not ascending
    for (ColumnShape shape : {ColumnShape::Packed, ColumnShape::GresSaving}) {
      const std::size_t keep = trial % 2 ? eligible.size() : 1024 + random() % 1000;
      std::vector<NodeIndex> got;
      std::vector<std::int32_t> caps;
      order_for(free, job, shape, keep, eligible, got, caps);
      std::vector<NodeIndex> want = order_by_definition(free, job, shape, eligible);
      want.resize(std::min(keep, want.size()));
      EXPECT_EQ(got, want) << "trial " << trial << ", shape " << static_cast<int>(shape);
      ASSERT_EQ(caps.size(), got.size());
      for (std::size_t k = 0; k < got.size(); ++k) EXPECT_EQ(caps[k], core_cap(free, job, got[k]));
    }
  }
}

}  // namespace
}  // namespace hs::window
