#pragma once
// Turns valued candidates into the solver-independent WindowProblem, and winners back into
// verified start decisions.
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/cluster.hpp"
#include "policy/window/candidate.hpp"
#include "policy/window/reservation.hpp"
#include "policy/window/window_job.hpp"
#include "sim/scheduler.hpp"
#include "solver/window_problem.hpp"

namespace hs::window {

// Resource dimensions: cores, one per cluster gres type, memory when any node models it;
// with a reservation, a second block "held at the reservation start" (cores and gres types
// while they fit in solver::kMaxDims).
struct DimensionLayout {
  int gres_types = 0;
  bool memory = false;
  int now_dims = 1;
  int future_dims = 0;  // 0 without a reservation
  int total() const { return now_dims + future_dims; }
};

DimensionLayout make_layout(const Cluster& cluster, bool with_reservation);

// make_layout kept for the cluster it was last asked about: a layout depends only on the
// cluster and the reservation, and make_layout reads every node, which a pass need not.
class LayoutCache {
 public:
  const DimensionLayout& of(const Cluster& cluster, bool with_reservation);

 private:
  const Cluster* cluster_ = nullptr;
  DimensionLayout without_, with_;
};

// Names of the problem's dimensions in build_problem's order: "cores", the gres types,
// "memory_mb" when modelled, then the reservation's dimensions as "<name>@reservation".
std::vector<std::string> dimension_names(const DimensionLayout& layout, const Cluster& cluster);

struct ProblemInput {
  const DimensionLayout* layout = nullptr;
  const FreeArrays* free = nullptr;
  std::span<const WindowJob> window;
  std::span<const Candidate> candidates;
  std::span<const double> values;             // parallel to candidates, each > 0
  const Reservation* reservation = nullptr;    // optional
  std::span<const char> holds_at_reservation;  // per slot: its bids count at the reservation
};

solver::WindowProblem build_problem(const ProblemInput& in);

// Winners as start decisions, each re-checked against the job's request and against what is
// still free (after earlier winners). Rejected proposals are reported in `problems`.
std::vector<StartDecision> verified_starts(const SystemView& view,
                                           std::span<const WindowJob> window,
                                           std::span<const Candidate> winners,
                                           std::vector<std::string>& problems);

}  // namespace hs::window
