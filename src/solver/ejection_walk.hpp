#pragma once
// Ejection walk: starts one more job (or a more valuable one in place of cheaper ones) by
// letting many started jobs move. The target joins a pool of unplaced jobs; the most
// valuable pooled job takes the bid whose way is cleared by the cheapest set of started
// jobs (a count weighted by how often each has moved already and by its value; jobs placed
// a few steps ago are tabu), those jobs go to the pool, and so on for up to a fixed number
// of steps. The best state seen (pooled jobs counted as not starting) replaces the
// incumbent if it is better. Unlike LocalSearch's ejection chains (depth 3) the walk can
// follow a displacement through dozens of jobs, which is what the windows where CBC beat
// the other moves needed (docs/solver.md). Deterministic given the seed.
#include <cstdint>
#include <vector>

#include "solver/budget.hpp"
#include "solver/incumbent.hpp"
#include "util/rng.hpp"

namespace hs::solver {

class EjectionWalk {
 public:
  EjectionWalk(const CompactProblem& problem, Budget& budget, std::uint64_t seed);
  // Walks from each job of `targets` that does not start (in the given order), first
  // requiring every started job to be placed again, then letting cheaper jobs than the
  // target drop out. Applies every improvement at once. Stops when the budget has spent
  // `effort_cap`. True if `best` improved.
  bool improve(Incumbent& best, const std::vector<std::int32_t>& targets,
               std::int64_t effort_cap);

 private:
  bool walk(const Incumbent& start, std::int32_t target, bool allow_drops);
  void begin_walk(const Incumbent& start, std::int32_t target);
  bool place_pooled(std::int32_t job, bool may_drop);
  void load(const Incumbent& start);
  std::int32_t pop_most_valuable();
  // Cheapest bid of `job` to place now and the jobs it ejects; -1 when none can be placed.
  std::int32_t choose_bid(std::int32_t job, bool respect_tabu, double& cost,
                          std::vector<std::int32_t>& ejected);
  // Greedy set of occupants whose removal lets `bid` fit, and its weight; < 0 if impossible
  // or if the weight reaches `cost_limit`.
  double ejection_cost(std::int32_t bid, bool respect_tabu, double cost_limit,
                       std::vector<std::int32_t>& ejected);
  double weight(std::int32_t job) const;
  bool fits_at(std::int32_t use) const;
  void place(std::int32_t job, std::int32_t bid);
  void remove(std::int32_t job);
  void change_load(std::int32_t bid, std::int32_t sign);
  void adopt(Incumbent& best) const;
  bool out_of_effort() { return budget_.spent() >= effort_cap_ || budget_.exhausted(); }

  const CompactProblem& problem_;
  Budget& budget_;
  Rng rng_;
  std::int64_t effort_cap_ = 0;
  std::vector<std::int32_t> job_bids_begin_;  // jobs + 1 offsets into job_bids_
  std::vector<std::int32_t> job_bids_;        // usable bids per job, descending value
  std::vector<double> job_value_;             // value of the job's best usable bid
  std::vector<double> value_weight_;  // per job, this walk: kValueWeight * value / target's
  // Walk state.
  std::vector<std::int32_t> bid_of_job_;
  std::vector<std::int32_t> remaining_;               // nodes * dims
  std::vector<std::vector<std::int32_t>> occupants_;  // per node: jobs placed on it
  std::vector<std::int32_t> pool_;
  std::vector<std::int32_t> ejected_;     // scratch: the jobs the chosen bid ejects
  std::vector<std::int32_t> moves_;       // per job: placements during this walk
  std::vector<std::int32_t> tabu_until_;  // per job: not ejectable before this step
  std::vector<std::int32_t> ejected_stamp_;
  std::int32_t stamp_ = 0;
  std::int32_t step_ = 0;
  double objective_ = 0.0;
  double best_objective_ = 0.0;
  std::vector<std::int32_t> best_bid_of_job_;
};

}  // namespace hs::solver
