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

double prb_demand(const DispatchCore& core, const QueuedJob& q) {
  const Cluster& c = core.cluster();
  const JobUnits& u = *q.units;
  double share = static_cast<double>(u.total_cores) / static_cast<double>(c.total_cores());
  for (int t = 0; t < static_cast<int>(c.gres_types.size()); ++t)
    if (c.total_gres(t) > 0)
      share += static_cast<double>(u.total_gres(t)) / static_cast<double>(c.total_gres(t));
  return share * static_cast<double>(q.predicted);
}

std::vector<QueuedJob> prb_order(const DispatchCore& core, double initial_wait_s) {
  struct Keyed {
    double urgency;
    double demand;
    QueuedJob q;
  };
  std::vector<Keyed> keyed;
  keyed.reserve(core.queue().size());
  for (const QueuedJob& q : core.queue())
    keyed.push_back({prb_urgency(core, q, initial_wait_s), prb_demand(core, q), q});
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
