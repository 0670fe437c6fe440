#include <gtest/gtest.h>

#include <vector>

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

}  // namespace
}  // namespace hs::window
