#include "policy/heuristic/queue_policies.hpp"

#include <algorithm>

namespace hs::heuristic {

std::vector<QueuedJob> sjf_order(const DispatchCore& core) {
  std::vector<QueuedJob> order = core.queue();
  std::stable_sort(order.begin(), order.end(), [](const QueuedJob& a, const QueuedJob& b) {
    return a.predicted < b.predicted;
  });
  return order;
}

double prb_urgency(const DispatchCore& core, const QueuedJob& q, double initial_wait_s) {
  const Job& job = core.view().job(q.job);
  const double expected = core.mean_wait(job.partition).value_or(initial_wait_s);
  return static_cast<double>(core.now() - job.submit) / std::max(1.0, expected);
}

namespace {

double demand_with(const std::vector<double>& cap, const QueuedJob& q) {
  const JobUnits& u = *q.units;
  double share = static_cast<double>(u.total_cores) / cap[0];
  for (std::size_t t = 1; t < cap.size(); ++t)
    if (cap[t] > 0) share += static_cast<double>(u.total_gres(static_cast<int>(t) - 1)) / cap[t];
  return share * static_cast<double>(q.predicted);
}

}  // namespace

double prb_demand(const DispatchCore& core, const QueuedJob& q) {
  return demand_with(core.capacities(), q);
}

std::vector<QueuedJob> prb_order(const DispatchCore& core, double initial_wait_s) {
  struct Keyed {
    double urgency;
    double demand;
    QueuedJob q;
  };
  const std::vector<double>& cap = core.capacities();
  std::vector<Keyed> keyed;
  keyed.reserve(core.queue().size());
  for (const QueuedJob& q : core.queue())
    keyed.push_back({prb_urgency(core, q, initial_wait_s), demand_with(cap, q), q});
  // Most urgent first; among equally urgent jobs the smaller demand first.
  std::stable_sort(keyed.begin(), keyed.end(), [](const Keyed& a, const Keyed& b) {
    if (a.urgency != b.urgency) return a.urgency > b.urgency;
    return a.demand < b.demand;
  });
  std::vector<QueuedJob> order;
  order.reserve(keyed.size());
  for (const Keyed& k : keyed) order.push_back(k.q);
  return order;
}

void schedule_in_order(DispatchCore& core, const std::vector<QueuedJob>& order,
                       const OrderedOptions& opt, Decisions& out) {
  for (const QueuedJob& q : order) {
    if (!core.try_start(q, out) && !opt.skip_unfit) return;
  }
}

}  // namespace hs::heuristic
