#pragma once
// Job priorities as Slurm's priority/basic and priority/multifactor plug-ins compute them,
// and the queue order the scheduler derives from them (docs/slurm-model.md).
#include <cstdint>
#include <span>
#include <vector>

#include "model/cluster.hpp"
#include "model/job.hpp"

namespace hs::slurm {

enum class PriorityType { Basic, Multifactor };

struct MultifactorConfig {
  Time max_age = 7 * 24 * 3600;        // PriorityMaxAge: the age factor saturates here
  std::int64_t weight_age = 10080;     // PriorityWeightAge (max_age in minutes: +1 a minute)
  std::int64_t weight_job_size = 10080;  // PriorityWeightJobSize (the documents: = age weight)
  bool favor_small = false;            // PriorityFavorSmall (the documents: larger jobs first)
  Time calc_period = 300;              // PriorityCalcPeriod
};

// Multifactor priority of `job` at `now`: floor(W_age * age + W_size * size), at least 1.
// age = min(1, waited / max_age); size = (nodes / N + cpus / C) / 2 (or its complement
// when favouring small jobs), nodes = the job's minimum node count.
std::int64_t multifactor_priority(const Cluster& cluster, const Job& job, Time now,
                                  const MultifactorConfig& config);

// priority/basic: the first job gets a large value and each later submission one less.
std::int64_t basic_priority(JobRef submit_rank);

class PriorityModel {
 public:
  PriorityModel(PriorityType type, const MultifactorConfig& config);
  PriorityType type() const { return type_; }
  const MultifactorConfig& config() const { return config_; }

  // Sizes the table for the workload; call once before anything else.
  void attach(const Cluster& cluster, const Workload& workload);
  // Initial priority at submission (multifactor: age 0); the workload may have grown.
  void on_submit(JobRef job, Time now);
  // Recomputes every pending job at the last PriorityCalcPeriod boundary <= now when one
  // was crossed since the previous recomputation. Returns true when it recomputed.
  bool refresh(Time now, std::span<const JobRef> pending);
  std::int64_t priority(JobRef job) const { return priority_[job]; }

 private:
  PriorityType type_;
  MultifactorConfig config_;
  const Cluster* cluster_ = nullptr;
  const Workload* workload_ = nullptr;
  std::vector<std::int64_t> priority_;
  Time last_tick_ = -1;
};

// Queue order of Slurm's schedulers: partition PriorityTier (high first), priority (high
// first), submit time, then submission order.
class QueueOrder {
 public:
  QueueOrder(const Cluster& cluster, const Workload& workload, const PriorityModel& priority);
  bool before(JobRef a, JobRef b) const;
  void insert(std::vector<JobRef>& order, JobRef job) const;  // keeps `order` sorted
  void sort(std::vector<JobRef>& order) const;
  // The partition tier of `job` as its request names it now (the workload may have grown).
  void note_job(const Cluster& cluster, const Workload& workload, JobRef job);

 private:
  const Workload* workload_;
  const PriorityModel* priority_;
  std::vector<std::int32_t> tier_;  // per job
};

}  // namespace hs::slurm
