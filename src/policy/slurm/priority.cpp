#include "policy/slurm/priority.hpp"

#include <algorithm>
#include <cmath>

namespace hs::slurm {

namespace {
// The minimum node count the size factor uses (Slurm's details->min_nodes).
std::int64_t min_nodes_of(const JobRequest& r) {
  if (r.ntasks_per_node > 0)
    return std::max<std::int64_t>((r.ntasks + r.ntasks_per_node - 1) / r.ntasks_per_node,
                                  r.nodes_min);
  return std::max<std::int64_t>(1, r.nodes_min);
}
}  // namespace

std::int64_t multifactor_priority(const Cluster& cluster, const Job& job, Time now,
                                  const MultifactorConfig& config) {
  const Time waited = std::max<Time>(0, now - job.submit);
  const double age =
      config.max_age > 0 ? std::min(1.0, static_cast<double>(waited) / config.max_age) : 1.0;
  const double nodes = static_cast<double>(std::max(1, cluster.node_count()));
  const double cpus = static_cast<double>(std::max<std::int64_t>(1, cluster.total_cores()));
  const double want_nodes = static_cast<double>(min_nodes_of(job.req));
  const double want_cpus = static_cast<double>(std::max(1, job.req.ntasks));
  double size = config.favor_small
                    ? ((nodes - want_nodes) / nodes + (cpus - want_cpus) / cpus) / 2
                    : (want_nodes / nodes + want_cpus / cpus) / 2;
  size = std::clamp(size, 0.0, 1.0);
  const double p = config.weight_age * age + config.weight_job_size * size;
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(std::floor(p)));
}

std::int64_t basic_priority(JobRef submit_rank) {
  constexpr std::int64_t kTop = 0xfffffffeLL;
  return std::max<std::int64_t>(1, kTop - submit_rank);
}

PriorityModel::PriorityModel(PriorityType type, const MultifactorConfig& config)
    : type_(type), config_(config) {}

void PriorityModel::attach(const Cluster& cluster, const Workload& workload) {
  cluster_ = &cluster;
  workload_ = &workload;
  priority_.assign(workload.jobs.size(), 1);
  last_tick_ = -1;
}

void PriorityModel::on_submit(JobRef job, Time now) {
  if (priority_.size() < workload_->jobs.size()) priority_.resize(workload_->jobs.size(), 1);
  priority_[job] = type_ == PriorityType::Basic
                       ? basic_priority(job)
                       : multifactor_priority(*cluster_, workload_->jobs[job], now, config_);
}

bool PriorityModel::refresh(Time now, std::span<const JobRef> pending) {
  if (type_ == PriorityType::Basic || config_.calc_period <= 0) return false;
  const Time tick = now / config_.calc_period;
  if (tick <= last_tick_) return false;
  last_tick_ = tick;
  const Time at = tick * config_.calc_period;
  for (JobRef j : pending)
    priority_[j] = multifactor_priority(*cluster_, workload_->jobs[j], at, config_);
  return true;
}

QueueOrder::QueueOrder(const Cluster& cluster, const Workload& workload,
                       const PriorityModel& priority)
    : workload_(&workload), priority_(&priority), tier_(workload.jobs.size(), 1) {
  for (std::size_t j = 0; j < workload.jobs.size(); ++j) {
    const Partition* p = cluster.find_partition(workload.jobs[j].partition);
    tier_[j] = p ? p->priority_tier : 1;
  }
}

void QueueOrder::note_job(const Cluster& cluster, const Workload& workload, JobRef job) {
  if (tier_.size() < workload.jobs.size()) tier_.resize(workload.jobs.size(), 1);
  const Partition* p = cluster.find_partition(workload.jobs[job].partition);
  tier_[job] = p ? p->priority_tier : 1;
}

bool QueueOrder::before(JobRef a, JobRef b) const {
  if (tier_[a] != tier_[b]) return tier_[a] > tier_[b];
  const std::int64_t pa = priority_->priority(a), pb = priority_->priority(b);
  if (pa != pb) return pa > pb;
  const Time sa = workload_->jobs[a].submit, sb = workload_->jobs[b].submit;
  if (sa != sb) return sa < sb;
  return a < b;
}

void QueueOrder::insert(std::vector<JobRef>& order, JobRef job) const {
  const auto at = std::upper_bound(order.begin(), order.end(), job,
                                   [&](JobRef x, JobRef y) { return before(x, y); });
  order.insert(at, job);
}

void QueueOrder::sort(std::vector<JobRef>& order) const {
  std::sort(order.begin(), order.end(), [&](JobRef x, JobRef y) { return before(x, y); });
}

}  // namespace hs::slurm
