#include "policy/window/problem_builder.hpp"

#include <algorithm>
#include <unordered_map>

#include "model/request_fit.hpp"

namespace hs::window {

DimensionLayout make_layout(const Cluster& cluster, bool with_reservation) {
  DimensionLayout l;
  l.gres_types = static_cast<int>(cluster.gres_types.size());
  l.memory = std::any_of(cluster.nodes.begin(), cluster.nodes.end(),
                         [](const Node& n) { return n.memory_mb > 0; });
  l.now_dims = 1 + l.gres_types + (l.memory ? 1 : 0);
  if (with_reservation)
    l.future_dims = std::min(1 + l.gres_types, solver::kMaxDims - l.now_dims);
  return l;
}

const DimensionLayout& LayoutCache::of(const Cluster& cluster, bool with_reservation) {
  if (cluster_ != &cluster) {
    cluster_ = &cluster;
    without_ = make_layout(cluster, false);
    with_ = make_layout(cluster, true);
  }
  return with_reservation ? with_ : without_;
}

namespace {

std::int32_t clamp32(std::int64_t v) {
  return static_cast<std::int32_t>(std::clamp<std::int64_t>(v, 0, INT32_MAX));
}

void fill_capacity(const DimensionLayout& l, const FreeArrays& f, const Reservation* r,
                   solver::WindowProblem& p) {
  p.capacity.assign(static_cast<std::size_t>(p.node_count) * p.dims, 0);
  for (int n = 0; n < p.node_count; ++n) {
    std::int32_t* row = &p.capacity[static_cast<std::size_t>(n) * p.dims];
    row[0] = f.cores[n];
    for (int t = 0; t < l.gres_types; ++t) row[1 + t] = f.gres[n][t];
    if (l.memory) row[1 + l.gres_types] = clamp32(f.mem[n]);
    if (r == nullptr) continue;
    for (int d = 0; d < l.future_dims; ++d)
      row[l.now_dims + d] = d == 0 ? r->spare.cores[n] : r->spare.gres[n][d - 1];
  }
}

}  // namespace

std::vector<std::string> dimension_names(const DimensionLayout& l, const Cluster& cluster) {
  std::vector<std::string> names{"cores"};
  for (int t = 0; t < l.gres_types; ++t) names.push_back(cluster.gres_types[t]);
  if (l.memory) names.push_back("memory_mb");
  for (int d = 0; d < l.future_dims; ++d) names.push_back(names[d] + "@reservation");
  return names;
}

solver::WindowProblem build_problem(const ProblemInput& in) {
  const DimensionLayout& l = *in.layout;
  solver::WindowProblem p;
  p.job_count = static_cast<std::int32_t>(in.window.size());
  p.node_count = in.free->node_count();
  p.dims = l.total();
  fill_capacity(l, *in.free, in.reservation, p);
  p.bids.reserve(in.candidates.size());
  for (std::size_t i = 0; i < in.candidates.size(); ++i) {
    const Candidate& c = in.candidates[i];
    const WindowJob& job = in.window[c.slot];
    const bool future = in.reservation != nullptr && in.holds_at_reservation[c.slot];
    solver::Bid bid;
    bid.job = c.slot;
    bid.value = in.values[i];
    bid.uses.reserve(c.nodes.size());
    for (std::size_t k = 0; k < c.nodes.size(); ++k) {
      solver::NodeUse u;
      u.node = c.nodes[k];
      u.amount[0] = in.free->held(u.node, c.cores[k]);
      if (job.gres_type >= 0 && job.gres_type < l.gres_types)
        u.amount[1 + job.gres_type] = c.gres_per_node;
      if (l.memory && in.free->mem_modelled[u.node])
        u.amount[1 + l.gres_types] = clamp32(job.mem_per_node_mb);
      if (future)
        for (int d = 0; d < l.future_dims; ++d) u.amount[l.now_dims + d] = u.amount[d];
      bid.uses.push_back(u);
    }
    p.bids.push_back(std::move(bid));
  }
  return p;
}

namespace {

// The view's free state with this pass's accepted starts taken, copying only their nodes
// (ClusterState::can_hold and take on a copy of the whole state, without the copy).
class TakenSoFar {
 public:
  explicit TakenSoFar(const ClusterState& free) : free_(free) {}
  bool can_hold(const Allocation& alloc) const {
    for (const NodeShare& s : alloc.shares) {
      const NodeFree& f = node(s.node);
      if (free_.held_cores(s) > f.cores || s.mem_mb > f.mem_mb) return false;
      for (int t = 0; t < kMaxGresTypes; ++t)
        if (s.gres[t] > f.gres[t]) return false;
    }
    return true;
  }
  void take(const Allocation& alloc) {
    for (const NodeShare& s : alloc.shares) {
      NodeFree& f = edited_.try_emplace(s.node, free_.node(s.node)).first->second;
      f.cores -= free_.held_cores(s);
      f.mem_mb -= s.mem_mb;
      for (int t = 0; t < kMaxGresTypes; ++t) f.gres[t] -= s.gres[t];
    }
  }

 private:
  const NodeFree& node(NodeIndex n) const {
    const auto it = edited_.find(n);
    return it != edited_.end() ? it->second : free_.node(n);
  }
  const ClusterState& free_;
  std::unordered_map<NodeIndex, NodeFree> edited_;
};

}  // namespace

std::vector<StartDecision> verified_starts(const SystemView& view,
                                           std::span<const WindowJob> window,
                                           std::span<const Candidate> winners,
                                           std::vector<std::string>& problems) {
  TakenSoFar state(*view.free);
  std::vector<StartDecision> out;
  for (const Candidate& c : winners) {
    const WindowJob& job = window[c.slot];
    Allocation alloc = to_allocation(*view.cluster, c, job);
    const Job& spec = view.job(job.ref);
    if (auto why = allocation_violates_request(*view.cluster, spec, alloc)) {
      problems.push_back("job " + std::to_string(spec.id) + ": " + *why);
      continue;
    }
    if (!state.can_hold(alloc)) {
      problems.push_back("job " + std::to_string(spec.id) + ": allocation exceeds free resources");
      continue;
    }
    state.take(alloc);
    out.push_back(StartDecision{job.ref, std::move(alloc)});
  }
  return out;
}

}  // namespace hs::window
