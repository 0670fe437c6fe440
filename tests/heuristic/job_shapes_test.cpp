// Shape numbering and per-pass memos, and EASY's carried reservation: with an allocator that
// does not promise stateless placement, EASY plans at once and never carries a reservation,
// so the same first-fit order must give the same schedule as easy+ff.
#include <gtest/gtest.h>

#include "io/builtin_clusters.hpp"
#include "policy/heuristic/heuristic_schedulers.hpp"
#include "policy/heuristic/job_shapes.hpp"
#include "policy/heuristic/queue_policies.hpp"
#include "sim/bind.hpp"
#include "sim/schedule_digest.hpp"
#include "sim/simulator.hpp"
#include "workload/registry.hpp"

namespace hs::heuristic {
namespace {

TEST(ShapeTable, EqualUnitsAndMaskShareAnId) {
  ShapeTable table;
  const std::vector<char> mask_a{1, 1}, mask_b{1, 0};
  JobUnits u;
  u.count = 2;
  u.cores = 4;
  JobUnits v = u;
  v.gres[0] = 1;
  const ShapeId a = table.intern(u, &mask_a);
  EXPECT_EQ(table.intern(u, &mask_a), a);
  EXPECT_NE(table.intern(u, &mask_b), a);
  EXPECT_NE(table.intern(v, &mask_a), a);
  EXPECT_EQ(table.size(), 3u);
}

TEST(ShapeMemo, ClearForgetsEveryShape) {
  ShapeMemo<Time> memo;
  EXPECT_EQ(memo.find(5), nullptr);
  memo.set(5, 42);
  ASSERT_NE(memo.find(5), nullptr);
  EXPECT_EQ(*memo.find(5), 42);
  EXPECT_EQ(memo.find(4), nullptr);
  memo.clear();
  EXPECT_EQ(memo.find(5), nullptr);
}

// First fit that does not declare itself stateless.
class PlainFirstFit final : public Allocator {
 public:
  std::string name() const override { return "plain-ff"; }
  void order_nodes(const Cluster& cluster, const ClusterState& state, const JobUnits& u,
                   std::vector<NodeIndex>& order) override {
    ff_->order_nodes(cluster, state, u, order);
  }

 private:
  Params params_;
  std::unique_ptr<Allocator> ff_ = make_allocator("ff", params_);
};

class EasyWithoutCarry final : public Scheduler {
 public:
  EasyWithoutCarry() : core_(std::make_unique<PlainFirstFit>(), make_predictor("walltime", params_)) {}
  std::string name() const override { return "easy+plain-ff"; }
  RequestSupport supports() const override { return {.node_mask = true, .units = true}; }
  Decisions decide(const SystemView& view, std::span<const Event> events) override {
    Decisions out;
    core_.begin_pass(view, events, out);
    if (!core_.queue().empty()) schedule_easy(core_, {}, events, carry_, out);
    EXPECT_FALSE(carry_.valid);
    return out;
  }

 private:
  Params params_;
  DispatchCore core_;
  EasyCarry carry_;
};

TEST(EasyCarry, SameScheduleAsPlanningEveryPass) {
  Cluster cluster = *builtin_cluster("eurora");
  Workload workload = generate_workload("eurora:days=1", cluster, 3);
  bind_workload(cluster, workload);
  Params params;
  auto easy_ff = make_heuristic_scheduler("easy", "ff", "walltime", params);
  const SimResult carried = simulate(cluster, workload, *easy_ff, {});
  EasyWithoutCarry plain;
  const SimResult planned = simulate(cluster, workload, plain, {});
  EXPECT_EQ(schedule_digest(carried), schedule_digest(planned));
  EXPECT_EQ(carried.passes, planned.passes);
}

}  // namespace
}  // namespace hs::heuristic
