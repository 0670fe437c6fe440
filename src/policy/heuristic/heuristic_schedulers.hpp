#pragma once
// Netti et al. (2018) dispatchers: a scheduler (which jobs start now) combined with an
// allocator (which nodes, as an order for unit-by-unit placement) and a duration
// predictor. See docs/heuristic-policies.md.
#include <memory>
#include <string_view>
#include <vector>

#include "policy/heuristic/allocators.hpp"
#include "policy/heuristic/predictors.hpp"
#include "sim/scheduler.hpp"
#include "util/params.hpp"

namespace hs {

// scheduler in {fifo, sjf, easy, prb, cph}, allocator in {ff, bf, balanced, weighted,
// pweighted}, predictor in {walltime, datadriven, oracle}. Options are read from `params`
// (critical-types, priority-bound, skip-unfit, prb-initial-wait, easy-bound, cph-window,
// cph-effort); unknown names or bad values throw InputError.
std::unique_ptr<Scheduler> make_heuristic_scheduler(std::string_view scheduler,
                                                    std::string_view allocator,
                                                    std::string_view predictor, Params& params);

std::vector<heuristic::NamedItem> heuristic_scheduler_list();
std::vector<heuristic::NamedItem> heuristic_allocator_list();
std::vector<heuristic::NamedItem> heuristic_predictor_list();

}  // namespace hs
